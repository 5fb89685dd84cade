package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/explain"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/source"
)

func explainCommand(e *env) *cli.Command {
	format := report.Formats(explain.Formats...)
	return &cli.Command{
		Name:      "explain",
		Usage:     "say why a block renders (or not) in a task, or which block and source wrote a line of an artifact",
		UsageText: "promptc explain --task T [--fixture F] [--format text|json] BLOCK\npromptc explain [--format text|json] PATH:LINE",
		Description: "With --task T BLOCK: whether BLOCK renders in T's runbook (or turn messages) and why: its order entry,\n" +
			"its gate (tasks, except), its when condition (decided with the fixture's values), the blocks it replaces or\n" +
			"that replace it, each with its source position; its scope and what makes it so (the session variable or\n" +
			".task use, with its position); and where it sits in the artifacts rendered with fixture F (default: the\n" +
			"only fixture rendering T, else the first by name): bytes, lines and the prefix it belongs to.\n" +
			"With PATH:LINE (an artifact path such as golden/chat/basic.runbook.md:12, with or without build/ or\n" +
			"golden/): the block that wrote the line, its scope and prefix, the source line it comes from, and the\n" +
			"constants, variables and references it shows. The artifact is rendered from the current sources.\n" +
			"--format json prints one object; its fields are listed in docs/explain.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "task", Usage: "explain BLOCK in task `T`"},
			&cli.StringFlag{Name: "fixture", Usage: "decide when conditions and placement with fixtures/`F`.toml"},
			formatChoiceFlag("output", format),
		},
		OnUsageError: commandUsageError(e),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErr(e, "explain: give one BLOCK (with --task T) or one PATH:LINE (see promptc explain --help)")
			}
			arg := c.Args().First()
			task := c.String("task")
			if task == "" {
				if !strings.Contains(arg, ":") {
					return usageErr(e, "explain: --task T is required to explain block %q; for a line of an artifact give PATH:LINE", arg)
				}
				if c.IsSet("fixture") {
					return usageErr(e, "explain: --fixture applies to BLOCK with --task; PATH:LINE names its fixture")
				}
				return e.explainLine(arg, format.Format)
			}
			pl, err := e.load()
			if err != nil {
				return err
			}
			var f *blocks.Fixture
			if c.IsSet("fixture") {
				if c.String("fixture") == "" {
					return cmdErr(e, "explain", "--fixture needs a fixture's name (a file name of fixtures/ without .toml)")
				}
				if f, err = pl.Project().FixtureFor(task, c.String("fixture")); err != nil {
					return e.requestError("explain", err)
				}
			}
			r, err := explain.Block(pl.Program(), task, arg, f)
			if err != nil {
				return e.explainErr(err)
			}
			return r.Write(e.stdout, format.Format)
		},
	}
}

// explainLine explains PATH:LINE.
func (e *env) explainLine(arg string, format report.Format) error {
	path, n, err := explain.ParseTarget(arg)
	if err != nil {
		return usageErr(e, "explain: %v", err)
	}
	pl, err := e.load()
	if err != nil {
		return err
	}
	prog := pl.Program()
	r, err := explain.Line(prog, path, n)
	if err != nil {
		return e.explainErr(err)
	}
	// The line was traced in the current rendering: say so when the file named differs from it.
	if file, _, _ := strings.Cut(arg, ":"); explain.Stale(prog, e.root, file, path) {
		_, _ = e.stderr.Write([]byte("promptc explain: note: " + source.QuoteName(strings.ReplaceAll(file, `\`, "/")) + " differs from what the sources render now; explaining the current rendering\n"))
	}
	return r.Write(e.stdout, format)
}

// explainErr prints an explain error: diagnostics one per line, anything else as a usage problem; both exit 2.
func (e *env) explainErr(err error) error {
	return e.fail(err, func(err error) error { return usageErr(e, "explain: %v", err) })
}
