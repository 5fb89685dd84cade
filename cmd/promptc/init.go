package main

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/source"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/scaffold"
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
