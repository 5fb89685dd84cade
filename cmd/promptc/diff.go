package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/internal/gitfs"
)

func diffCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "compare the artifacts of a git revision with the working tree's",
		UsageText: "promptc diff [REV] [--format text|markdown|json] [--exit-code] [--tokenizer o200k_base|cl100k_base]",
		Description: "Compiles the project as committed at REV (default HEAD; read from git objects, the working tree\n" +
			"and index are not touched) and as in the working tree, and reports every artifact that differs:\n" +
			"the first differing byte, the block and scope that own it, the cached tokens it invalidates and a\n" +
			"unified diff. --format markdown writes a ready pull-request comment; json is documented in\n" +
			"docs/guard.md. Exits 0, or 1 with --exit-code when something differs; 2 on invalid input.",
		Flags: []cli.Flag{
			formatFlag("report as", "text", "markdown", "json"),
			&cli.BoolFlag{Name: "exit-code", Usage: "exit 1 when an artifact differs"},
			tokenizerFlag(),
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
			format, err := e.format(c, "text", "markdown", "json")
			if err != nil {
				return err
			}
			tok, err := e.counter(c)
			if err != nil {
				return err
			}
			_, arts, err := e.build()
			if err != nil {
				return err
			}
			oldFS, err := gitfs.Open(e.root, rev)
			if err != nil && !errors.Is(err, gitfs.ErrNoProject) {
				return usageErr(e, "diff: %v", err)
			}
			// The old side may not exist (the change adds the project) or not compile (the change may be the fix):
			// then every artifact is new, and stderr says why.
			var oldArts []*assemble.Artifact
			var odiags blocks.Diagnostics
			if err != nil {
				fmt.Fprintf(e.stderr, "promptc: %v; comparing against nothing\n", err)
			} else if oldProg, d := assemble.Load(oldFS); len(d) > 0 {
				odiags = d
			} else {
				oldArts, odiags = oldProg.Build()
			}
			if len(odiags) > 0 {
				fmt.Fprintf(e.stderr, "promptc: the project at %s does not compile (%d %s); comparing against nothing:\n%s",
					rev, len(odiags), noun(len(odiags), "problem", "problems"), odiags.String())
				oldArts = nil
			}
			report := guard.Compare(
				guard.Side{Label: rev, Dir: "a/", Arts: oldArts},
				guard.Side{Label: "working tree", Dir: "b/", Arts: arts},
				tok)
			title := fmt.Sprintf("promptc diff %s: %d %s changed", rev, len(report.Changes), noun(len(report.Changes), "artifact", "artifacts"))
			switch format {
			case "markdown":
				err = report.WriteMarkdown(e.stdout, title)
			case "json":
				err = report.WriteJSON(e.stdout)
			default:
				if len(report.Changes) > 0 {
					err = report.WriteText(e.stdout, guard.TextOptions{Title: title, Color: e.color()})
				}
			}
			if err != nil {
				return err
			}
			if c.Bool("exit-code") && len(report.Changes) > 0 {
				return exitError{exitChanged}
			}
			return nil
		},
	}
}
