package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/workspace"
)

func installCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "install",
		Usage:     "install a task's runbook into the context files of a working directory",
		UsageText: "promptc install --task T (--target NAME... | --all-targets) --dir DIR [--fixture F | --session FILE] [--check]",
		Description: "Renders the runbook of task T (values from fixture F, by default the only fixture rendering T, or\n" +
			"from the values FILE) and writes it between the target's begin and end markers in DIR/FILE, the\n" +
			"target's file: a missing file is created, a block already there is replaced in place, and otherwise\n" +
			"the block is appended after a blank line. Every other byte of the file stays as it is; installing the\n" +
			"same runbook again writes nothing. --target may repeat; --all-targets installs into every target.\n" +
			"With --check nothing is written: exit 1 when installing would change a file, 0 when all are current.",
		Flags: append(targetFlags(),
			&cli.StringFlag{Name: "task", Usage: "the task kind `T` whose runbook to install (required)"},
			&cli.StringFlag{Name: "fixture", Usage: "take session values from fixtures/`F`.toml"},
			&cli.StringFlag{Name: "session", Usage: "take session values from `FILE` (JSON or TOML; - for standard input)"},
			&cli.BoolFlag{Name: "check", Usage: "write nothing; exit 1 when installing would change a file"},
		),
		OnUsageError: commandUsageError(e),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErr(e, "install takes no arguments, got %q", c.Args().First())
			}
			if c.String("task") == "" {
				return usageErr(e, "install: --task T is required (see promptc install --help)")
			}
			if c.IsSet("fixture") && c.IsSet("session") {
				return usageErr(e, "install: --fixture and --session both give session values; choose one")
			}
			dir, err := e.installDir(c)
			if err != nil {
				return err
			}
			prog, err := e.load()
			if err != nil {
				return err
			}
			targets, err := e.targets(c, prog.Project)
			if err != nil {
				return err
			}
			runbook, err := e.render(c, prog)
			if err != nil {
				return err
			}
			if c.Bool("check") {
				res, err := workspace.Check(dir, runbook, targets...)
				if err != nil {
					return e.workspaceError(err)
				}
				return e.installReport(c, res)
			}
			res, err := workspace.Install(dir, runbook, targets...)
			e.summary(res)
			if err != nil {
				return e.workspaceError(err)
			}
			return nil
		},
	}
}

func uninstallCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "uninstall",
		Usage:     "take a runbook back out of the context files of a working directory",
		UsageText: "promptc uninstall (--target NAME... | --all-targets) --dir DIR",
		Description: "Removes the target's block, and the blank line install put before it, from DIR/FILE, keeping\n" +
			"every other byte as it is now, edits made since the install included. A file that held only the\n" +
			"block is removed, with the directories install created for it once they are empty. A file with no\n" +
			"block, or no file, is left alone. Only promptc.toml's targets are read: the blocks need not compile.",
		Flags:        targetFlags(),
		OnUsageError: commandUsageError(e),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErr(e, "uninstall takes no arguments, got %q", c.Args().First())
			}
			dir, err := e.installDir(c)
			if err != nil {
				return err
			}
			root, err := e.projectRoot()
			if err != nil {
				return err
			}
			p, diags := blocks.Load(assemble.DirFS(root))
			if p == nil || slices.ContainsFunc(diags, func(d blocks.Diagnostic) bool {
				return d.Subject != nil && d.Subject.Filename == blocks.ManifestFile
			}) {
				return e.diagnostics(diags)
			}
			targets, err := e.targets(c, p)
			if err != nil {
				return err
			}
			res, err := workspace.Uninstall(dir, targets...)
			e.summary(res)
			if err != nil {
				return e.workspaceError(err)
			}
			return nil
		},
	}
}

// targetFlags are the flags install and uninstall share.
func targetFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "target", Usage: "the target `NAME` of promptc.toml to install into (repeat for several)"},
		&cli.BoolFlag{Name: "all-targets", Usage: "install into every target of promptc.toml"},
		&cli.StringFlag{Name: "dir", Usage: "the working directory `DIR` holding the context files (required; must exist)"},
	}
}

