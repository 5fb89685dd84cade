package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/internal/cliflag"
	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/hook"
	"github.com/promptc/promptc/workspace"
)

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
