package main

import (
	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/report"
)

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
