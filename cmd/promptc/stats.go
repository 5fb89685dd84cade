package main

import (
	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/report"
)

func statsCommand(e *env) *cli.Command {
	format := report.Formats(report.Text, report.JSON)
	return &cli.Command{
		Name:      "stats",
		Usage:     "bytes and tokens per task, block and scope, and the prefixes runbooks share",
		UsageText: "promptc stats [--format text|json] [--tokenizer o200k_base|cl100k_base] [--fixture F]",
		Description: "Compiles the project, builds every artifact in memory and measures it: for each task, the bytes and\n" +
			"tokens of every block of its runbook of fixture F (default: the first by name rendering it), totals per scope, where the global and task\n" +
			"prefixes end, and the prefix common to all its fixtures; then the prefix every task shares. Token\n" +
			"counts are estimates. See docs/stats.md.",
		Flags:        measureFlags(format),
		OnUsageError: commandUsageError(e),
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
