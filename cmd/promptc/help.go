package main

import (
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
