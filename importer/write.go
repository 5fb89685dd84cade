package importer

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/guard"
)

// gitignore is written beside promptc.toml when the directory has no .gitignore: build/ is where promptc build
// writes.
const gitignore = "build/\n"

// projectDirs are the directories whose contents the loader or check --update treats as the project's own: stray
// files there would be compiled into the imported project, or removed from golden/.
var projectDirs = []string{"blocks", "fixtures", "templates", "golden"}

// ExistsError is Write's refusal to write into a directory that already holds part of a project.
type ExistsError struct {
	// Dir is the directory as given to Write.
	Dir string
	// Paths are what is in the way, as slash paths relative to Dir, sorted: files Write would write, and the
	// project directories (with a trailing slash) that are not empty.
	Paths []string
}

func (e *ExistsError) Error() string {
	return e.Dir + " already holds " + strings.Join(e.Paths, ", ") + ": import writes a new project and overwrites nothing; " +
		"choose another directory (--out DIR), or move them away"
}

// Write writes the imported project into dir, creating dir when it is missing, and returns the files it wrote as
// slash paths relative to dir, sorted: the sources, a .gitignore holding build/ when dir has none (an existing one
// is left alone), and golden/ written by the compiler exactly as promptc check --update writes it, so that promptc
// check passes at once.
//
// Write overwrites nothing: when dir already holds promptc.toml or another source Write would write, or a
// non-empty blocks/, fixtures/, templates/ or golden/ directory, it writes nothing and returns an *ExistsError
// naming each. A later problem (a failed write) may leave the files written so far.
func (r *Result) Write(dir string) (written []string, err error) {
	files := make([]string, 0, len(r.Files)+1)
	for p := range r.Files {
		files = append(files, p)
	}
	slices.Sort(files)
	var inWay []string
	for _, p := range files {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p))); err == nil {
			inWay = append(inWay, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	for _, d := range projectDirs {
		if slices.ContainsFunc(inWay, func(p string) bool { return strings.HasPrefix(p, d+"/") }) {
			continue // already named by the file in the way
		}
		entries, err := os.ReadDir(filepath.Join(dir, d))
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil || len(entries) > 0:
			inWay = append(inWay, d+"/")
		}
	}
	if len(inWay) > 0 {
		slices.Sort(inWay)
		return nil, &ExistsError{Dir: dir, Paths: inWay}
	}

	data := r.Files
	if _, err := os.Lstat(filepath.Join(dir, ".gitignore")); errors.Is(err, fs.ErrNotExist) {
		files = append(files, ".gitignore")
	}
	for _, p := range files {
		content, ok := data[p]
		if !ok {
			content = []byte(gitignore)
		}
		name := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return written, err
		}
		if err := writeNew(name, content); err != nil {
			return written, err
		}
		written = append(written, p)
	}

	// golden/ comes from the files just written, through the same calls as promptc check --update.
	prog, diags := assemble.LoadDir(dir)
	if len(diags) > 0 {
		return written, diags
	}
	u, err := guard.Update(prog, filepath.Join(dir, "golden"))
	if u != nil {
		for _, p := range u.Written {
			written = append(written, path.Join("golden", p))
		}
	}
	slices.Sort(written)
	return written, err
}

// writeNew creates the file name holding data; it fails when name exists, so a file that appeared since Write
// looked is not overwritten either.
func writeNew(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
