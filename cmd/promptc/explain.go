package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/explain"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/source"
)

func explainCommand(e *env) *cli.Command {
	format := report.Formats(explain.Formats...)
	return &cli.Command{
		Name: "explain",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "task", Usage: "explain BLOCK in task `T`"},
			&cli.StringFlag{Name: "fixture", Usage: "decide when conditions and placement with fixtures/`F`.toml"},
			formatChoiceFlag("output", format),
		},
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
			if c.IsSet("fixture") && c.String("fixture") == "" {
				return cmdErr(e, "explain", "--fixture needs a fixture's name (a file name of fixtures/ without .toml)")
			}
			_, t, err := e.openTask(c, "explain", promptc.Options{})
			if err != nil {
				return err
			}
			r, err := t.Explain(arg, c.String("fixture"))
			if err != nil {
				return e.requestError("explain", err)
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
		return e.requestError("explain", err)
	}
	// The line was traced in the current rendering: say so when the file named differs from it.
	if file, _, _ := strings.Cut(arg, ":"); explain.Stale(prog, e.root, file, path) {
		_, _ = e.stderr.Write([]byte("promptc explain: note: " + source.QuoteName(strings.ReplaceAll(file, `\`, "/")) + " differs from what the sources render now; explaining the current rendering\n"))
	}
	return r.Write(e.stdout, format)
}
