// Package gitfs reads a project as committed at a git revision, for promptc diff, without touching the working tree
// or the index: it asks git for the commit's tree and blobs and holds them in an in-memory file system.
package gitfs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

var (
	// ErrUnknownRevision is wrapped by the error Open returns when rev names no commit.
	ErrUnknownRevision = errors.New("unknown revision")
	// ErrNoProject is wrapped by the error Open returns when the commit has no promptc.toml in the project directory.
	ErrNoProject = errors.New("no promptc project")
)

// manifest is the file whose presence makes a directory a project.
const manifest = "promptc.toml"

// Open returns the project in dir as committed at rev ("" means HEAD): the files of the commit's tree under dir,
// with paths relative to dir and their committed bytes (no end-of-line conversion, no filters; symbolic links and
// submodules left out). dir is a project root inside a git work tree, possibly below the repository's top.
//
// Open runs git (rev-parse, ls-tree and one cat-file --batch) with the inherited environment, and only reads: the
// working tree, the index and the refs are left as they are. The error wraps ErrUnknownRevision when rev names no
// commit and ErrNoProject when the commit has no promptc.toml in dir.
func Open(dir, rev string) (fs.FS, error) {
	if rev == "" {
		rev = "HEAD"
	}
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("%s is not in a git work tree: %w", dir, err)
	}
	prefix, err := git(dir, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, fmt.Errorf("%s is not in a git work tree: %w", dir, err)
	}
	commit, err := resolve(dir, rev)
	if err != nil {
		return nil, err
	}

	args := []string{"ls-tree", "-r", "-z", "--full-tree", commit}
	if prefix != "" {
		// ls-tree matches paths by prefix, never as globs, so a directory named "a[1]" means itself.
		args = append(args, "--", prefix)
	}
	listing, err := git(dir, args...)
	if err != nil {
		return nil, err
	}
	type blob struct {
		path, oid string
		exec      bool
	}
	var blobs []blob
	for _, rec := range strings.Split(strings.TrimSuffix(listing, "\x00"), "\x00") {
		if rec == "" {
			continue
		}
		// <mode> SP <type> SP <object> TAB <path>
		meta, p, ok := strings.Cut(rec, "\t")
		fields := strings.Fields(meta)
		if !ok || len(fields) != 3 {
			return nil, fmt.Errorf("git ls-tree: unexpected record %q", rec)
		}
		mode, typ, oid := fields[0], fields[1], fields[2]
		if typ != "blob" || mode == "120000" {
			continue // a submodule (type commit, mode 160000) or a symbolic link: not project files
		}
		rel, ok := strings.CutPrefix(p, prefix)
		if !ok || !fs.ValidPath(rel) {
			continue
		}
		blobs = append(blobs, blob{path: rel, oid: oid, exec: mode == "100755"})
	}
	if !slices.ContainsFunc(blobs, func(b blob) bool { return b.path == manifest }) {
		where := "the top of the repository " + top
		if prefix != "" {
			where = prefix + " in the repository " + top
		}
		return nil, fmt.Errorf("%w at revision %q (commit %.12s): no %s at %s in that commit",
			ErrNoProject, rev, commit, manifest, where)
	}

	oids := make([]string, 0, len(blobs))
	for _, b := range blobs {
		oids = append(oids, b.oid)
	}
	slices.Sort(oids)
	oids = slices.Compact(oids) // one copy of a blob committed at several paths
	contents, err := catBlobs(dir, oids)
	if err != nil {
		return nil, err
	}
	t := newTree()
	for _, b := range blobs {
		mode := fs.FileMode(0o444)
		if b.exec {
			mode = 0o555
		}
		t.add(b.path, contents[b.oid], mode)
	}
	t.sortDirs()
	return t, nil
}

