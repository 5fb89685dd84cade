package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/hook"
	"github.com/promptc/promptc/internal/cliflag"
	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
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

func hookCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "hook",
		Subcommands: []*cli.Command{
			hookInstallCommand(e),
			hookUninstallCommand(e),
			hookRunCommand(e, "check"),
			hookRunCommand(e, "lint"),
			hookInstallCheckCommand(e),
		},
		HideHelpCommand: true,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErr(e, "hook: unknown command %q%s (see promptc hook --help)", c.Args().First(),
					suggest.DidYouMean(c.Args().First(), commandNames(c.Command.Subcommands)))
			}
			return usageErr(e, "hook: missing command: install, uninstall, check, lint or install-check (see promptc hook --help)")
		},
	}
}

func hookInstallCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "install",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "force", Usage: "overwrite an existing pre-commit hook that is not promptc's instead of keeping it"},
		},
		Action: e.noArgs(func(c *cli.Context) error {
			root, err := e.projectRoot()
			if err != nil {
				return err
			}
			res, err := hook.Install(root, hook.Options{Force: c.Bool("force")})
			if err != nil {
				return usageErr(e, "hook install: %v", err)
			}
			fmt.Fprintln(e.stderr, res.Summary())
			return nil
		}),
	}
}

func hookUninstallCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "uninstall",
		Action: e.noArgs(func(c *cli.Context) error {
			root, err := e.projectRoot()
			if err != nil {
				return err
			}
			res, err := hook.Uninstall(root)
			if err != nil {
				return usageErr(e, "hook uninstall: %v", err)
			}
			fmt.Fprintln(e.stderr, res.Summary())
			return nil
		}),
	}
}

// hookRunCommand runs promptc CMD in each project directory named as an argument. Hook managers such as pre-commit
// append their arguments after the command they run, where the global -C flag cannot go.
func hookRunCommand(e *env, name string) *cli.Command {
	return &cli.Command{
		Name: name,
		Action: func(c *cli.Context) error {
			dirs := c.Args().Slice()
			if len(dirs) == 0 {
				root, err := e.hookRoot("hook "+name, "directories as arguments (with pre-commit: args: [path/to/project])", "promptc hook "+name+" %s")
				if err != nil {
					return err
				}
				dirs = []string{root}
			}
			worst := exitOK
			for _, dir := range dirs {
				// Under a global -C, directories are relative to it; otherwise pass them on as given, so that
				// messages name them as the user wrote them.
				arg := dir
				if e.root != "" {
					arg = e.path(dir)
				}
				status := run([]string{"promptc", "-C", arg, name}, e.stdout, e.stderr)
				if status != exitOK && len(dirs) > 1 {
					fmt.Fprintf(e.stderr, "promptc: hook %s: %s failed (exit status %d)\n", name, source.QuoteName(dir), status)
				}
				worst = max(worst, status)
			}
			if worst != exitOK {
				return exitError{worst}
			}
			return nil
		},
	}
}

// hookInstallCheckCommand runs promptc install --check for one project, for hook managers such as pre-commit: they
// append their arguments after the command, where -C cannot go, and run hooks from the top of the repository, which
// every path of the hook's configuration is relative to; so --dir and --session are relative to the working directory.
func hookInstallCheckCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "install-check",
		Flags: installFlags(),
		Action: func(c *cli.Context) error {
			const cmd = "hook install-check"
			if c.NArg() > 1 {
				return usageErr(e, "%s takes one PROJECT_DIR; got %s", cmd, cliflag.QuoteAll(c.Args().Slice()))
			}
			dir, err := e.installArgs(c, cmd)
			if err != nil {
				return err
			}
			var fix workspace.InstallCommand
			if c.NArg() == 1 {
				arg := c.Args().First()
				root := e.path(arg)
				switch shown, err := source.QuoteName(e.shown(arg)), blocks.CheckRoot(root); {
				case errors.Is(err, blocks.ErrNoManifest):
					return usageErr(e, "%s: %s: no promptc.toml there: PROJECT_DIR names a project root", cmd, shown)
				case err != nil:
					is := ": no such directory"
					if errors.Is(err, blocks.ErrNotDir) {
						is = " is not a directory"
					}
					return usageErr(e, "%s: %s%s: PROJECT_DIR names a project root, the directory holding promptc.toml", cmd, shown, is)
				}
				e.root, fix.Project = root, source.QuoteName(e.shown(arg))
			} else {
				root, err := e.hookRoot(cmd, "directory as the last argument (with pre-commit: args: [..., path/to/project])", "promptc "+cmd+" ... %s")
				if err != nil {
					return err
				}
				// The project holding the working directory is the one install finds from there too: the command
				// to suggest needs no -C, beyond the one this command was given.
				e.root, fix.Project = root, e.cdir
			}
			// The suggested install runs with -C PROJECT_DIR, under which its paths are relative to the project.
			session := c.String("session")
			if session != "" && session != "-" {
				session = e.shown(session)
			}
			fix.Dir, fix.Session = hook.InstallCheckPaths(fix.Project, dir, session)
			return e.install(c, cmd, dir, true, fix)
		},
	}
}

// hookRoot is the project a hook command cmd given no project directory runs for: the -C directory, or the project
// holding the working directory. Without one it is a usage error that says how to name the project (how) and, when
// one is below the working directory, the command to run for it (run, as blocks.BelowHint takes it).
func (e *env) hookRoot(cmd, how, run string) (string, error) {
	if e.root != "" {
		return e.root, nil
	}
	root, err := blocks.FindRoot(e.dir)
	if err != nil {
		return "", usageErr(e, "%s: no promptc.toml in %s or any parent directory: name the project %s%s", cmd, source.QuoteName(e.dir), how, blocks.BelowHint(e.dir, run))
	}
	return root, nil
}
