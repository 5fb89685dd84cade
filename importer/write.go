package importer

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/promptc/promptc/scaffold"
	"github.com/promptc/promptc/source"
)

// gitignore is written beside promptc.toml when the directory has no .gitignore: build/ is where promptc build
// writes.
const gitignore = "build/\n"

// ExistsError is Write's refusal to write into a directory that already holds part of a project: the
// *scaffold.ExistsError of scaffold.WriteProject (Dir, the directory as given to Write, and Paths, what is in the
// way), which errors.As finds through it too, worded for import.
type ExistsError struct{ *scaffold.ExistsError }

func (e *ExistsError) Error() string {
	paths := make([]string, len(e.Paths))
	for i, p := range e.Paths {
		paths[i] = source.QuoteName(p)
	}
	return e.Dir + " already holds " + strings.Join(paths, ", ") + ": import writes a new project and overwrites nothing; " +
		"choose another directory (--out DIR), or move them away"
}

// Unwrap returns the *scaffold.ExistsError.
func (e *ExistsError) Unwrap() error { return e.ExistsError }

// Write writes the imported project into dir, creating dir when it is missing, and returns the files it wrote as
// slash paths relative to dir, sorted: the sources, a .gitignore holding build/ when dir has none (an existing one
// is left alone), and golden/ written by the compiler exactly as promptc check --update writes it, so that promptc
// check passes at once.
//
// Write overwrites nothing: when dir already holds promptc.toml or another source Write would write, or a
// non-empty blocks/, fixtures/, templates/ or golden/ directory, it writes nothing and returns an *ExistsError
// naming each. A later problem (a failed write) may leave the files written so far.
func (r *Result) Write(dir string) (written []string, err error) {
	files := maps.Clone(r.Files)
	if _, err := os.Lstat(filepath.Join(dir, ".gitignore")); errors.Is(err, fs.ErrNotExist) {
		files[".gitignore"] = []byte(gitignore)
	}
	written, err = scaffold.WriteProject(dir, files)
	var exists *scaffold.ExistsError
	if errors.As(err, &exists) {
		return nil, &ExistsError{exists}
	}
	return written, err
}
