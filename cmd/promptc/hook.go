package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/hook"
)

func hookCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "hook",
		Usage:     "install a git pre-commit hook that runs promptc check; run the checks hook managers call",
		UsageText: "promptc hook install [--force]\npromptc hook check|lint [PROJECT_DIR...]",
		Subcommands: []*cli.Command{
			hookInstallCommand(e),
			hookRunCommand(e, "check", "fail when compiled prompts differ from golden/"),
			hookRunCommand(e, "lint", "fail on error-level stability lints"),
		},
		HideHelpCommand: true,
		OnUsageError:    commandUsageError(e),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErr(e, "hook: unknown command %q%s (see promptc hook --help)", c.Args().First(),
					blocks.DidYouMean(c.Args().First(), []string{"install", "check", "lint"}))
			}
			return usageErr(e, "hook: missing command: install, check or lint (see promptc hook --help)")
		},
	}
}

func hookInstallCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "install",
		Usage:     "install a git pre-commit hook that runs promptc check for this project",
		UsageText: "promptc [-C DIR] hook install [--force]",
		Description: "Writes the pre-commit hook of the git repository holding the project (core.hooksPath and\n" +
			"worktrees respected). At commit time it runs \"promptc -C PROJECT check\" from the top of the work\n" +
			"tree, with promptc from PATH or from $PROMPTC, and stops the commit when the check fails.\n" +
			"A pre-commit hook that is not promptc's is moved to pre-commit.local and runs first; installing\n" +
			"from a second project adds its check to the same hook; installing again changes nothing.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "force", Usage: "overwrite an existing pre-commit hook that is not promptc's instead of keeping it"},
		},
		OnUsageError: hookUsageError(e),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErr(e, "hook install takes no arguments, got %q", c.Args().First())
			}
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
		},
	}
}

// hookRunCommand runs promptc CMD in each project directory named as an argument. Hook managers such as pre-commit
// append their arguments after the command they run, where the global -C flag cannot go.
func hookRunCommand(e *env, name, does string) *cli.Command {
	return &cli.Command{
		Name:      name,
		Usage:     "run promptc " + name + " in each PROJECT_DIR: " + does,
		UsageText: "promptc hook " + name + " [PROJECT_DIR...]",
		Description: "Runs \"promptc -C PROJECT_DIR " + name + "\" for each PROJECT_DIR, all of them even when one fails, and\n" +
			"exits with the highest status. Without arguments, runs it for the project holding the working\n" +
			"directory. This is the entry point for hook managers, such as pre-commit, that append the\n" +
			"arguments a user configures after the command, where -C cannot go.",
		OnUsageError: hookUsageError(e),
		Action: func(c *cli.Context) error {
			dirs := c.Args().Slice()
			if len(dirs) == 0 {
				quiet := *e
				quiet.stderr = io.Discard
				root, err := quiet.projectRoot()
				if err != nil {
					return usageErr(e, "hook %s: no promptc.toml in %s or any parent directory: name the project "+
						"directories as arguments (with pre-commit: args: [path/to/project])", name, e.dir)
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
					fmt.Fprintf(e.stderr, "promptc: hook %s: %s failed (exit status %d)\n", name, dir, status)
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

// hookUsageError makes flag errors of hook subcommands exit with status 2, naming the full command.
func hookUsageError(e *env) cli.OnUsageErrorFunc {
	return func(c *cli.Context, err error, _ bool) error {
		return usageErr(e, "hook %s: %v (see promptc hook %s --help)", c.Command.Name, err, c.Command.Name)
	}
}
