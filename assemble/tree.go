package assemble

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/promptc/promptc/internal/atomicfile"
)

// IsArtifactPath reports whether a slash path relative to an output tree has the shape of an artifact.
func IsArtifactPath(p string) bool {
	_, ok := ParsePath(p)
	return ok
}

// WriteTree writes the artifacts under dir, each file atomically (renamed into place, not synced: build output can be
// regenerated; golden files are synced by package golden), and removes files under dir that have the shape of
// an artifact but are not among arts (left over from a task or fixture that no longer exists). Other files are
// never touched, so pointing --out at a directory that holds something else loses nothing. It returns the removed
// paths, sorted.
func WriteTree(dir string, arts []*Artifact) (removed []string, err error) {
	want := map[string]bool{}
	files := make([]atomicfile.File, 0, len(arts))
	for _, a := range arts {
		want[a.Path] = true
		files = append(files, atomicfile.File{Name: filepath.Join(dir, filepath.FromSlash(a.Path)), Data: []byte(a.Text), Perm: 0o644, NoSync: true})
	}
	if err := atomicfile.WriteAll(files); err != nil {
		return nil, err
	}
	stale, err := ListTree(dir)
	if err != nil {
		return nil, err
	}
	for _, p := range stale {
		if want[p] {
			continue
		}
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			return removed, err
		}
		removed = append(removed, p)
		// Drop the task directory when it is left empty; a non-empty one fails harmlessly.
		os.Remove(filepath.Join(dir, filepath.FromSlash(p[:strings.IndexByte(p, '/')])))
	}
	return removed, nil
}

// ListTree returns the slash paths of the artifact-shaped files under dir, sorted. A missing dir holds none.
func ListTree(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && os.IsNotExist(err) {
				return fs.SkipDir
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if IsArtifactPath(rel) {
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}
