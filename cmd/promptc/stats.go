package main

import (
	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/report"
)

func statsCommand(e *env) *cli.Command {
	format := report.Formats(report.Text, report.JSON)
	return &cli.Command{
		Name:  "stats",
		Flags: measureFlags(format),
		Action: func(c *cli.Context) error {
			pl, err := e.measure(c)
			if err != nil {
				return err
			}
			r, err := pl.Stats(c.String("fixture"))
			if err != nil {
				return e.fail(err, func(err error) error { return usageErr(e, "stats: %v", err) })
			}
			if err := r.Write(e.stdout, format.Format); err != nil {
				return usageErr(e, "stats: %v", err)
			}
			return nil
		},
	}
}
