package main

import (
	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/report"
)

func logCommand(e *env) *cli.Command {
	format := report.Formats(report.AllFormats...)
	return &cli.Command{
		Name:      "log",
		Usage:     "list the commits that changed a stable prefix: tasks, block, scope, tokens invalidated, cost",
		UsageText: "promptc log [REV_RANGE] [--format text|markdown|json] [--tokenizer o200k_base|cl100k_base] [--traffic FILE...]",
		Description: "Reads the commits of REV_RANGE (default HEAD: the current branch) that touched the project from git\n" +
			"objects, newest first, compiles each once and compares it with its parent: each commit that changed a\n" +
			"stable prefix is listed with the tasks, block, scope and cached tokens it invalidated and, with traffic,\n" +
			"the price (docs/usage.md#a-history-of-what-each-commit-invalidated); the others are counted.",
		Flags:        []cli.Flag{formatChoiceFlag("report as", format), tokenizerFlag(), trafficFlag()},
		OnUsageError: commandUsageError(e),
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
