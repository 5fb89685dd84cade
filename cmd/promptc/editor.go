package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/internal/gc"
	buildversion "github.com/promptc/promptc/internal/version"
	"github.com/promptc/promptc/lsp"
	"github.com/promptc/promptc/preview"
	"github.com/promptc/promptc/schema"
	"github.com/promptc/promptc/usage"
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

func serveCommand(e *env) *cli.Command {
	by := usage.Day
	return &cli.Command{
		Name: "serve",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:7420", Usage: "listen on `ADDR`, a loopback address and port (port 0 picks a free one)"},
			&cli.StringFlag{Name: "base", Usage: "compare the working tree with git revision `REV` (a commit, branch or tag)"},
			&cli.StringFlag{Name: "export", Usage: "write the page to `DIR`/index.html, self-contained, instead of serving it"},
			&cli.StringSliceFlag{Name: "usage", Usage: "draw the timeline of the log `FILE` (as promptc usage reads it; repeatable)"},
			&cli.GenericFlag{Name: "by", Value: &by, Usage: "with --usage: one bar per `PERIOD`, hour or day (UTC; default day)"},
			&cli.StringFlag{Name: "log", Usage: "with --usage: mark the commits of `REV_RANGE` that invalidated a prefix (promptc log)"},
		},
		Action: e.noArgs(func(c *cli.Context) error {
			root, err := e.projectRoot()
			if err != nil {
				return err
			}
			opts := preview.Options{Base: c.String("base")}
			if err := e.timeline(c, &opts, by); err != nil {
				return err
			}
			if dir := c.String("export"); dir != "" {
				if c.IsSet("addr") {
					return usageErr(e, "serve: --export writes a page and serves none: drop --addr")
				}
				if err := preview.Export(root, e.path(dir), opts); err != nil {
					return e.fail(err, func(err error) error { return cmdErr(e, "serve", "%v", err) })
				}
				_, err := fmt.Fprintf(e.stderr, "promptc serve: wrote %s\n", filepath.Join(dir, preview.ExportFile))
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			var printed error
			err = preview.Serve(ctx, root, c.String("addr"), opts, func(a net.Addr) {
				_, printed = fmt.Fprintf(e.stderr, "promptc serve: http://%s/ (Ctrl-C stops it)\n", a)
			})
			if errors.Is(err, preview.ErrAddrInUse) {
				return cmdErr(e, "serve", "address %s is already in use, by another promptc serve or another program: stop it, or run promptc serve --addr 127.0.0.1:0 to take a free port", c.String("addr"))
			}
			if err != nil {
				return cmdErr(e, "serve", "%v", err)
			}
			return printed
		}),
	}
}

// timeline sets opts.Timeline from --usage, --by and --log, as promptc usage --by reads them.
func (e *env) timeline(c *cli.Context, opts *preview.Options, by usage.Period) error {
	if !c.IsSet("usage") {
		if c.IsSet("by") || c.IsSet("log") {
			return usageErr(e, "serve: --by and --log shape the timeline of --usage FILE: add --usage")
		}
		return nil
	}
	_, cat, err := e.usageCatalog("serve", false)
	if err != nil {
		return err
	}
	tally := usage.NewTally()
	if err := e.readLogs("serve", "", tally, c.StringSlice("usage")); err != nil {
		return err
	}
	opts.Timeline, err = e.series(c, "serve", tally, by, cat)
	return err
}
