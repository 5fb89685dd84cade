package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/miss"
	"github.com/promptc/promptc/source"
)

// maxBodyBytes bounds a request body miss reads.
const maxBodyBytes = 64 << 20

func missCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "miss",
		Usage:     "say whether request body B reuses A's prompt cache, and if not, which byte and which source broke it",
		UsageText: "promptc miss [--provider P] A B",
		Description: "Compares two request bodies as sent (any supported provider, told from the body's shape unless\n" +
			"--provider names it) in the provider's cached order: tools, system, messages; cache markers are not\n" +
			"content. Exit 0 when B extends A byte for byte; exit 1 when it breaks A's prefix, with the first differing\n" +
			"byte, the cache breakpoint it fell behind and the tokens re-billed, and, inside a project that renders\n" +
			"the bodies' system text, the block, constant, template line or value behind that byte. A file that is no\n" +
			"request of the provider (a values file, a response, another API's body) is refused with exit 2. See\n" +
			"docs/usage.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "provider", Usage: "the API both bodies are for: `P` is one of anthropic, openai, dashscope, bedrock, gemini, deepseek (default: told from each body)"},
		},
		OnUsageError: commandUsageError(e),
		Action: func(c *cli.Context) error {
			const cmd = "miss"
			if c.NArg() != 2 {
				return cmdErr(e, cmd, "give two request bodies, A then B (got %s)", plural.Count(c.NArg(), "argument"))
			}
			if err := miss.CheckProvider(c.String("provider")); err != nil {
				return cmdErr(e, cmd, "--provider: %v", err)
			}
			var data [2][]byte
			for i, name := range c.Args().Slice() {
				d, err := readFileLimited(e.path(name), maxBodyBytes+1)
				if err != nil {
					return cmdErr(e, cmd, "%s: %v", source.QuoteName(name), e.pathError(name, err))
				}
				if len(d) > maxBodyBytes {
					return cmdErr(e, cmd, "%s: larger than %d MiB", source.QuoteName(name), maxBodyBytes>>20)
				}
				data[i] = d
			}
			// Inside a project, its model rows apply and its runbooks name the sources.
			pl, err := e.inProject()
			if err != nil {
				return err
			}
			cat, err := pl.Catalog()
			if err != nil {
				return err
			}
			r, src, err := miss.Between(data[0], data[1], miss.Options{Provider: c.String("provider"), Catalog: cat, Program: pl.Program()})
			var be *miss.BodyError
			switch {
			case errors.As(err, &be):
				name := c.Args().Get(0)
				if be.Side == "B" {
					name = c.Args().Get(1)
				}
				if be.Line > 0 {
					// Placed in the file: a diagnostic, as every loader's.
					at := source.Pos{Line: be.Line, Column: be.Column}
					return e.diagnostics(source.Diagnostics{{Summary: be.Err.Error(), Subject: &source.Range{Filename: name, Start: at, End: at}}})
				}
				return cmdErr(e, cmd, "%s: %v", source.QuoteName(name), be.Err)
			case err != nil:
				return cmdErr(e, cmd, "%v", err)
			}
			if err := r.Write(e.stdout, src); err != nil {
				return err
			}
			if !r.Extends {
				return exitError{exitChanged}
			}
			return nil
		},
	}
}

// inProject opens the project promptc runs in (-C, or the nearest ancestor of the working directory holding
// promptc.toml), printing its diagnostics on failure; outside a project it returns nil and no error. miss and usage
// work with or without one (a nil Pipeline's Catalog is the built-in rows).
func (e *env) inProject() (*promptc.Pipeline, error) {
	if e.root == "" {
		r, err := blocks.FindRoot(e.dir)
		if err != nil {
			return nil, nil
		}
		e.root = r
	}
	return e.load()
}
