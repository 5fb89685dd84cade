package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/golden"
	"github.com/promptc/promptc/guard"
)

func checkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "compare every artifact with golden/; exit 1 when a byte differs",
		UsageText: "promptc check [--update] [--tokenizer o200k_base|cl100k_base]",
		Description: "Compiles the project, runs the lints and compares each artifact with its golden file byte for byte.\n" +
			"Clean: prints nothing and exits 0. Otherwise prints a report (which artifact, the first differing\n" +
			"byte, the block and scope that own it, the cached tokens invalidated, a unified diff), any\n" +
			"error-level lint findings, and the command that accepts the change; exits 1. Compile errors exit 2.\n" +
			"With --update, rewrites golden/ atomically (stale files removed) and exits 0.\n" +
			"In GitHub Actions (GITHUB_ACTIONS=true) it also prints ::error annotations on the block sources.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "update", Usage: "accept the current artifacts: rewrite golden/"},
			tokenizerFlag(),
		},
		OnUsageError: commandUsageError(e),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErr(e, "check takes no arguments, got %q", c.Args().First())
			}
			tok, err := e.counter(c)
			if err != nil {
				return err
			}
			root, err := e.projectRoot()
			if err != nil {
				return err
			}
			dir := filepath.Join(root, "golden")
			// A pre-commit hook runs check on every commit: read golden/ while the project compiles.
			type goldenTree struct {
				arts []*assemble.Artifact
				err  error
			}
			read := make(chan goldenTree, 1)
			if !c.Bool("update") {
				go func() {
					tree, err := golden.Read(dir)
					read <- goldenTree{guard.FromBytes(tree), err}
				}()
			}
			prog, err := e.load()
			if err != nil {
				return err
			}
			arts, diags := prog.Build()
			if len(diags) > 0 {
				return e.diagnostics(diags)
			}
			if c.Bool("update") {
				return e.update(dir, arts)
			}
			linted := make(chan []guard.Finding, 1)
			go func() { linted <- guard.LintErrors(prog, arts) }()
			gold := <-read
			if gold.err != nil {
				return usageErr(e, "reading golden/: %v", gold.err)
			}
			report := guard.Compare(
				guard.Side{Label: "golden", Dir: "golden/", Arts: gold.arts},
				guard.Side{Label: "build", Dir: "build/", Arts: arts},
				tok)
			lints := <-linted
			if len(report.Changes) == 0 && len(lints) == 0 {
				return nil
			}
			if len(report.Changes) > 0 {
				title := fmt.Sprintf("promptc check: %d %s differ from golden/", len(report.Changes), noun(len(report.Changes), "artifact", "artifacts"))
				if len(report.Changes) == 1 {
					title = "promptc check: 1 artifact differs from golden/"
				}
				report.WriteText(e.stdout, guard.TextOptions{Title: title, Color: e.color()})
				if os.Getenv("GITHUB_ACTIONS") == "true" {
					report.WriteAnnotations(e.stdout, e.repoPrefix())
				}
			}
			if len(lints) > 0 {
				if len(report.Changes) > 0 {
					fmt.Fprintln(e.stdout)
				}
				guard.WriteFindings(e.stdout, lints)
			}
			if len(report.Changes) > 0 {
				fmt.Fprintf(e.stdout, "\nTo accept these changes, run: %s check --update\n", e.invocation())
			}
			return exitError{exitChanged}
		},
	}
}

// update rewrites golden/ and says what changed.
func (e *env) update(dir string, arts []*assemble.Artifact) error {
	built := make(map[string][]byte, len(arts))
	for _, a := range arts {
		built[a.Path] = []byte(a.Text)
	}
	changed, err := golden.Update(dir, built)
	if err != nil {
		return usageErr(e, "updating golden/: %v", err)
	}
	if len(changed) > 0 {
		fmt.Fprintf(e.stderr, "promptc: updated golden/: %d %s\n", len(changed), noun(len(changed), "file", "files"))
	}
	return nil
}

// formatFlag is --format, taking one of formats; the first is the default.
func formatFlag(usage string, formats ...string) cli.Flag {
	return &cli.StringFlag{Name: "format", Value: formats[0], Usage: usage + " `FORMAT`: " + orList(formats)}
}

// format returns the --format value, or a usage error naming the choices.
func (e *env) format(c *cli.Context, formats ...string) (string, error) {
	f := c.String("format")
	if !slices.Contains(formats, f) {
		return "", usageErr(e, "%s: --format must be %s, not %q", c.Command.Name, orList(formats), f)
	}
	return f, nil
}

// orList joins choices as "a, b or c".
func orList(choices []string) string {
	if len(choices) == 1 {
		return choices[0]
	}
	return strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
}

func tokenizerFlag() cli.Flag {
	return &cli.StringFlag{Name: "tokenizer", Value: guard.O200k, Usage: "count tokens with `ENCODING`: o200k_base or cl100k_base (estimates)"}
}

// counter returns the token counter the command's --tokenizer flag asks for. The vocabulary loads on first use only.
func (e *env) counter(c *cli.Context) (*guard.Counter, error) {
	tok, err := guard.NewCounter(c.String("tokenizer"))
	if err != nil {
		return nil, usageErr(e, "%s: %v", c.Command.Name, err)
	}
	return tok, nil
}

func noun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
