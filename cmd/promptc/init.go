package main

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/importer"
	"github.com/promptc/promptc/scaffold"
	"github.com/promptc/promptc/source"
)

func initCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "init",
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usageErr(e, "init takes one directory, got %d arguments", c.NArg())
			}
			arg := c.Args().First()
			written, err := scaffold.Init(e.path(arg))
			var b strings.Builder
			inv, err := e.wroteProject(&b, "init", arg, "", written, err)
			if err != nil {
				return err
			}
			b.WriteString(scaffold.NextSteps(inv))
			_, err = fmt.Fprint(e.stdout, b.String())
			return err
		},
	}
}

// wroteProject reports what init and import wrote: written and err are what writing the new project into the
// directory the user named as arg ("": the working directory) returned. A refusal to overwrite (an
// *scaffold.ExistsError, also behind importer's) names arg and is a usage error, as is any other failure but
// diagnostics, which are printed (the project was verified to compile: a bug, but they say where). Otherwise the
// header ("promptc CMD: wrote a new project in DIR" and detail) and the written files go to b, and inv is the
// invocation for the project, for the commands to try next.
func (e *env) wroteProject(b *strings.Builder, cmd, arg, detail string, written []string, err error) (inv string, _ error) {
	where := scaffold.WhereName(arg)
	var exists *scaffold.ExistsError
	var link *assemble.LinkError
	switch {
	case errors.As(err, &exists):
		exists.Dir = where
		return "", usageErr(e, "%s: %v", cmd, err)
	case errors.As(err, &link):
		link.Dir = cmp.Or(arg, ".")
		return "", usageErr(e, "%s: %v", cmd, err)
	case err != nil:
		return "", e.fail(err, func(err error) error { return usageErr(e, "%s: %s", cmd, pathErrorText(err)) })
	}
	text, inv := scaffold.Wrote(cmd, arg, detail, written)
	b.WriteString(text)
	return inv, nil
}

// pathErrorText is err as printed, the path of a *fs.PathError quoted as source.QuoteName quotes names.
func pathErrorText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + " " + source.QuoteName(pe.Path) + ": " + pe.Err.Error()
	}
	return err.Error()
}

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