// installDir returns the --dir directory as a path from the working directory, which is how the files in it are
// named in messages.
func (e *env) installDir(c *cli.Context) (string, error) {
	cmd := c.Command.Name
	dir := c.String("dir")
	switch {
	case dir == "":
		return "", cmdErr(e, cmd, "--dir DIR is required: the working directory whose context files to change (see promptc %s --help)", cmd)
	case c.IsSet("target") == c.Bool("all-targets"):
		return "", cmdErr(e, cmd, "name the targets: --target NAME (repeat for several) or --all-targets, not both")
	}
	if e.cdir != "" && !filepath.IsAbs(dir) {
		dir = filepath.Join(e.cdir, dir) // -C moves relative paths; the result is still relative to the working directory
	}
	return dir, nil
}

// targets returns the targets named by --target, or all of them with --all-targets.
func (e *env) targets(c *cli.Context, p *blocks.Project) ([]*blocks.Target, error) {
	cmd := c.Command.Name
	if c.Bool("all-targets") {
		if len(p.Targets) == 0 {
			return nil, cmdErr(e, cmd, "promptc.toml declares no [[target]]: add one (name, file, begin, end) to install into a context file")
		}
		return p.Targets, nil
	}
	var out []*blocks.Target
	for _, name := range c.StringSlice("target") {
		t := p.Target(name)
		if t == nil {
			if len(p.Targets) == 0 {
				return nil, cmdErr(e, cmd, "no target %q: promptc.toml declares no [[target]]", name)
			}
			return nil, cmdErr(e, cmd, "no target %q%s; the targets are: %s", name, blocks.DidYouMean(name, p.TargetNames()), strings.Join(p.TargetNames(), ", "))
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, nil
}

// summary prints one line per file install or uninstall changed or found current.
func (e *env) summary(results []workspace.Result) {
	for _, r := range results {
		_, _ = fmt.Fprintln(e.stderr, r.String())
	}
}

// installReport prints what install --check found and returns exit status 1 when a file is not current.
func (e *env) installReport(c *cli.Context, results []workspace.Result) error {
	stale := 0
	for _, r := range results {
		task := c.String("task")
		var line string
		switch r.Action {
		case workspace.Current:
			line = r.Path + ": up to date"
		case workspace.Created:
			line = fmt.Sprintf("%s: missing: installing would create it, holding the runbook of task %q", r.Path, task)
		case workspace.Appended:
			line = fmt.Sprintf("%s:%d: no block of target %q: installing would add the runbook of task %q after a blank line", r.Path, r.Line, r.Target.Name, task)
		default:
			line = fmt.Sprintf("%s:%d: out of date: the block of target %q differs from the runbook of task %q from this line on", r.Path, r.Line, r.Target.Name, task)
		}
		if r.Changed() {
			stale++
		}
		if r.More > 0 {
			line += fmt.Sprintf(" (and %s of this target after the first, which install leaves alone)", guard.Count(r.More, "more block"))
		}
		_, _ = fmt.Fprintln(e.stdout, line)
	}
	if stale == 0 {
		return nil
	}
	them := "it"
	if stale > 1 {
		them = "them"
	}
	_, _ = fmt.Fprintf(e.stdout, "To update %s, run: %s\n", them, e.installCommandLine(c))
	return exitError{exitChanged}
}

// installCommandLine is the install command that brings the files --check found stale up to date.
func (e *env) installCommandLine(c *cli.Context) string {
	args := []string{e.invocation(), "install", "--task", shellQuote(c.String("task"))}
	if c.Bool("all-targets") {
		args = append(args, "--all-targets")
	}
	for _, t := range c.StringSlice("target") {
		args = append(args, "--target", shellQuote(t))
	}
	args = append(args, "--dir", shellQuote(c.String("dir")))
	for _, f := range []string{"fixture", "session"} {
		if c.IsSet(f) {
			args = append(args, "--"+f, shellQuote(c.String(f)))
		}
	}
	return strings.Join(args, " ")
}

// workspaceError prints the problems workspace reported and returns exit status 2.
func (e *env) workspaceError(err error) error {
	if ds, ok := err.(blocks.Diagnostics); ok {
		return e.diagnostics(ds)
	}
	return usageErr(e, "%v", err)
}
