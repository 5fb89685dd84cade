package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/importer"
	"github.com/promptc/promptc/source"
)

func importCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "import",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "write the project into `DIR` (default: the working directory; created when missing)"},
			&cli.StringSliceFlag{Name: "task", Usage: "import `NAME=FILE` as task NAME (repeat for several)"},
		},
		Action: func(c *cli.Context) error {
			out, tasks := c.String("out"), c.StringSlice("task")
			files := c.Args().Slice()
			var srcs []importer.Source
			add := func(task, file string) error {
				src, err := importer.ReadSource(file, e.path(file), task)
				var pe *os.PathError
				if errors.As(err, &pe) {
					return usageErr(e, "import: %s: %v", source.QuoteName(file), e.pathError(file, pe))
				} else if err != nil {
					return usageErr(e, "import: %v", err)
				}
				srcs = append(srcs, src)
				return nil
			}
			for _, f := range files {
				if err := add("", f); err != nil {
					return err
				}
			}
			for _, t := range tasks {
				name, file, ok := strings.Cut(t, "=")
				if !ok || name == "" || file == "" {
					return usageErr(e, "import: --task %s: write NAME=FILE", source.QuoteName(t))
				}
				if err := add(name, file); err != nil {
					return err
				}
			}
			if len(srcs) == 0 {
				return usageErr(e, "import: name the markdown files to import (see promptc import --help)")
			}

			res, err := importer.Import(srcs)
			if err != nil {
				return usageErr(e, "import: %v", err)
			}
			written, err := res.Write(e.path(out))
			var b strings.Builder
			inv, err := e.wroteProject(&b, "import", out, res.Counts(), written, err)
			if err != nil {
				return err
			}
			b.WriteString(res.NextSteps(inv))
			if _, err := fmt.Fprint(e.stdout, b.String()); err != nil {
				return err
			}
			return res.WriteNormalisations(e.stderr)
		},
	}
}
