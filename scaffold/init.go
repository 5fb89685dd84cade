package scaffold

import (
	"embed"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/source"
)

// project holds the starter project's sources. "all:" keeps .gitignore, which embed would skip as a dot file.
//
//go:embed all:project
var project embed.FS

// ExampleTask is a task of the starter project, for commands that need one: promptc render --task review.
const ExampleTask = "review"

// dirs are the directories of a project whose contents the loader or check --update treats as the project's own:
// stray files there would be compiled into the new project, or removed from golden/.
var dirs = []string{"blocks", "fixtures", "templates", "golden"}

// ExistsError is the refusal of Init (and WriteProject) to write into a directory that already holds part of a
// project.
type ExistsError struct {
	// Dir is the directory as given to Init.
	Dir string
	// Paths are what is in the way, as slash paths relative to Dir, sorted: files that would be written, and the
	// project directories (with a trailing slash) that are not empty.
	Paths []string
}

func (e *ExistsError) Error() string {
	return e.Dir + " already holds " + quoteNames(e.Paths) + ": init writes a new project and overwrites nothing; " +
		"choose another directory, or move them away"
}

// quoteNames joins paths with ", ", each quoted as source.QuoteName quotes names.
func quoteNames(paths []string) string {
	q := make([]string, len(paths))
	for i, p := range paths {
		q[i] = source.QuoteName(p)
	}
	return strings.Join(q, ", ")
}

// Files returns the paths of the sources Init writes, slash paths relative to the project root, sorted.
func Files() []string {
	var files []string
	// The embedded tree is fixed at build time: walking it cannot fail.
	_ = fs.WalkDir(sources(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	return files
}

func sources() fs.FS {
	sub, err := fs.Sub(project, "project")
	if err != nil {
		panic(err) // "project" is a valid path, so Sub cannot fail
	}
	return sub
}

// Init writes the starter project into dir, creating dir when it is missing, and returns the files it wrote as
// slash paths relative to dir, sorted: promptc.toml, blocks/, fixtures/, a .gitignore holding build/, and golden/
// written by the compiler exactly as promptc check --update writes it, so that promptc check passes at once. The
// sources comment every key they use.
//
// Init overwrites nothing: when dir already holds a file Init would write, or a non-empty blocks/, fixtures/,
// templates/ or golden/ directory, it writes nothing and returns an *ExistsError naming each. A later problem
// (a failed write) may leave the files written so far, which the error does not list.
func Init(dir string) (written []string, err error) {
	files := map[string][]byte{}
	for _, p := range Files() {
		data, err := fs.ReadFile(sources(), p)
		if err != nil {
			return nil, err
		}
		files[p] = data
	}
	return WriteProject(dir, files)
}

// WriteProject writes the sources of a new project, files (slash paths relative to the project root, and their
// bytes), into dir, creating dir and the directories the files need, then writes golden/ from them through the same
// calls as promptc check --update, so that promptc check passes at once. It returns the files written as slash paths
// relative to dir, sorted. init and import both write their projects with it.
//
// WriteProject overwrites nothing: when dir already holds one of files, or a non-empty blocks/, fixtures/,
// templates/ or golden/ directory (whose contents would be compiled into the project, or removed from golden/), it
// writes nothing and returns an *ExistsError naming each; when a directory it would write into (blocks/, golden/,
// …) is a symbolic link, it writes nothing and returns an *assemble.LinkError naming it. Each file is created exclusively, so one that appears
// meanwhile is not overwritten either; a failed write may leave the files written so far.
func WriteProject(dir string, files map[string][]byte) (written []string, err error) {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var inWay []string
	for _, p := range paths {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p))); err == nil {
			inWay = append(inWay, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	for _, d := range dirs {
		if slices.ContainsFunc(inWay, func(p string) bool { return strings.HasPrefix(p, d+"/") }) {
			continue // already named by the file in the way
		}
		entries, err := os.ReadDir(filepath.Join(dir, d))
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil || len(entries) > 0:
			// Not a directory, unreadable, or holding files: not a place to write the project's own.
			inWay = append(inWay, d+"/")
		}
	}
	if len(inWay) > 0 {
		slices.Sort(inWay)
		return nil, &ExistsError{Dir: dir, Paths: inWay}
	}
	// A directory the project is written into that is a symbolic link (out/blocks -> /elsewhere, or golden/)
	// would take the files outside dir, and golden/ would be refused after the sources were written: refuse
	// before writing anything.
	if err := assemble.RealDirs(dir, append(projectDirs(paths), "golden"), linkRule); err != nil {
		return nil, err
	}

	for _, p := range paths {
		name := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return written, err
		}
		if err := writeNew(name, files[p]); err != nil {
			return written, err
		}
		written = append(written, p)
	}

	// golden/ comes from the files just written, written as promptc check --update writes it: with the options of
	// golden.Update. golden/ is empty or missing (checked above), so there is nothing stale to remove and no link
	// below it to refuse; a link at golden/ itself was refused with the other directories.
	prog, diags := assemble.LoadDir(dir)
	if len(diags) > 0 {
		return written, diags
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		return written, diags
	}
	ch, err := assemble.WriteTree(filepath.Join(dir, "golden"), assemble.TreeOf(arts), assemble.GoldenOptions())
	for _, p := range ch.Written {
		written = append(written, path.Join("golden", p))
	}
	slices.Sort(written)
	return written, err
}

// linkRule is why WriteProject refuses a link among the directories it writes.
const linkRule = "a new project is written only into real directories inside its directory, so that no file " +
	"lands elsewhere; replace the link with a directory, or choose another directory"

// projectDirs returns the directories above the slash paths, excluding ".".
func projectDirs(paths []string) []string {
	var out []string
	for _, p := range paths {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			out = append(out, d)
		}
	}
	return out
}

// writeNew creates the file name holding data; it fails when name exists, so a file that appeared since
// WriteProject looked is not overwritten either.
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
