package main

import (
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/workspace"
)

func installCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "install",
		Flags: append(installFlags(),
			&cli.BoolFlag{Name: "check", Usage: "write nothing; exit 1 when installing would change a file"},
		),
		Action: e.noArgs(func(c *cli.Context) error {
			const cmd = "install"
			dir, err := e.installArgs(c, cmd)
			if err != nil {
				return err
			}
			// The suggested command runs where this one ran, so it repeats -C and the paths as they were given.
			fix := workspace.InstallCommand{Project: e.cdir, Dir: c.String("dir"), Session: c.String("session")}
			return e.install(c, cmd, dir, c.Bool("check"), fix)
		}),
	}
}

func uninstallCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "uninstall",
		Flags: targetFlags(),
		Action: e.noArgs(func(c *cli.Context) error {
			const cmd = "uninstall"
			dir, err := e.installDir(c, cmd)
			if err != nil {
				return err
			}
			root, err := e.projectRoot()
			if err != nil {
				return err
			}
			// Uninstall needs the targets and nothing else: a project whose blocks do not compile still lets its
			// runbook be taken out.
			p, diags := workspace.LoadTargets(assemble.DirFS(root))
			if len(diags) > 0 {
				return e.diagnostics(diags)
			}
			targets, err := e.targets(c, cmd, p)
			if err != nil {
				return err
			}
			res, err := workspace.Uninstall(dir, targets...)
			_ = res.WriteText(e.stderr) // a line per file changed or found current
			if err != nil {
				return e.workspaceError(err)
			}
			return nil
		}),
	}
}

// targetFlags are the flags install, uninstall and hook install-check share: which context files, and where.
func targetFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "target", Usage: "the target `NAME` of promptc.toml whose context file to change (repeat for several)"},
		&cli.BoolFlag{Name: "all-targets", Usage: "change the context file of every target of promptc.toml"},
		&cli.StringFlag{Name: "dir", Usage: "the working directory `DIR` holding the context files (required; must exist)"},
	}
}

// installFlags are the flags install and hook install-check share: targetFlags and what to render.
func installFlags() []cli.Flag {
	return append(targetFlags(),
		&cli.StringFlag{Name: "task", Usage: "the task kind `T` whose runbook to install (required)"},
		&cli.StringFlag{Name: "fixture", Usage: "take session values from fixtures/`F`.toml"},
		&cli.StringFlag{Name: "session", Usage: "take session values from `FILE` (JSON or TOML; - for standard input)"},
	)
}

// installArgs checks the flags of install (or hook install-check, cmd) that need no project, and returns the --dir
// directory as installDir does.
func (e *env) installArgs(c *cli.Context, cmd string) (string, error) {
	if c.String("task") == "" {
		return "", cmdErr(e, cmd, "--task T is required: the task whose runbook to install (see promptc %s --help)", cmd)
	}
	if err := e.checkSources(c, cmd, false); err != nil {
		return "", err
	}
	return e.installDir(c, cmd)
}

// installDir checks the target and --dir flags of cmd, and returns the --dir directory as a path from the working
// directory, which is how messages name the files in it. The directory must exist (workspace.CheckDir).
func (e *env) installDir(c *cli.Context, cmd string) (string, error) {
	switch all, some := c.Bool("all-targets"), c.IsSet("target"); {
	case all && some:
		return "", cmdErr(e, cmd, "--target and --all-targets both name targets; choose one")
	case !all && !some:
		return "", cmdErr(e, cmd, "name the targets whose context files to change: --target NAME (repeat for several) or --all-targets")
	}
	dir := c.String("dir")
	if dir == "" {
		return "", cmdErr(e, cmd, "--dir DIR is required: the working directory whose context files to change (see promptc %s --help)", cmd)
	}
	shown := e.shown(dir)
	if err := workspace.CheckDir(shown, e.path(dir)); err != nil {
		return "", cmdErr(e, cmd, "%v", err)
	}
	return shown, nil
}

// shown is a relative path given in a flag as a path from the working directory: under -C, the flag is relative to
// the -C directory, and messages name files from where promptc ran.
func (e *env) shown(p string) string {
	if e.cdir != "" && !filepath.IsAbs(p) {
		return filepath.Join(e.cdir, p)
	}
	return filepath.Clean(p)
}

// targets returns the targets named by --target, or all of them with --all-targets.
func (e *env) targets(c *cli.Context, cmd string, p *blocks.Project) ([]*blocks.Target, error) {
	all := c.Bool("all-targets")
	targets, err := workspace.SelectTargets(p, c.StringSlice("target"), all)
	switch {
	case err == nil:
		return targets, nil
	case all:
		return nil, cmdErr(e, cmd, "--all-targets: %v", err)
	}
	return nil, cmdErr(e, cmd, "%v", err)
}

// install renders the runbook and installs it into the context files of the targets under dir, or, with check,
// reports the files installing would change (fix is the command that would).
func (e *env) install(c *cli.Context, cmd, dir string, check bool, fix workspace.InstallCommand) error {
	pl, t, err := e.openTask(c, cmd, promptc.Options{})
	if err != nil {
		return err
	}
	targets, err := e.targets(c, cmd, pl.Project())
	if err != nil {
		return err
	}
	// Rendered before any file is touched: a runbook that cannot render, or a bad value, leaves every file as it is.
	runbook, err := e.render(c, t)
	if err != nil {
		return err
	}
	if check {
		res, err := workspace.Check(dir, runbook, targets...)
		if err != nil {
			return e.workspaceError(err)
		}
		// The report goes to stdout, as check's does, so that it can be kept; it is empty when every file is current.
		fix.Task, fix.Targets, fix.AllTargets, fix.Fixture = c.String("task"), c.StringSlice("target"), c.Bool("all-targets"), c.String("fixture")
		report := &workspace.CheckReport{Task: c.String("task"), Results: res, Fix: fix.String()}
		_ = report.WriteText(e.stdout)
		if report.Stale() > 0 {
			return exitError{exitChanged}
		}
		return nil
	}
	res, err := workspace.Install(dir, runbook, targets...)
	_ = res.WriteText(e.stderr) // a line per file changed or found current
	if err != nil {
		return e.workspaceError(err)
	}
	return nil
}

// workspaceError prints the problems workspace reported and returns exit status 2.
func (e *env) workspaceError(err error) error {
	return e.fail(err, func(err error) error { return usageErr(e, "%v", err) })
}
