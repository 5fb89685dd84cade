package main

import (
	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/report"
)

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
