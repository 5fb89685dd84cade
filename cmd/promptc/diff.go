package main

import (
	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/report"
)

func diffCommand(e *env) *cli.Command {
	format := report.Formats(report.AllFormats...)
	return &cli.Command{
		Name:      "diff",
		Usage:     "compare the artifacts of a git revision with the working tree's",
		UsageText: "promptc diff [REV] [--format text|markdown|json] [--exit-code] [--tokenizer o200k_base|cl100k_base] [--traffic FILE...]",
		Description: "Compiles the project as committed at REV (default HEAD; read from git objects, the working tree\n" +
			"and index are not touched) and as in the working tree, and reports every artifact that differs:\n" +
			"the first differing byte, the block and scope that own it, the cached tokens it invalidates and a\n" +
			"unified diff. --format markdown writes a ready pull-request comment; json is documented in\n" +
			"docs/guard.md. With traffic (promptc.toml's [traffic], or --traffic usage logs) it adds the price\n" +
			"of the change per task and model (docs/usage.md#the-price-of-a-change). Exits 0, or 1 with --exit-code when something differs; 2 on invalid input.",
		Flags: []cli.Flag{
			formatChoiceFlag("report as", format),
			&cli.BoolFlag{Name: "exit-code", Usage: "exit 1 when an artifact differs"},
			tokenizerFlag(),
			trafficFlag(),
		},
		OnUsageError: commandUsageError(e),
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
