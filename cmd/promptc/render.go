package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/cliflag"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/source"
)

func buildCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "build",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "write the artifacts under `DIR` (default: build/ in the project root)"},
			&cli.BoolFlag{Name: "verbose", Usage: "say what was built and what changed on disk"},
		},
		Action: e.noArgs(func(c *cli.Context) error {
			root, err := e.projectRoot()
			if err != nil {
				return err
			}
			out := ""
			if o := c.String("out"); o != "" {
				out = e.path(o)
				// Name the directory as the user gave it.
				if err := assemble.CheckOutDir(root, out); err != nil {
					bad := err.(*assemble.OutDirError)
					bad.Out, bad.Invocation = "--out "+source.QuoteName(o), e.invocation()
					return usageErr(e, "build: %v", bad)
				}
			}
			ch, err := assemble.BuildDir(root, out)
			if err != nil {
				return e.fail(err, func(err error) error {
					var link *assemble.LinkError
					if errors.As(err, &link) {
						// Name the link from the directory as the user gave it.
						link.Dir = cmp.Or(c.String("out"), "build")
						return usageErr(e, "build: %v", link)
					}
					return usageErr(e, "writing artifacts: %v", err)
				})
			}
			if c.Bool("verbose") {
				where := "build/"
				if o := c.String("out"); o != "" {
					where = source.QuoteName(o)
				}
				_, err = fmt.Fprintf(e.stdout, "promptc build: %s in %s: %d written, %d unchanged, %d stale removed\n",
					ch.Artifacts, where, len(ch.Written), ch.Unchanged, len(ch.Removed))
			}
			return err
		}),
	}
}

func renderCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "render",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "task", Usage: "the task kind `T` (required)"},
			&cli.StringFlag{Name: "fixture", Usage: "take values from fixtures/`F`.toml"},
			&cli.StringFlag{Name: "session", Usage: "take session values from `FILE` (JSON or TOML)"},
			&cli.GenericFlag{Name: "turn", Value: new(cliflag.Turn), Usage: "print the message of turn `K` (from 1) of the fixture"},
			&cli.StringFlag{Name: "turn-file", Usage: "print the turn message for the turn values in `FILE` (JSON or TOML)"},
		},
		Action: e.noArgs(func(c *cli.Context) error {
			if c.String("task") == "" {
				return usageErr(e, "render: --task T is required (see promptc render --help)")
			}
			if err := e.checkSources(c, "render", false); err != nil {
				return err
			}
			if c.String("session") == "-" && c.String("turn-file") == "-" {
				return usageErr(e, "render: --session and --turn-file cannot both read standard input (-); give one of them as a file")
			}
			_, t, err := e.openTask(c, "render", promptc.Options{})
			if err != nil {
				return err
			}
			text, err := e.render(c, t)
			if err != nil {
				return err
			}
			_, err = io.WriteString(e.stdout, text)
			return err
		}),
	}
}

// render renders what the flags ask of task t (render, install): its runbook, or a turn message.
func (e *env) render(c *cli.Context, t promptc.Task) (string, error) {
	cmd := commandName(c)
	r, err := e.request(c, cmd, false)
	if err != nil {
		return "", err
	}
	a, err := t.Render(r)
	if err != nil {
		return "", e.requestError(cmd, err)
	}
	if a.Budget.Over() {
		// What the turn budget cut, on stderr: stdout holds the message alone, byte for byte.
		warn := ""
		if a.Budget.Exceeded {
			warn = "warning: "
		}
		fmt.Fprintf(e.stderr, "promptc: %s%s\n", warn, a.Budget)
	}
	return a.Text, nil
}

// openTask opens the project (promptc.Open with opt) and takes the task --task names: the one check of its name
// (promptc.Pipeline.Task).
func (e *env) openTask(c *cli.Context, cmd string, opt promptc.Options) (*promptc.Pipeline, promptc.Task, error) {
	pl, err := e.open(opt)
	if err != nil {
		return nil, promptc.Task{}, err
	}
	t, err := pl.Task(c.String("task"))
	if err != nil {
		return nil, t, cmdErr(e, cmd, "%v", err)
	}
	return pl, t, nil
}

