package main

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/source"
)

func buildCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "build",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "write the artifacts under `DIR` (default: build/ in the project root)"},
			&cli.BoolFlag{Name: "verbose", Usage: "say what was built and what changed on disk"},
		},
		Action: e.noArgs(func(c *cli.Context) error {
			root, err := e.projectRoot()
			if err != nil {
				return err
			}
			out := ""
			if o := c.String("out"); o != "" {
				out = e.path(o)
				// Name the directory as the user gave it.
				if err := assemble.CheckOutDir(root, out); err != nil {
					bad := err.(*assemble.OutDirError)
					bad.Out, bad.Invocation = "--out "+source.QuoteName(o), e.invocation()
					return usageErr(e, "build: %v", bad)
				}
			}
			ch, err := assemble.BuildDir(root, out)
			if err != nil {
				return e.fail(err, func(err error) error {
					var link *assemble.LinkError
					if errors.As(err, &link) {
						// Name the link from the directory as the user gave it.
						link.Dir = cmp.Or(c.String("out"), "build")
						return usageErr(e, "build: %v", link)
					}
					return usageErr(e, "writing artifacts: %v", err)
				})
			}
			if c.Bool("verbose") {
				where := "build/"
				if o := c.String("out"); o != "" {
					where = source.QuoteName(o)
				}
				_, err = fmt.Fprintf(e.stdout, "promptc build: %s in %s: %d written, %d unchanged, %d stale removed\n",
					ch.Artifacts, where, len(ch.Written), ch.Unchanged, len(ch.Removed))
			}
			return err
		}),
	}
}
