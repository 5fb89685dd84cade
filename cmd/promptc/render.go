package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/internal/cliflag"
	"github.com/promptc/promptc/source"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/projection"
)

func renderCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "render",
		Usage:     "print one runbook, or one turn message, to stdout",
		UsageText: "promptc render --task T [--fixture F | --session FILE] [--turn K | --turn-file FILE]",
		Description: "Without --turn or --turn-file, prints the runbook of task T; with one, prints that turn message.\n" +
			"Session values come from fixture F (default: the only fixture rendering T) or from FILE; turn values\n" +
			"from turn K (1-based) of the fixture, or from FILE. A values FILE is a JSON object or a TOML table of\n" +
			"variable values (name = value), read as JSON when it ends in .json or starts with \"{\". FILE - reads\n" +
			"standard input (for one of --session and --turn-file). Every value is checked against its declaration.\n" +
			"A turn message over [turn] max_tokens is cut by the turn budget; what it cut is said on stderr.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "task", Usage: "the task kind `T` (required)"},
			&cli.StringFlag{Name: "fixture", Usage: "take values from fixtures/`F`.toml"},
			&cli.StringFlag{Name: "session", Usage: "take session values from `FILE` (JSON or TOML)"},
			&cli.GenericFlag{Name: "turn", Value: new(cliflag.Turn), Usage: "print the message of turn `K` (from 1) of the fixture"},
			&cli.StringFlag{Name: "turn-file", Usage: "print the turn message for the turn values in `FILE` (JSON or TOML)"},
		},
		OnUsageError: commandUsageError(e),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErr(e, "render takes no arguments, got %q", c.Args().First())
			}
			if c.String("task") == "" {
				return usageErr(e, "render: --task T is required (see promptc render --help)")
			}
			if c.IsSet("fixture") && c.IsSet("session") {
				return usageErr(e, "render: --fixture and --session both give session values; choose one")
			}
			if c.IsSet("turn") && c.IsSet("turn-file") {
				return usageErr(e, "render: --turn and --turn-file both give turn values; choose one")
			}
			if c.IsSet("turn") && c.IsSet("session") {
				return usageErr(e, "render: --turn K picks a turn of a fixture; with --session, give the turn values with --turn-file")
			}
			if c.String("session") == "-" && c.String("turn-file") == "-" {
				return usageErr(e, "render: --session and --turn-file cannot both read standard input (-); give one of them as a file")
			}
			prog, err := e.load()
			if err != nil {
				return err
			}
			text, err := e.render(c, prog)
			if err != nil {
				return err
			}
			_, err = io.WriteString(e.stdout, text)
			return err
		},
	}
}

func (e *env) render(c *cli.Context, pl *promptc.Pipeline) (string, error) {
	cmd := commandName(c)
	t, err := e.task(cmd, pl, c.String("task"))
	if err != nil {
		return "", err
	}
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

// task takes the task --task names, the one check of its name (promptc.Pipeline.Task).
func (e *env) task(cmd string, pl *promptc.Pipeline, name string) (promptc.Task, error) {
	t, err := pl.Task(name)
	if err != nil {
		return t, cmdErr(e, cmd, "%v", err)
	}
	return t, nil
}

// request reads the files the flags --fixture, --session, --turn, --turn-file (and with history, --history) name
// into the request the pipeline renders.
func (e *env) request(c *cli.Context, cmd string, history bool) (promptc.Request, error) {
	var r promptc.Request
	var err error
	if c.IsSet("session") {
		if r.SessionFile, err = e.valuesFile(cmd, c.String("session")); err != nil {
			return r, err
		}
	} else if c.IsSet("fixture") {
		if r.Fixture = c.String("fixture"); r.Fixture == "" {
			return r, cmdErr(e, cmd, "--fixture needs a fixture's name (a file name of fixtures/ without .toml)")
		}
	}
	switch {
	case c.IsSet("turn-file"):
		f, err := e.valuesFile(cmd, c.String("turn-file"))
		if err != nil {
			return r, err
		}
		r.Turn = &promptc.Turn{File: f}
	case c.IsSet("turn"):
		r.Turn = &promptc.Turn{K: c.Generic("turn").(*cliflag.Turn).N}
	}
	if name := c.String("history"); history && name != "" {
		data, err := readFileLimited(e.path(name), projection.MaxHistoryBytes+1)
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
// TurnFile, which Render decodes and checks; a file that cannot be read at all is a usage error.
func (e *env) valuesFile(cmd, name string) (*assemble.ValuesFile, error) {
	var data []byte
	var err error
	if name == "-" {
		// One byte past the limit is enough for ReadValues to report a file that is too large.
		data, err = io.ReadAll(io.LimitReader(os.Stdin, blocks.MaxSourceBytes+1))
	} else {
		data, err = readFileLimited(e.path(name), blocks.MaxSourceBytes+1)
	}
	if err != nil {
		err = e.pathError(name, err)
		if name == "-" {
			name = "standard input"
		}
		return nil, cmdErr(e, cmd, "cannot read %s: %v", source.QuoteName(name), err)
	}
	return &assemble.ValuesFile{Name: name, Data: data}, nil
}

// readFileLimited reads at most limit bytes of the file name, which must be a regular file: a named pipe would
// block the open until a writer comes (standard input, "-", is read elsewhere).
func readFileLimited(name string, limit int64) ([]byte, error) {
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: blocks.NotRegularError{Mode: fi.Mode()}}
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}
