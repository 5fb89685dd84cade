package assemble

import (
	"fmt"
	"path/filepath"
	"strings"
)

// SourceDirs are the directories of a project that hold what promptc reads or compares against. A build written
// among them would be taken for sources, or overwrite them.
var SourceDirs = []string{"golden", "blocks", "templates", "fixtures"}

// OutDirError is why a directory cannot receive a build: it is the project root, or lies in one of SourceDirs.
type OutDirError struct {
	Out string // the directory as given
	In  string // "" for the project root itself, else the source directory ("golden", "blocks", …)
	// Invocation is how the user runs promptc ("promptc -C examples/tracker"), for the command the message suggests
	// when Out is in golden/; "" for plain "promptc". A caller that knows the command line sets it before printing.
	Invocation string
}

func (e *OutDirError) Error() string {
	if e.In == "" {
		return fmt.Sprintf("%s is the project root: build would write artifacts among the sources; give it a directory of its own (the default is build/)", e.Out)
	}
	hint := "give it a directory of its own (the default is build/)"
	if e.In == "golden" {
		inv := e.Invocation
		if inv == "" {
			inv = "promptc"
		}
		hint = "golden/ is what check compares against; to rewrite it, run " + inv + " check --update"
	}
	return fmt.Sprintf("%s is in %s/, which belongs to the project's sources: %s", e.Out, e.In, hint)
}

// CheckOutDir returns an *OutDirError when out may not receive the build of the project at root: when it is the
// root itself, or is or lies inside one of SourceDirs. Paths are compared cleaned and absolute, and again with
// their symbolic links resolved as far as they exist, so no spelling of a source directory slips through.
func CheckOutDir(root, out string) error {
	for _, resolve := range []func(string) string{filepath.Clean, resolveExisting} {
		r, o := resolve(root), resolve(out)
		if o == r {
			return &OutDirError{Out: out}
		}
		for _, d := range SourceDirs {
			dir := filepath.Join(r, d)
			if o == dir || strings.HasPrefix(o, dir+string(filepath.Separator)) {
				return &OutDirError{Out: out, In: d}
			}
		}
	}
	return nil
}

// resolveExisting resolves the symbolic links of the longest part of p that exists, and keeps the rest as given.
func resolveExisting(p string) string {
	var rest []string
	for cur := filepath.Clean(p); ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return filepath.Clean(p)
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
		cur = parent
	}
}

// BuildDir is `promptc build`: it loads and compiles the project at root, renders every artifact and writes them
// under out (made absolute; "" means root/build), keeping a manifest of what it wrote so that the next build
// removes only its own stale files (WriteTree with PruneListed). It returns what changed; diagnostics come back as
// a source.Diagnostics error, an out that may not receive a build as an *OutDirError.
func BuildDir(root, out string) (TreeChanges, error) {
	if out == "" {
		out = filepath.Join(root, "build")
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return TreeChanges{}, err
	}
	if err := CheckOutDir(root, abs); err != nil {
		return TreeChanges{}, err
	}
	prog, diags := LoadDir(root)
	if len(diags) > 0 {
		return TreeChanges{}, diags
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		return TreeChanges{}, diags
	}
	ch, err := WriteTree(abs, TreeOf(arts), TreeOptions{Prune: PruneListed})
	ch.Artifacts = CoverageOf(arts)
	return ch, err
}
