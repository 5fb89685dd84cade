package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/lint"
	"github.com/promptc/promptc/report"
)

func lintCommand(e *env) *cli.Command {
	format := report.Formats(report.Text, report.JSON)
	return &cli.Command{
		Name: "lint",
		Flags: append(measureFlags(format),
			&cli.BoolFlag{Name: "verbose", Usage: "say what was linted, also when nothing is found (text format)"}),
		Action: func(c *cli.Context) error {
			pl, err := e.measure(c)
			if err != nil {
				return err
			}
			findings, err := pl.Lint(c.String("fixture"))
			if err != nil {
				return e.fail(err, func(err error) error { return usageErr(e, "lint: %v", err) })
			}
			if err := lint.Write(e.stdout, format.Format, findings); err != nil {
				return usageErr(e, "lint: %v", err)
			}
			errs, warns := lint.CountSeverities(findings)
			if arts, _ := pl.Artifacts(); c.Bool("verbose") && format.Format == report.Text {
				_, err = fmt.Fprintf(e.stdout, "promptc lint: %s, %s and %s linted: %s, %s\n",
					plural.Count(len(pl.Project().Blocks), "block"), plural.Count(len(pl.Project().Consts), "constant"),
					assemble.CoverageOf(arts), plural.Count(errs, "error"), plural.Count(warns, "warning"))
				if err != nil {
					return err
				}
			}
			if errs > 0 {
				return exitError{exitChanged}
			}
			return nil
		},
	}
}
