package main

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// helpCommand is promptc help [COMMAND [SUBCOMMAND]]. With no argument it prints promptc --help. With arguments,
// run has already rewritten the command line to COMMAND [SUBCOMMAND] --help (helpArgs), so that the text is the one
// --help prints: urfave/cli completes a command's help (its subcommands, --help itself) only while it runs it. Its
// own help command is hidden (HideHelpCommand) because it would also add a help subcommand to hook and answer an
// unknown topic with exit status 3.
func helpCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:         "help",
		Usage:        "print the help of promptc, or of a command (as promptc COMMAND --help)",
		UsageText:    "promptc help [COMMAND [SUBCOMMAND]]",
		OnUsageError: commandUsageError(e),
		Action: func(c *cli.Context) error {
			return cli.ShowAppHelp(c)
		},
	}
}

// helpArgs rewrites promptc [GLOBAL FLAGS] help ARGS... as promptc [GLOBAL FLAGS] ARGS... --help when there are
// ARGS; any other command line is returned as it is.
func helpArgs(app *cli.App, args []string) []string {
	i := commandIndex(app.Flags, args)
	if i+1 >= len(args) || args[i] != "help" {
		return args
	}
	return append(slices.Concat(args[:i], args[i+1:]), "--help")
}

// commandIndex is the index in args of the command's name: the first argument after the program name and the global
// flags (globals: those of them that take a value take the next argument, unless given as --flag=value). It is
// len(args) when there is none.
func commandIndex(globals []cli.Flag, args []string) int {
	takes := takesValue(globals)
	i := 1
	for i < len(args) && len(args[i]) > 0 && args[i][0] == '-' {
		if name, _, joined := strings.Cut(strings.TrimLeft(args[i], "-"), "="); takes[name] && !joined {
			i++
		}
		i++
	}
	return min(i, len(args))
}
