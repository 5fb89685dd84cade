package linkfs

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sync"
)

// Dir returns the directory dir on disk as a View. Its boundary is the directory top returns, when that holds dir
// (the git work tree holding dir, say), and dir itself when top returns "" or a directory that does not hold it.
// top is called at most once, and only when a symbolic link is met, so a project without links costs nothing more
// than os.DirFS. Symbolic links above dir are resolved before anything else, as the operating system would.
//
// Every access to the disk goes through an os.Root (see disk): the View's rule decides which links are followed,
// and the roots make sure that no access leaves the boundary, even when the tree changes while it is read. The
// View holds directories open from their first use until Close, or until it is garbage, as an os.Root does: it is
// one reading of the project, and a directory moved or replaced after its first use is still the one it reads
// (wherever it now is), so a caller that reads the project again takes a new View.
func Dir(dir string, top func() string) *View {
	d := &disk{dir: dir, rootPath: ".", dirs: map[string]*os.Root{}}
	if abs, err := filepath.Abs(dir); err == nil {
		d.dir = abs
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			d.dir = real
		}
		// Tree paths are relative to the root of dir's volume, so that the boundary, wherever it is above dir, is
		// a tree path too.
		d.vol = filepath.VolumeName(d.dir) + string(filepath.Separator)
		if rel, err := filepath.Rel(d.vol, d.dir); err == nil {
			d.rootPath = filepath.ToSlash(rel)
		} else {
			d.vol = ""
		}
	}
	d.bound = sync.OnceValues(func() (string, string) {
		if top == nil || d.vol == "" { // with no volume path above dir, nothing above it can be reached
			return d.rootPath, ProjectDir
		}
		dir := top()
		if dir == "" {
			return d.rootPath, ProjectDir
		}
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		rel, err := filepath.Rel(d.vol, dir)
		if err != nil || filepath.VolumeName(dir)+string(filepath.Separator) != d.vol {
			return d.rootPath, ProjectDir
		}
		if p := filepath.ToSlash(rel); within(d.rootPath, p) {
			return p, Repository
		}
		return d.rootPath, ProjectDir
	})
	return NewView(d, d.rootPath)
}

// The names Tree.Bound gives the two boundaries, for messages.
const (
	Repository = "repository"
	ProjectDir = "project directory"
)

// disk is the Tree of a directory on disk, its paths relative to the root of the directory's volume.
//
// Every access goes through an os.Root, which resolves a path one element at a time from a directory it holds
// open and refuses any step out of it: dir's root for a path inside dir, the boundary's for a path outside dir
// that a link leads to, and none for anything else, which fails. So even a tree that changes while it is read (a
// directory replaced by a symbolic link between the View's look at it and an open below it) cannot make promptc
// read outside the boundary. Each directory is opened once, from its parent's root, and each file or entry then
// costs the one system call that os.DirFS spends on it.
//
// os.Root alone cannot be the View: it follows a link that stays inside it wherever the link leads (into .git, or
// back to a directory that holds the link, which makes the tree endless), it gives up after 8 links where the
// kernel and the View go to maxLinks, it gives no reason a message could name when it refuses one ("path escapes
// from parent", for a link leading out and an absolute one alike, and a missing target for a dangling link), and a
// git commit has no os.Root, while promptc must read a work tree and a commit by one rule. So follow keeps the rule
// for both trees, and os.Root confines what disk does under it; TestRootAloneDiffers holds each of these premises.
type disk struct {
	dir      string // the project directory, symbolic links above it resolved
	vol      string // the root of dir's volume, "" when no tree path can name anything above dir
	rootPath string // dir as a tree path
	bound    func() (string, string)

	mu     sync.Mutex
	dirs   map[string]*os.Root // open directories by tree path: dir, the boundary and those below them
	closed bool
}

// errOutside is what disk gives for a path outside its boundary. A View never asks for one (follow stops a link
// there first); the error is the second lock, for a change in the View that would.
var errOutside = errors.New("path escapes from the boundary")

// root returns the open directory at tree path p, opening it, and the directories above it up to dir or the
// boundary, on first use.
func (d *disk) root(p string) (*os.Root, error) {
	d.mu.Lock()
	r, ok := d.dirs[p]
	closed := d.closed
	d.mu.Unlock()
	switch {
	case closed:
		return nil, os.ErrClosed
	case ok:
		return r, nil
	}
	var err error
	switch top := d.top(p); {
	case top == "":
		return nil, errOutside
	case p == d.rootPath:
		r, err = os.OpenRoot(d.dir)
	case p == top:
		r, err = os.OpenRoot(filepath.Join(d.vol, filepath.FromSlash(p)))
	default:
		var parent *os.Root
		if parent, err = d.root(path.Dir(p)); err == nil {
			r, err = parent.OpenRoot(path.Base(p))
		}
	}
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		r.Close()
		return nil, os.ErrClosed
	}
	if had, ok := d.dirs[p]; ok { // opened meanwhile by another goroutine: keep one
		r.Close()
		return had, nil
	}
	d.dirs[p] = r
	return r, nil
}

// top returns the directory whose root holds tree path p: dir when p is inside it, else the boundary when p is
// inside that, else "".
func (d *disk) top(p string) string {
	if within(p, d.rootPath) {
		return d.rootPath
	}
	// Only a link leads outside dir, and a View asks for the boundary before it follows one, so this finds it
	// known already: no path makes disk run top for the first time.
	if bound, _ := d.bound(); bound != d.rootPath && within(p, bound) {
		return bound
	}
	return ""
}

// parent returns the open directory holding tree path p, and p's name in it ("." for dir and the boundary).
func (d *disk) parent(p string) (*os.Root, string, error) {
	if d.top(p) == p {
		r, err := d.root(p)
		return r, ".", err
	}
	r, err := d.root(path.Dir(p))
	return r, path.Base(p), err
}

func (d *disk) Bound() (string, string) { return d.bound() }

func (d *disk) Lstat(p string) (fs.FileInfo, string, error) {
	r, name, err := d.parent(p)
	if err != nil {
		return nil, "", &fs.PathError{Op: "lstat", Path: p, Err: unwrap(err)}
	}
	fi, err := r.Lstat(name)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return fi, "", err
	}
	target, err := r.Readlink(name)
	if err != nil {
		return nil, "", err
	}
	return fi, filepath.ToSlash(target), nil
}

func (d *disk) ReadDir(p string) ([]fs.DirEntry, error) {
	r, err := d.root(p)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: p, Err: unwrap(err)}
	}
	return fs.ReadDir(r.FS(), ".") // sorted by name, as Tree.ReadDir promises
}

func (d *disk) Open(p string) (fs.File, error) {
	r, name, err := d.parent(p)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: p, Err: unwrap(err)}
	}
	return r.Open(name)
}

// Close closes every directory disk holds open; every access after fails with os.ErrClosed.
func (d *disk) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	var errs []error
	for _, r := range d.dirs {
		errs = append(errs, r.Close())
	}
	d.dirs, d.closed = nil, true
	return errors.Join(errs...)
}
