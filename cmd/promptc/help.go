package main

import (
	"embed"
	"strings"

	"github.com/urfave/cli/v2"
)

// helpText holds what each command's --help says, a file per command: help/NAME.txt for a command, help/hook-NAME.txt
// for a subcommand of hook. Its first line is the summary promptc --help lists; the lines after it, up to a blank
// line, are the usage lines; the rest is the description. Prose kept as prose, outside Go strings, is read and
// reviewed as what users see; TestHelpFiles holds the files and the commands to one another.
//
//go:embed help/*.txt
var helpText embed.FS

// describe sets the summary, usage lines and description of every command in cmds (and their subcommands) from its
// help file, and its flag errors' handler; prefix is the parent command's file name and a dash ("hook-"), or "" at
// the top.
func (e *env) describe(cmds []*cli.Command, prefix string) {
	for _, c := range cmds {
		name := prefix + c.Name
		data, err := helpText.ReadFile("help/" + name + ".txt")
		if err == nil { // a command without a file shows no help text; TestHelpFiles fails for it
			head, desc, _ := strings.Cut(strings.TrimSuffix(string(data), "\n"), "\n\n")
			c.Usage, c.UsageText, _ = strings.Cut(head, "\n")
			c.Description = desc
		}
		c.OnUsageError = e.usageError
		e.describe(c.Subcommands, name+"-")
	}
}

// helpCommand is promptc help [COMMAND [SUBCOMMAND]]. With no argument it prints promptc --help. With arguments,
// run has already rewritten the command line to COMMAND [SUBCOMMAND] --help (helpArgs), so that the text is the one
// --help prints: urfave/cli completes a command's help (its subcommands, --help itself) only while it runs it. Its
// own help command is hidden (HideHelpCommand) because it would also add a help subcommand to hook and answer an
// unknown topic with exit status 3.
func helpCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "help",
		Action: func(c *cli.Context) error {
			return cli.ShowAppHelp(c)
		},
	}
}
