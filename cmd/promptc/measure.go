package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/internal/cliflag"
	"github.com/promptc/promptc/internal/enum"
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
			if arts, _ := pl.Artifacts(); c.Bool("verbose") && format.Format == report.Text {
				p := pl.Project()
				if _, err := fmt.Fprintf(e.stdout, "promptc lint: %s, %s and %s linted: %s\n", plural.Count(len(p.Blocks), "block"),
					plural.Count(len(p.Consts), "constant"), assemble.CoverageOf(arts), lint.Summary(findings)); err != nil {
					return err
				}
			}
			if errs, _ := lint.CountSeverities(findings); errs > 0 {
				return exitError{exitChanged}
			}
			return nil
		},
	}
}

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

// measureFlags are the flags lint and stats share: --format text|json (into format), --tokenizer and --fixture.
func measureFlags(format *report.FormatChoice) []cli.Flag {
	return []cli.Flag{formatChoiceFlag("output", format), tokenizerFlag(), sampleFlag()}
}

// formatChoiceFlag is --format, holding one of format's choices (the first is the default).
func formatChoiceFlag(usage string, format *report.FormatChoice) cli.Flag {
	return cliflag.Choice("format", format, usage+" `FORMAT`: "+enum.OrList(format.Names()))
}

// measure reads the flags of measureFlags, refusing arguments, and opens the project with the --tokenizer counter;
// a usage problem or the project's diagnostics are printed and returned as the exit status.
func (e *env) measure(c *cli.Context) (*promptc.Pipeline, error) {
	if err := e.refuseArgs(c); err != nil {
		return nil, err
	}
	tok, err := e.counter(c)
	if err != nil {
		return nil, err
	}
	return e.open(promptc.Options{Counter: tok})
}

// sampleFlag is --fixture for the commands that measure one runbook per task (lint, stats).
func sampleFlag() cli.Flag {
	return &cli.StringFlag{Name: "fixture", Usage: "measure each task's runbook of fixtures/`F`.toml (default: the first fixture by name rendering the task)"}
}
