package main

import (
	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/schema"
)

func schemaCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "schema",
		Action: func(c *cli.Context) error {
			switch c.NArg() {
			case 0:
				return schema.WriteList(e.stdout)
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
