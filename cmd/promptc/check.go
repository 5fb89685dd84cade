package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/tokens"
)

func checkCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "check",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "update", Usage: "accept the current artifacts: rewrite golden/"},
			&cli.BoolFlag{Name: "force", Usage: "with --update: rewrite golden/ even in CI"},
			&cli.BoolFlag{Name: "verbose", Usage: "on a pass, say what was compared; with no golden files yet, print every artifact in full, not a summary"},
			tokenizerFlag(),
			trafficFlag(),
		},
		Action: e.noArgs(func(c *cli.Context) error {
			// The diagnostics that stop check are also annotations on the sources in GitHub Actions.
			e.annotate = true
			update, force := c.Bool("update"), c.Bool("force")
			if force && !update {
				return usageErr(e, "check: --force only goes with --update")
			}
			if update && !force {
				if err := guard.UpdateRefusal(); err != nil {
					return usageErr(e, "check --update: %v", err)
				}
			}
			root, opt, err := e.guardOptions(c, "check")
			if err != nil {
				return err
			}
			if update {
				u, err := guard.UpdateDir(root)
				if err != nil {
					return e.checkError("updating golden/", err)
				}
				return u.WriteText(e.stderr)
			}
			res, err := guard.CheckDir(root, opt)
			if err != nil {
				return e.checkError("reading golden/", err)
			}
			if err := res.WriteCheck(e.stdout, e.reader(), e.invocation(), c.Bool("verbose")); err != nil || res.Passed() {
				return err
			}
			return exitError{exitChanged}
		}),
	}
}

// checkError maps an error of guard.CheckDir or guard.Update to the exit status: diagnostics (the project does not
// compile, or an artifact cannot be rendered), or a problem with golden/ itself (what says what check was doing).
func (e *env) checkError(what string, err error) error {
	return e.fail(err, func(err error) error {
		var link *assemble.LinkError
		if errors.As(err, &link) {
			link.Dir = "golden"
			return usageErr(e, "check: %v", link)
		}
		return usageErr(e, "%s: %v", what, err)
	})
}

func tokenizerFlag() cli.Flag {
	return &cli.StringFlag{Name: "tokenizer", Value: tokens.O200k.String(), Usage: "count tokens with `ENCODING`: o200k_base or cl100k_base (estimates)"}
}

// counter returns the token counter the command's --tokenizer flag asks for. The vocabulary loads on first use only.
func (e *env) counter(c *cli.Context) (*tokens.Counter, error) {
	enc, err := tokens.ParseEncoding(c.String("tokenizer"))
	if err != nil {
		return nil, usageErr(e, "%s: %v", c.Command.Name, err)
	}
	return tokens.New(enc), nil
}
