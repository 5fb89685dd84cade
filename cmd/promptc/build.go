package main

import (
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/assemble"
)

func buildCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "build",
		Usage:     "write every artifact: a runbook per task and fixture, and its turn messages",
		UsageText: "promptc build [--out DIR]",
		Description: "Compiles the project and writes TASK/FIXTURE.runbook.md and TASK/FIXTURE.turn-K.md under DIR.\n" +
			"Each file is written atomically. Artifact-shaped files under DIR that the project no longer\n" +
			"produces are removed; nothing else under DIR is touched.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "write the artifacts under `DIR` (default: build/ in the project root)"},
		},
		OnUsageError: commandUsageError(e),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErr(e, "build takes no arguments, got %q", c.Args().First())
			}
			_, arts, err := e.build()
			if err != nil {
				return err
			}
			out := filepath.Join(e.root, "build")
			if o := c.String("out"); o != "" {
				out = e.path(o)
			}
			if _, err := assemble.WriteTree(out, arts); err != nil {
				return usageErr(e, "writing artifacts: %v", err)
			}
			return nil
		},
	}
}
