package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/schema"
)

func schemaCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "schema",
		Usage:     "print the JSON Schema of promptc.toml, of a blocks file or of a fixture, for editors",
		UsageText: "promptc schema [manifest|blocks|fixture]",
		Description: "Prints the JSON Schema (draft 2020-12) of one kind of source file: manifest (promptc.toml),\n" +
			"blocks (blocks/**/*.toml) or fixture (fixtures/*.toml). The same files are in the repository's schema/\n" +
			"directory. With no argument, lists the schemas. Editor setup (the #:schema directive, Taplo, Tombi):\n" +
			"docs/editors.md.",
		OnUsageError: commandUsageError(e),
		Action: func(c *cli.Context) error {
			switch c.NArg() {
			case 0:
				var b strings.Builder
				for _, k := range schema.FileKinds {
					fmt.Fprintf(&b, "%-9s %-17s %s\n", k, k.Sources(), "schema/"+k.File())
				}
				_, err := fmt.Fprint(e.stdout, b.String())
				return err
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
