package main

import (
	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/tokens"
)

// measured is what lint and stats work on: the project built in memory, with the report format, token counter and
// sampled fixture their flags ask for.
type measured struct {
	format  report.Format
	tok     *tokens.Counter
	fixture string // --fixture: "" for each task's first fixture by name
	prog    *assemble.Program
	arts    []*assemble.Artifact
}

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
	return choiceFlag("format", format, usage+" `FORMAT`: "+orList(names))
}

// measure reads the flags of measureFlags (format is their --format), refusing arguments, and builds the project; a
// usage problem or the project's diagnostics are printed and returned as the exit status.
func (e *env) measure(c *cli.Context, format *report.FormatChoice) (*measured, error) {
	if c.NArg() > 0 {
		return nil, usageErr(e, "%s takes no arguments, got %q", c.Command.Name, c.Args().First())
	}
	tok, err := e.counter(c)
	if err != nil {
		return nil, err
	}
	prog, arts, err := e.build()
	if err != nil {
		return nil, err
	}
	return &measured{format: format.Format, tok: tok, fixture: c.String("fixture"), prog: prog, arts: arts}, nil
}

// sampleFlag is --fixture for the commands that measure one runbook per task (lint, stats).
func sampleFlag() cli.Flag {
	return &cli.StringFlag{Name: "fixture", Usage: "measure each task's runbook of fixtures/`F`.toml (default: the first fixture by name rendering the task)"}
}
