package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/tokens"
	"github.com/promptc/promptc/usage"
)

func checkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "check",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "update", Usage: "accept the current artifacts: rewrite golden/"},
			&cli.BoolFlag{Name: "force", Usage: "with --update: rewrite golden/ even in CI"},
			&cli.BoolFlag{Name: "verbose", Usage: "on a pass, say what was compared; with no golden files yet, print every artifact in full, not a summary"},
			tokenizerFlag(),
			trafficFlag(),
		},
		Action: e.noArgs(func(c *cli.Context) error {
			// The diagnostics that stop check are also annotations on the sources in GitHub Actions.
			e.annotate = true
			update, force := c.Bool("update"), c.Bool("force")
			if force && !update {
				return usageErr(e, "check: --force only goes with --update")
			}
			if update && !force {
				if err := guard.UpdateRefusal(); err != nil {
					return usageErr(e, "check --update: %v", err)
				}
			}
			root, opt, err := e.guardOptions(c, "check")
			if err != nil {
				return err
			}
			if update {
				u, err := guard.UpdateDir(root)
				if err != nil {
					return e.checkError("updating golden/", err)
				}
				return u.WriteText(e.stderr)
			}
			res, err := guard.CheckDir(root, opt)
			if err != nil {
				return e.checkError("reading golden/", err)
			}
			if err := res.WriteCheck(e.stdout, e.reader(), e.invocation(), c.Bool("verbose")); err != nil || res.Passed() {
				return err
			}
			return exitError{exitChanged}
		}),
	}
}

// checkError maps an error of guard.CheckDir or guard.Update to the exit status: diagnostics (the project does not
// compile, or an artifact cannot be rendered), or a problem with golden/ itself (what says what check was doing).
func (e *env) checkError(what string, err error) error {
	return e.fail(err, func(err error) error {
		var link *assemble.LinkError
		if errors.As(err, &link) {
			link.Dir = "golden"
			return usageErr(e, "check: %v", link)
		}
		return usageErr(e, "%s: %v", what, err)
	})
}

func tokenizerFlag() cli.Flag {
	return &cli.StringFlag{Name: "tokenizer", Value: tokens.O200k.String(), Usage: "count tokens with `ENCODING`: o200k_base or cl100k_base (estimates)"}
}

// counter returns the token counter the command's --tokenizer flag asks for. The vocabulary loads on first use only.
func (e *env) counter(c *cli.Context) (*tokens.Counter, error) {
	enc, err := tokens.ParseEncoding(c.String("tokenizer"))
	if err != nil {
		return nil, usageErr(e, "%s: %v", c.Command.Name, err)
	}
	return tokens.New(enc), nil
}

func diffCommand(e *env) *cli.Command {
	format := report.Formats(report.AllFormats...)
	return &cli.Command{
		Name: "diff",
		Flags: []cli.Flag{
			formatChoiceFlag("report as", format),
			&cli.BoolFlag{Name: "exit-code", Usage: "exit 1 when an artifact differs"},
			tokenizerFlag(),
			trafficFlag(),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usageErr(e, "diff takes at most one revision, got %d arguments", c.NArg())
			}
			rev := "HEAD"
			if c.NArg() == 1 {
				rev = c.Args().First()
			}
			root, opt, err := e.guardOptions(c, "diff")
			if err != nil {
				return err
			}
			res, err := guard.Diff(root, rev, opt)
			if err != nil {
				return e.fail(err, func(err error) error { return usageErr(e, "diff: %v", err) })
			}
			if err := res.WriteNote(e.stderr); err != nil {
				return err
			}
			if err := res.Write(e.stdout, format.Format, e.reader()); err != nil {
				return err
			}
			if c.Bool("exit-code") && res.Changed() {
				return exitError{exitChanged}
			}
			return nil
		},
	}
}

func logCommand(e *env) *cli.Command {
	format := report.Formats(report.AllFormats...)
	return &cli.Command{
		Name:  "log",
		Flags: []cli.Flag{formatChoiceFlag("report as", format), tokenizerFlag(), trafficFlag()},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usageErr(e, "log takes at most one revision range, got %d arguments", c.NArg())
			}
			root, opt, err := e.guardOptions(c, "log")
			if err != nil {
				return err
			}
			l, err := guard.ReadLog(root, c.Args().First(), opt)
			if err != nil {
				return e.fail(err, func(err error) error { return usageErr(e, "log: %v", err) })
			}
			return l.Write(e.stdout, format.Format)
		},
	}
}

func trafficFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "traffic", Usage: "price the change at the traffic of usage log `FILE` (repeatable; instead of promptc.toml's [traffic])"}
}

// traffic reads the usage logs --traffic names into per-task traffic (nil when the flag is not given, so that the
// manifest's [traffic] applies); buckets that give no rate are named on stderr.
func (e *env) traffic(c *cli.Context, cmd string) ([]projection.Traffic, error) {
	files := c.StringSlice("traffic")
	if len(files) == 0 {
		return nil, nil
	}
	tally := usage.NewTally()
	if err := e.readLogs(cmd, "--traffic ", tally, files); err != nil {
		return nil, err
	}
	_, cat, err := e.usageCatalog(cmd, false)
	if err != nil {
		return nil, err
	}
	traffic, skipped := tally.Traffic(cat)
	for _, s := range skipped {
		_, _ = e.stderr.Write([]byte("promptc " + cmd + ": --traffic: " + s + "\n"))
	}
	if traffic == nil {
		traffic = []projection.Traffic{}
	}
	return traffic, nil
}

// guardOptions are what check, diff and log share: the project root, and the guard's options from --tokenizer and
// --traffic (read only where a change is priced: not for check --update).
func (e *env) guardOptions(c *cli.Context, cmd string) (string, guard.Options, error) {
	var opt guard.Options
	tok, err := e.counter(c)
	if err != nil {
		return "", opt, err
	}
	root, err := e.projectRoot()
	if err != nil {
		return "", opt, err
	}
	opt.Counter = tok
	if !c.Bool("update") {
		opt.Traffic, err = e.traffic(c, cmd)
	}
	return root, opt, err
}

// reader is who reads a report: the working directory promptc ran in, the project root and whether stdout takes
// colour.
func (e *env) reader() guard.Reader {
	return guard.Reader{WD: e.wd, Root: e.root, Color: e.colorOn(e.stdout)}
}
