package linkfs

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// View is the read-only fs.FS of one directory of a Tree in which symbolic links are followed by this package's
// rule: a link is followed when it leads, through any chain of links, to a file or directory inside the tree's
// Bound by relative steps that never go above it, and to no directory that holds it. A link to a directory is
// followed like one to a file, so the directory's files appear below the link's name.
//
// A link that breaks the rule stays in directory listings as a symbolic link (as os.DirFS lists it), and Open,
// Stat and ReadFile of it, or of a path through it, fail with an *fs.PathError around a *FollowError. A name ".git"
// is never found. A View is safe for concurrent use when its Tree is.
type View struct {
	tree Tree
	root string
}

// NewView returns the View of the directory root of t (a tree path).
func NewView(t Tree, root string) *View { return &View{tree: t, root: root} }

// Resolve returns the tree path that name, relative to the View's root, leads to, and what is there under name's
// last element.
func (v *View) Resolve(name string) (string, fs.FileInfo, error) {
	p, fi, _, err := v.walk("resolve", name)
	return p, fi, err
}

// walk resolves name one element at a time. Beside the tree path and what is there it returns the directories the
// path passed through, its own last if it is one: the loop rule of follow needs them.
func (v *View) walk(op, name string) (string, fs.FileInfo, []string, error) {
	if !fs.ValidPath(name) {
		return "", nil, nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	fi, _, err := v.tree.Lstat(v.root)
	if err != nil {
		return "", nil, nil, &fs.PathError{Op: op, Path: name, Err: unwrap(err)}
	}
	cur, dirs := v.root, []string{v.root}
	if name == "." {
		return cur, named(fi, "."), dirs, nil
	}
	elems := strings.Split(name, "/")
	for _, elem := range elems {
		if !fi.IsDir() {
			return "", nil, nil, &fs.PathError{Op: op, Path: name, Err: errNotDir}
		}
		cur, fi, err = v.step(cur, elem, dirs)
		if err != nil {
			return "", nil, nil, &fs.PathError{Op: op, Path: name, Err: unwrap(err)}
		}
		if fi.IsDir() {
			dirs = append(dirs, cur)
		}
	}
	return cur, named(fi, elems[len(elems)-1]), dirs, nil
}

// step resolves the element elem of directory dir.
func (v *View) step(dir, elem string, dirs []string) (string, fs.FileInfo, error) {
	if elem == gitDir {
		return "", nil, fs.ErrNotExist
	}
	p := path.Join(dir, elem)
	fi, target, err := v.tree.Lstat(p)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return p, fi, err
	}
	return follow(v.tree, p, target, dirs)
}

// unwrap keeps a tree's error short inside the View's own *fs.PathError, which names the path in the View.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Open implements fs.FS.
func (v *View) Open(name string) (fs.File, error) {
	p, fi, dirs, err := v.walk("open", name)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return &dirFile{v: v, name: name, path: p, dirs: dirs, fi: fi}, nil
	}
	if !fi.Mode().IsRegular() {
		// A named pipe would block open(2) until a writer comes, and a device may never end: refused unopened.
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	f, err := v.tree.Open(p)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: unwrap(err)}
	}
	return &file{File: f, fi: fi}, nil
}

// Stat implements fs.StatFS; like os.Stat it follows a link, and fails on one it does not follow.
func (v *View) Stat(name string) (fs.FileInfo, error) {
	_, fi, _, err := v.walk("stat", name)
	return fi, err
}

// ReadFile implements fs.ReadFileFS.
func (v *View) ReadFile(name string) ([]byte, error) {
	f, err := v.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errIsDir}
	}
	data := make([]byte, 0, fi.Size()+1) // one more byte, so that a file of the stated size ends in one read
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: unwrap(err)}
		}
		if len(data) == cap(data) {
			data = slices.Grow(data, max(512, len(data)))
		}
	}
}

var errIsDir = errors.New("is a directory")

// ErrNotRegular is the error of opening what is neither a regular file nor a directory (a named pipe, a socket, a
// device): Open refuses it without opening it.
var ErrNotRegular = errors.New("not a regular file (a named pipe, a socket or a device): promptc reads only regular files, so that reading never waits")

// ReadDir implements fs.ReadDirFS.
func (v *View) ReadDir(name string) ([]fs.DirEntry, error) {
	p, fi, dirs, err := v.walk("readdir", name)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errNotDir}
	}
	entries, err := v.entries(p, dirs)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: unwrap(err)}
	}
	return entries, nil
}

// entries lists the directory at tree path p: a link it follows shows as what it leads to, one it does not as a
// symbolic link.
func (v *View) entries(p string, dirs []string) ([]fs.DirEntry, error) {
	list, err := v.tree.ReadDir(p)
	if err != nil {
		return nil, err
	}
	out := make([]fs.DirEntry, 0, len(list))
	for _, e := range list {
		if e.Name() == gitDir {
			continue
		}
		if e.Type()&fs.ModeSymlink != 0 {
			_, fi, err := v.step(p, e.Name(), dirs)
			var le *FollowError
			switch {
			case errors.As(err, &le):
			case err != nil:
				return nil, err
			default:
				e = fs.FileInfoToDirEntry(named(fi, e.Name()))
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// named gives fi the name it has in the View: a followed link's own, not its target's.
func named(fi fs.FileInfo, name string) fs.FileInfo {
	if fi.Name() == name {
		return fi
	}
	return renamed{fi, name}
}

type renamed struct {
	fs.FileInfo
	name string
}

func (r renamed) Name() string { return r.name }

// file is an open regular file of a View.
type file struct {
	fs.File
	fi fs.FileInfo
}

func (f *file) Stat() (fs.FileInfo, error) { return f.fi, nil }

// dirFile is an open directory of a View; its entries are listed on the first ReadDir.
type dirFile struct {
	v       *View
	name    string
	path    string
	dirs    []string
	fi      fs.FileInfo
	entries []fs.DirEntry
	listed  bool
}

func (d *dirFile) Stat() (fs.FileInfo, error) { return d.fi, nil }
func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: errIsDir}
}
func (d *dirFile) Close() error { return nil }

// ReadDir implements fs.ReadDirFile: with n > 0 at most n entries and io.EOF once none are left, otherwise all the
// remaining ones and a nil error.
func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if !d.listed {
		entries, err := d.v.entries(d.path, d.dirs)
		if err != nil {
			return nil, &fs.PathError{Op: "readdir", Path: d.name, Err: unwrap(err)}
		}
		d.entries, d.listed = entries, true
	}
	rest := d.entries
	if n > 0 {
		if len(rest) == 0 {
			return nil, io.EOF
		}
		rest = rest[:min(n, len(rest))]
	}
	d.entries = d.entries[len(rest):]
	return rest, nil
}

// Close releases what the View's Tree holds open, when the Tree is an io.Closer (Dir's holds its directory's
// os.Root); the View fails every call after. Files opened before stay open until they are closed.
func (v *View) Close() error {
	if c, ok := v.tree.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