// resolve returns the commit rev names.
func resolve(dir, rev string) (string, error) {
	hint := `(see "git log" for commits and "git branch -a" for branches; e.g. HEAD~1, a commit hash, v1.2.0 or origin/main)`
	if strings.HasPrefix(rev, "-") {
		// git would read it as an option.
		return "", fmt.Errorf("%w %q: a revision cannot start with \"-\" %s", ErrUnknownRevision, rev, hint)
	}
	// --quiet turns "no such commit" into exit status 1 and no output; other failures still say why on stderr.
	commit, err := git(dir, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	var ee *exec.ExitError
	if (errors.As(err, &ee) && ee.ExitCode() == 1) || (err == nil && commit == "") {
		return "", fmt.Errorf("%w %q: no commit of that name in this repository %s", ErrUnknownRevision, rev, hint)
	}
	return commit, err
}

// git runs git in dir and returns its standard output less one final newline. The error of a failed run holds
// git's standard error.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", gitError(args[0], err, stderr.Bytes())
	}
	return strings.TrimSuffix(stdout.String(), "\n"), nil
}

// gitError describes a failed git command by what git said, keeping the *exec.ExitError for errors.As.
func gitError(sub string, err error, stderr []byte) error {
	if errors.Is(err, exec.ErrNotFound) {
		return fmt.Errorf("git is needed to read a committed revision: %w", err)
	}
	if msg := strings.TrimSpace(string(stderr)); msg != "" {
		return fmt.Errorf("git %s: %s (%w)", sub, msg, err)
	}
	return fmt.Errorf("git %s: %w", sub, err)
}

// catBlobs reads the blobs named by oids through a single git cat-file --batch, however many there are.
func catBlobs(dir string, oids []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(oids))
	if len(oids) == 0 {
		return out, nil
	}
	cmd := exec.Command("git", "-C", dir, "cat-file", "--batch")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, gitError("cat-file", err, nil)
	}
	// Requests are written while answers are read: git answers as it reads, and with both pipes full it would stall.
	go func() {
		w := bufio.NewWriter(stdin)
		for _, oid := range oids {
			w.WriteString(oid)
			w.WriteByte('\n')
		}
		w.Flush() // a failure means git has gone; reading its answers says why
		stdin.Close()
	}()
	r := bufio.NewReaderSize(stdout, 64<<10)
	read := func(oid string) ([]byte, error) {
		// <object> SP <type> SP <size> LF <contents> LF, or <object> SP missing LF.
		header, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		fields := strings.Fields(header)
		if len(fields) != 3 || fields[0] != oid || fields[1] != "blob" {
			return nil, fmt.Errorf("asked for blob %s, got %q", oid, strings.TrimSpace(header))
		}
		size, err := strconv.ParseInt(fields[2], 10, 0)
		if err != nil || size < 0 {
			return nil, fmt.Errorf("blob %s: bad size in %q", oid, strings.TrimSpace(header))
		}
		data := make([]byte, size+1)
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, err
		}
		if data[size] != '\n' {
			return nil, fmt.Errorf("blob %s: not followed by a newline", oid)
		}
		return data[:size:size], nil
	}
	for _, oid := range oids {
		data, err := read(oid)
		if err != nil {
			cmd.Process.Kill()
			werr := cmd.Wait()
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, gitError("cat-file", werr, stderr.Bytes())
			}
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		out[oid] = data
	}
	if err := cmd.Wait(); err != nil {
		return nil, gitError("cat-file", err, stderr.Bytes())
	}
	return out, nil
}

// tree is a read-only file system held in memory. testing/fstest.MapFS would do the same job, but it is a test
// helper: it derives every directory listing by scanning all paths on each call, and its files are exported,
// mutable values. A tree lists each directory once, when it is built, and hands out only copies.
type tree struct {
	files map[string]*fileInfo
	data  map[string][]byte
	dirs  map[string][]fs.DirEntry // by directory path, "." the root; sorted by name
}

func newTree() *tree {
	t := &tree{files: map[string]*fileInfo{}, data: map[string][]byte{}, dirs: map[string][]fs.DirEntry{}}
	t.dirs["."] = nil
	return t
}

// add records the file p and every directory above it.
func (t *tree) add(p string, data []byte, mode fs.FileMode) {
	fi := &fileInfo{name: path.Base(p), size: int64(len(data)), mode: mode}
	t.files[p], t.data[p] = fi, data
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
