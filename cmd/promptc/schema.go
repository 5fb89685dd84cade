package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/schema"
)

func schemaCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "schema",
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