// sources is the request the flags --fixture, --session, --turn and --turn-file name, before any file is read:
// its values files hold their names only.
func sources(c *cli.Context) promptc.Request {
	var r promptc.Request
	if c.IsSet("session") {
		r.SessionFile = &assemble.ValuesFile{Name: c.String("session")}
	}
	r.Fixture = c.String("fixture")
	if c.IsSet("turn") || c.IsSet("turn-file") {
		r.Turn = &promptc.Turn{}
	}
	if c.IsSet("turn") {
		r.Turn.K = c.Generic("turn").(*cliflag.Turn).N
	}
	if c.IsSet("turn-file") {
		r.Turn.File = &assemble.ValuesFile{Name: c.String("turn-file")}
	}
	return r
}

// checkSources refuses, before the project is opened, flags of cmd that name a source twice or miss one (the
// pipeline's rule: promptc.Request.Check; input for a provider request's).
func (e *env) checkSources(c *cli.Context, cmd string, input bool) error {
	r := sources(c)
	if c.IsSet("fixture") && r.Fixture == "" {
		r.Fixture = "--fixture" // given, if empty: a source all the same (request says it needs a name)
	}
	var se *promptc.SourceError
	if !errors.As(r.Check(input), &se) {
		return nil
	}
	msg := map[promptc.SourceProblem]string{
		promptc.TwoSessions:  "--fixture and --session both give session values; choose one",
		promptc.TwoTurns:     "--turn and --turn-file both give turn values; choose one",
		promptc.TurnOfValues: "--turn K picks a turn of a fixture; with --session, give the turn values with --turn-file",
		promptc.NoTurnValues: "with --session, give the turn's values with --turn-file FILE",
	}[se.Problem]
	if se.Problem == promptc.TwoTurns && cmd == "project" {
		msg = "--turn and --turn-file both give the turn; choose one" // project's words since it took --turn-file
	}
	return cmdErr(e, cmd, "%s", msg)
}

// request reads the files the flags --fixture, --session, --turn, --turn-file (and with history, --history) name
// into the request the pipeline renders (sources, checked by checkSources).
func (e *env) request(c *cli.Context, cmd string, history bool) (promptc.Request, error) {
	r := sources(c)
	var err error
	if c.IsSet("fixture") && r.Fixture == "" {
		return r, cmdErr(e, cmd, "--fixture needs a fixture's name (a file name of fixtures/ without .toml)")
	}
	if f := r.SessionFile; f != nil {
		if r.SessionFile, err = e.valuesFile(cmd, f.Name); err != nil {
			return r, err
		}
	}
	if r.Turn != nil && r.Turn.File != nil {
		if r.Turn.File, err = e.valuesFile(cmd, r.Turn.File.Name); err != nil {
			return r, err
		}
	}
	if name := c.String("history"); history && name != "" {
		data, err := assemble.ReadLimited(e.path(name), projection.MaxHistoryBytes+1)
		if err != nil {
			return r, cmdErr(e, cmd, "cannot read --history file %s: %v", source.QuoteName(name), e.pathError(name, err))
		}
		r.History = &assemble.ValuesFile{Name: name, Data: data}
	}
	return r, nil
}

// requestError reports an error of the pipeline rendering a request: diagnostics as diagnostics, a fixture that
// cannot be had with the flag that chooses another, anything else as a message of cmd.
func (e *env) requestError(cmd string, err error) error {
	var fe *blocks.FixtureError
	if errors.As(err, &fe) {
		switch fe.Problem {
		case blocks.NoFixtureForTask:
			return cmdErr(e, cmd, "%v; give session values with --session FILE", err)
		case blocks.SeveralFixturesForTask:
			return cmdErr(e, cmd, "%v with --fixture", err)
		}
	}
	return e.fail(err, func(err error) error { return cmdErr(e, cmd, "%v", err) })
}

// valuesFile reads a values file given on the command line ("-" for standard input) for a Request's SessionFile or
// TurnFile (assemble.ReadValuesFile), which Render decodes and checks; a file that cannot be read at all is a usage
// error.
func (e *env) valuesFile(cmd, name string) (*assemble.ValuesFile, error) {
	f, err := assemble.ReadValuesFile(name, e.path(name), os.Stdin)
	if err != nil {
		err = e.pathError(name, err)
		if name == "-" {
			name = "standard input"
		}
		return nil, cmdErr(e, cmd, "cannot read %s: %v", source.QuoteName(name), err)
	}
	return f, nil
}
