package main

import (
	"errors"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/miss"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/usage"
)

func usageCommand(e *env) *cli.Command {
	format := report.Formats(report.AllFormats...)
	var by usage.Period
	return &cli.Command{
		Name: "usage",
		Flags: []cli.Flag{
			formatChoiceFlag("write the report as", format),
			&cli.GenericFlag{Name: "by", Value: &by, Usage: "report per `PERIOD`: hour or day (UTC)"},
			&cli.StringFlag{Name: "log", Usage: "with --by: mark the commits of `REV_RANGE` that invalidated a prefix (promptc log)"},
			&cli.BoolFlag{Name: "predict", Usage: "compare each task's hit rate with promptc simulate on the project's fixtures (BELOW: more than 1 point under)"},
			&cli.StringFlag{Name: "task-attribute", Value: usage.TaskAttribute, Usage: "read an OTLP span's task from its attribute `KEY`"},
			&cli.StringFlag{Name: "turn-attribute", Value: usage.TurnAttribute, Usage: "read an OTLP span's turn (an integer from 1) from its attribute `KEY`"},
		},
		Action: func(c *cli.Context) error {
			const cmd = "usage"
			if c.NArg() == 0 {
				return cmdErr(e, cmd, "name the log files to read (FILE... ; - for stdin)")
			}
			pl, cat, err := e.usageCatalog(cmd, c.Bool("predict"))
			if err != nil {
				return err
			}
			tally := usage.NewTally()
			for _, f := range [...]struct{ flag, def string }{{"task-attribute", usage.TaskAttribute}, {"turn-attribute", usage.TurnAttribute}} {
				if c.String(f.flag) == "" {
					return cmdErr(e, cmd, "--%s names a span attribute: give its key (default %s)", f.flag, f.def)
				}
			}
			tally.Attributes = usage.Attributes{Task: c.String("task-attribute"), Turn: c.String("turn-attribute")}
			if err := e.readLogs(cmd, "", tally, c.Args().Slice()); err != nil {
				return err
			}
			if by != 0 {
				s, err := e.series(c, "usage", tally, by, cat)
				if err != nil {
					return err
				}
				return s.Write(e.stdout, format.Format)
			} else if c.IsSet("log") {
				return cmdErr(e, cmd, "--log marks commits on a series: add --by hour or --by day")
			}
			rep := usage.NewReport(tally, cat)
			if pl != nil {
				if err := pl.Predict(rep); err != nil {
					return e.fail(err, nil)
				}
			}
			return rep.Write(e.stdout, format.Format)
		},
	}
}

// readLogs counts the log files names into tally (- is stdin), printing the problems of their lines on stderr; a file
// that cannot be read is named after flag ("--traffic ", or "" for arguments).
func (e *env) readLogs(cmd, flag string, tally *usage.Tally, names []string) error {
	var diags source.Diagnostics
	for _, name := range names {
		ds, err := tally.ReadFile(name, e.path(name), os.Stdin)
		if err != nil {
			return cmdErr(e, cmd, "%s%s: %v", flag, source.QuoteName(name), e.pathError(name, err))
		}
		diags = append(diags, ds...)
	}
	if len(diags) > 0 {
		_, _ = e.stderr.Write([]byte(diags.String()))
	}
	return nil
}

// series is tally per period of by (guard.Series), marked with the commits of --log when it is given.
func (e *env) series(c *cli.Context, cmd string, tally *usage.Tally, by usage.Period, cat *projection.Catalog) (*usage.Series, error) {
	opt := guard.SeriesOptions{By: by, Catalog: cat, Log: c.IsSet("log"), Range: c.String("log")}
	root := e.root
	if opt.Log {
		var err error
		if root, err = e.projectRoot(); err != nil {
			return nil, err
		}
	}
	s, err := guard.Series(root, tally, opt)
	if err != nil {
		return nil, e.fail(err, func(err error) error { return usageErr(e, "%s --log: %v", cmd, err) })
	}
	return s, nil
}

// usageCatalog returns the model table command cmd prices usage logs with: the project's, when promptc runs in one
// (and the compiled project, for --predict), else the built-in rows.
func (e *env) usageCatalog(cmd string, predict bool) (*promptc.Pipeline, *projection.Catalog, error) {
	pl, err := e.inProject()
	switch {
	case err != nil:
		return nil, nil, err
	case pl == nil && predict:
		return nil, nil, cmdErr(e, cmd, "--predict simulates the project's fixtures: run promptc inside a project, or pass -C DIR")
	}
	cat, err := pl.Catalog()
	if err != nil {
		return nil, nil, cmdErr(e, cmd, "%v", err)
	}
	if !predict {
		pl = nil
	}
	return pl, cat, nil
}

func missCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "miss",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "provider", Usage: "the API both bodies are for: `P` is one of anthropic, openai, dashscope, bedrock, gemini, deepseek (default: told from each body)"},
		},
		Action: func(c *cli.Context) error {
			const cmd = "miss"
			if c.NArg() != 2 {
				return cmdErr(e, cmd, "give two request bodies, A then B (got %s)", plural.Count(c.NArg(), "argument"))
			}
			if err := miss.CheckProvider(c.String("provider")); err != nil {
				return cmdErr(e, cmd, "--provider: %v", err)
			}
			var data [2][]byte
			for i, name := range c.Args().Slice() {
				d, err := assemble.ReadLimited(e.path(name), miss.MaxBodyBytes+1)
				if err != nil {
					err = e.pathError(name, err)
				} else {
					err = miss.CheckSize(d)
				}
				if err != nil {
					return cmdErr(e, cmd, "%s: %v", source.QuoteName(name), err)
				}
				data[i] = d
			}
			// Inside a project, its model rows apply and its runbooks name the sources.
			pl, err := e.inProject()
			if err != nil {
				return err
			}
			cat, err := pl.Catalog()
			if err != nil {
				return err
			}
			r, src, err := miss.Between(data[0], data[1], miss.Options{Provider: c.String("provider"), Catalog: cat, Program: pl.Program()})
			if be := (*miss.BodyError)(nil); errors.As(err, &be) {
				err = be.In(c.Args().Get(0), c.Args().Get(1))
			}
			if err != nil {
				return e.fail(err, func(err error) error { return cmdErr(e, cmd, "%v", err) })
			}
			if err := r.Write(e.stdout, src); err != nil {
				return err
			}
			if !r.Extends {
				return exitError{exitChanged}
			}
			return nil
		},
	}
}

// inProject opens the project promptc runs in (-C, or the nearest ancestor of the working directory holding
// promptc.toml), printing its diagnostics on failure; outside a project it returns nil and no error. miss and usage
// work with or without one (a nil Pipeline's Catalog is the built-in rows).
func (e *env) inProject() (*promptc.Pipeline, error) {
	if e.root == "" {
		r, err := blocks.FindRoot(e.dir)
		if err != nil {
			return nil, nil
		}
		e.root = r
	}
	return e.load()
}
