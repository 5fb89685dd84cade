package gitfs

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// tree is a read-only file system held in memory. testing/fstest.MapFS would do the same job, but it is a test
// helper: it derives every directory listing by scanning all paths on each call, and its files are exported,
// mutable values. A tree lists each directory once, when it is built, and hands out only copies.
type tree struct {
	files map[string]*fileInfo
	data  map[string][]byte
	// broken holds why each symbolic link that is not followed cannot be opened; its entry is in files.
	broken map[string]error
	dirs   map[string][]fs.DirEntry // by directory path, "." the root; sorted by name
}

func newTree() *tree {
	t := &tree{files: map[string]*fileInfo{}, data: map[string][]byte{}, broken: map[string]error{},
		dirs: map[string][]fs.DirEntry{}}
	t.dirs["."] = nil
	return t
}

// add records the file p and every directory above it.
func (t *tree) add(p string, data []byte, mode fs.FileMode) {
	t.addEntry(p, &fileInfo{name: path.Base(p), size: int64(len(data)), mode: mode})
	t.data[p] = data
}

// addBroken records a symbolic link that is not followed, and the error (an *fs.PathError around a
// *linkfs.FollowError) that says why: it is listed, and opening it fails with that error.
func (t *tree) addBroken(p string, err error) {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	t.addEntry(p, &fileInfo{name: path.Base(p), mode: fs.ModeSymlink | 0o777})
	t.broken[p] = err
}

func (t *tree) addEntry(p string, fi *fileInfo) {
	t.files[p] = fi
	var child fs.DirEntry = fi
	for dir := path.Dir(p); ; dir = path.Dir(dir) {
		_, seen := t.dirs[dir]
		t.dirs[dir] = append(t.dirs[dir], child)
		if seen || dir == "." {
			return
		}
		child = &fileInfo{name: path.Base(dir), mode: fs.ModeDir | 0o555}
	}
}

func (t *tree) sortDirs() {
	for _, entries := range t.dirs {
		slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	}
}

func (t *tree) stat(op, name string) (*fileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	for p := name; len(t.broken) > 0 && p != "."; p = path.Dir(p) {
		// As on disk, a path through a link that is not followed fails as the link does.
		if err, ok := t.broken[p]; ok {
			return nil, &fs.PathError{Op: op, Path: name, Err: err}
		}
	}
	if fi, ok := t.files[name]; ok {
		return fi, nil
	}
	if _, ok := t.dirs[name]; ok {
		return &fileInfo{name: path.Base(name), mode: fs.ModeDir | 0o555}, nil
	}
	return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
}

// Open implements fs.FS.
func (t *tree) Open(name string) (fs.File, error) {
	fi, err := t.stat("open", name)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return &openDir{fi: fi, path: name, entries: t.dirs[name]}, nil
	}
	return &openFile{fi: fi, r: bytes.NewReader(t.data[name])}, nil
}

// ReadFile implements fs.ReadFileFS; the caller owns the returned bytes.
func (t *tree) ReadFile(name string) ([]byte, error) {
	fi, err := t.stat("read", name)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errIsDir}
	}
	return bytes.Clone(t.data[name]), nil
}

// ReadDir implements fs.ReadDirFS.
func (t *tree) ReadDir(name string) ([]fs.DirEntry, error) {
	fi, err := t.stat("readdir", name)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errNotDir}
	}
	return slices.Clone(t.dirs[name]), nil
}

// Stat implements fs.StatFS.
func (t *tree) Stat(name string) (fs.FileInfo, error) {
	fi, err := t.stat("stat", name)
	if err != nil {
		return nil, err
	}
	return fi, nil
}

var (
	errIsDir  = errors.New("is a directory")
	errNotDir = errors.New("not a directory")
)

// fileInfo describes a file or directory of a tree; it is also its directory entry. Modification times are zero:
// the compiler's output depends on the bytes alone.
type fileInfo struct {
	name string
	size int64
	mode fs.FileMode
}

func (fi *fileInfo) Name() string               { return fi.name }
func (fi *fileInfo) Size() int64                { return fi.size }
func (fi *fileInfo) Mode() fs.FileMode          { return fi.mode }
func (fi *fileInfo) ModTime() time.Time         { return time.Time{} }
func (fi *fileInfo) IsDir() bool                { return fi.mode.IsDir() }
func (fi *fileInfo) Sys() any                   { return nil }
func (fi *fileInfo) Type() fs.FileMode          { return fi.mode.Type() }
func (fi *fileInfo) Info() (fs.FileInfo, error) { return fi, nil }
func (fi *fileInfo) String() string             { return fs.FormatFileInfo(fi) }

// openFile is an open regular file of a tree.
type openFile struct {
	fi *fileInfo
	r  *bytes.Reader
}

func (f *openFile) Stat() (fs.FileInfo, error) { return f.fi, nil }
func (f *openFile) Read(b []byte) (int, error) { return f.r.Read(b) }
func (f *openFile) ReadAt(b []byte, off int64) (int, error) {
	return f.r.ReadAt(b, off)
}
func (f *openFile) Seek(offset int64, whence int) (int64, error) { return f.r.Seek(offset, whence) }
func (f *openFile) Close() error                                 { return nil }

// openDir is an open directory of a tree; ReadDir pages through its entries.
type openDir struct {
	fi      *fileInfo
	path    string
	entries []fs.DirEntry
	off     int
}

func (d *openDir) Stat() (fs.FileInfo, error) { return d.fi, nil }
func (d *openDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.path, Err: errIsDir}
}
func (d *openDir) Close() error { return nil }

// ReadDir implements fs.ReadDirFile: with n > 0 at most n entries and io.EOF once none are left, otherwise all the
// remaining ones and a nil error.
func (d *openDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.off:]
	if n > 0 {
		if len(rest) == 0 {
			return nil, io.EOF
		}
		rest = rest[:min(n, len(rest))]
	}
	d.off += len(rest)
	return slices.Clone(rest), nil
}
