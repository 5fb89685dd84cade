package main

import (
	"context"
	"errors"
	"os"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/internal/gc"
	buildversion "github.com/promptc/promptc/internal/version"
	"github.com/promptc/promptc/lsp"
	"github.com/promptc/promptc/schema"
)

func lspCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "lsp",
		Action: e.noArgs(func(c *cli.Context) error {
			gc.CollectSteady()
			info, _ := debug.ReadBuildInfo()
			err := lsp.Serve(context.Background(), os.Stdin, e.stdout, lsp.Options{Version: buildversion.Module(version, info), Log: e.stderr})
			switch {
			case errors.Is(err, lsp.ErrExitWithoutShutdown):
				return exitError{exitChanged}
			case errors.Is(err, lsp.ErrMalformedHeader):
				return exitError{exitInvalid} // the server said why on stderr; the editor starts a new one
			}
			return err
		}),
	}
}

func schemaCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "schema",
		Action: func(c *cli.Context) error {
			switch c.NArg() {
			case 0:
				return schema.WriteList(e.stdout)
			case 1:
			default:
				return usageErr(e, "schema takes one schema name, got %d arguments", c.NArg())
			}
			b, err := schema.Get(schema.FileKind(c.Args().First()))
			if err != nil {
				return usageErr(e, "schema: %v", err)
			}
			_, err = e.stdout.Write(b)
			return err
		},
	}
}
