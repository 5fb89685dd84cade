package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/miss"
	"github.com/promptc/promptc/source"
)

func missCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "miss",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "provider", Usage: "the API both bodies are for: `P` is one of anthropic, openai, dashscope, bedrock, gemini, deepseek (default: told from each body)"},
		},
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
				d, err := assemble.ReadLimited(e.path(name), miss.MaxBodyBytes+1)
				if err != nil {
					err = e.pathError(name, err)
				} else {
					err = miss.CheckSize(d)
				}
				if err != nil {
					return cmdErr(e, cmd, "%s: %v", source.QuoteName(name), err)
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
			if be := (*miss.BodyError)(nil); errors.As(err, &be) {
				err = be.In(c.Args().Get(0), c.Args().Get(1))
			}
			if err != nil {
				return e.fail(err, func(err error) error { return cmdErr(e, cmd, "%v", err) })
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
