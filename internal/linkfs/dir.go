package linkfs

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Dir returns the directory dir on disk as a View. Its boundary is the directory top returns, when that holds dir
// (the git work tree holding dir, say), and dir itself when top returns "" or a directory that does not hold it.
// top is called at most once, and only when a symbolic link is met, so a project without links costs nothing more
// than os.DirFS. Symbolic links above dir are resolved before anything else, as the operating system would.
func Dir(dir string, top func() string) *View {
	root := dir
	if abs, err := filepath.Abs(dir); err == nil {
		root = abs
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			root = real
		}
	}
	// Tree paths are relative to the root of root's volume, so that the boundary, wherever it is above root, is a
	// tree path too.
	vol := filepath.VolumeName(root) + string(filepath.Separator)
	rootPath := "."
	if rel, err := filepath.Rel(vol, root); err == nil {
		rootPath = filepath.ToSlash(rel)
	}
	t := &disk{vol: vol}
	t.bound = sync.OnceValues(func() (string, string) {
		if top == nil {
			return rootPath, ProjectDir
		}
		dir := top()
		if dir == "" {
			return rootPath, ProjectDir
		}
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		rel, err := filepath.Rel(vol, dir)
		if err != nil || filepath.VolumeName(dir)+string(filepath.Separator) != vol {
			return rootPath, ProjectDir
		}
		if p := filepath.ToSlash(rel); within(rootPath, p) {
			return p, Repository
		}
		return rootPath, ProjectDir
	})
	return NewView(t, rootPath)
}

// The names Tree.Bound gives the two boundaries, for messages.
const (
	Repository = "repository"
	ProjectDir = "project directory"
)

// disk is the Tree of a volume on disk.
type disk struct {
	vol   string
	bound func() (string, string)
}

func (d *disk) path(p string) string { return filepath.Join(d.vol, filepath.FromSlash(p)) }

func (d *disk) Bound() (string, string) { return d.bound() }

func (d *disk) Lstat(p string) (fs.FileInfo, string, error) {
	name := d.path(p)
	fi, err := os.Lstat(name)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return fi, "", err
	}
	target, err := os.Readlink(name)
	if err != nil {
		return nil, "", err
	}
	return fi, filepath.ToSlash(target), nil
}

func (d *disk) ReadDir(p string) ([]fs.DirEntry, error) { return os.ReadDir(d.path(p)) }

func (d *disk) Open(p string) (fs.File, error) { return os.Open(d.path(p)) }
