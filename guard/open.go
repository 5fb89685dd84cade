package guard

import (
	"errors"
	"io/fs"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/source"
)

// open loads and compiles the project at the root of fsys (a git revision's) through the pipeline every front end
// opens (promptc.OpenFS), so that its model catalog, which prices a change, is the pipeline's; a project that does
// not compile gives its diagnostics.
func open(fsys fs.FS, opts Options) (*promptc.Pipeline, source.Diagnostics) {
	return diagnosticsOf(promptc.OpenFS(fsys, promptc.Options{Counter: opts.Counter}))
}

// openDir is open for the working tree's project at root (promptc.Open).
func openDir(root string, opts Options) (*promptc.Pipeline, source.Diagnostics) {
	return diagnosticsOf(promptc.Open(root, promptc.Options{Counter: opts.Counter}))
}

// diagnosticsOf is an open's result with its error as the diagnostics it is (promptc.Open returns nothing else).
func diagnosticsOf(pl *promptc.Pipeline, err error) (*promptc.Pipeline, source.Diagnostics) {
	var diags source.Diagnostics
	if errors.As(err, &diags) {
		return pl, diags
	}
	return pl, nil
}
