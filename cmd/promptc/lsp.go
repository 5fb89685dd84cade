package main

import (
	"context"
	"errors"
	"os"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	buildversion "github.com/promptc/promptc/internal/version"

	"github.com/promptc/promptc/lsp"
)

func lspCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "lsp",
		Usage:     "run the language server (LSP 3.17 over stdio) for editors",
		UsageText: "promptc lsp",
		Description: "Speaks the Language Server Protocol on standard input and output: diagnostics from unsaved\n" +
			"buffers, definition, references, hover, completion, rename, document symbols and lint fixes, for\n" +
			"every promptc project an opened file belongs to (the nearest promptc.toml above it). Editors start it\n" +
			"themselves: docs/editors.md shows the setup for VS Code, Neovim, Helix, Zed and Emacs.",
		OnUsageError: commandUsageError(e),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErr(e, "lsp takes no arguments, got %q", c.Args().First())
			}
			serverMemory()
			info, _ := debug.ReadBuildInfo()
			err := lsp.Serve(context.Background(), os.Stdin, e.stdout, lsp.Options{Version: buildversion.Module(version, info), Log: e.stderr})
			switch {
			case errors.Is(err, lsp.ErrExitWithoutShutdown):
				return exitError{exitChanged}
			case errors.Is(err, lsp.ErrMalformedHeader):
				return exitError{exitInvalid} // the server said why on stderr; the editor starts a new one
			}
			return err
		},
	}
}

// The language server runs for hours and holds the last snapshot while it builds the next, so the short-lived
// commands' policy (no collection below 128 MiB, then five times the live heap) would let it grow to 2.4-2.7 GB on
// a fixture of a million records. It collects at the default pace instead, under a soft limit of serverMemoryLimit:
// 820 MB and 1.3 s a keystroke on that fixture (docs/editors.md, "Memory"). GOGC and GOMEMLIMIT still win when set.
const serverMemoryLimit = 800 << 20

func serverMemory() {
	if _, ok := os.LookupEnv("GOGC"); !ok {
		debug.SetGCPercent(100)
	}
	if _, ok := os.LookupEnv("GOMEMLIMIT"); !ok {
		debug.SetMemoryLimit(serverMemoryLimit)
	}
}
