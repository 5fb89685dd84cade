package main

import (
	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/internal/cliflag"
	"github.com/promptc/promptc/internal/enum"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/report"
)

// measureFlags are the flags lint and stats share: --format text|json (into format), --tokenizer and --fixture.
func measureFlags(format *report.FormatChoice) []cli.Flag {
	return []cli.Flag{formatChoiceFlag("output", format), tokenizerFlag(), sampleFlag()}
}

// formatChoiceFlag is --format, holding one of format's choices (the first is the default).
func formatChoiceFlag(usage string, format *report.FormatChoice) cli.Flag {
	var names []string
	for _, f := range format.Choices() {
		names = append(names, f.String())
	}
	return cliflag.Choice("format", format, usage+" `FORMAT`: "+enum.OrList(names))
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
