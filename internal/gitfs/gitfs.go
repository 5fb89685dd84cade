// Package gitfs reads a project as committed at a git revision, for promptc diff, without touching the working tree
// or the index: it asks git for the commit's tree and for the blobs the compiler reads, and holds them in an
// in-memory file system. It also finds the top of a work tree, for every part of promptc that needs it.
package gitfs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/promptc/promptc/internal/linkfs"
)

var (
	// ErrUnknownRevision is wrapped by the error Open returns when rev names no commit.
	ErrUnknownRevision = errors.New("unknown revision")
	// ErrNoProject is wrapped by the error Open returns when the commit has no promptc.toml in the project directory.
	ErrNoProject = errors.New("no promptc project")
)

// manifest is the file whose presence makes a directory a project.
const manifest = "promptc.toml"

// projectPaths are the paths of a project the compiler reads (blocks/*.toml, templates/, fixtures/*.toml and the
// manifest): Open reads no other blob of the project, however large, but the targets of the symbolic links these
// lead through.
var projectPaths = []string{manifest, "blocks", "templates", "fixtures"}

// TopLevel returns the top directory of the git work tree holding dir (for a linked worktree, that worktree's own
// top) as an absolute path with symbolic links resolved. It asks git (rev-parse --show-toplevel), so that it agrees
// with every git command run in dir: GIT_DIR, GIT_WORK_TREE and GIT_CEILING_DIRECTORIES count, and a directory named
// .git that is not a repository does not. The error says, in git's words, why dir is in no work tree, and wraps
// exec.ErrNotFound when git is not installed.
func TopLevel(dir string) (string, error) {
	out, err := git(dir, "rev-parse", "--show-toplevel")
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		msg := strings.TrimPrefix(strings.TrimSpace(string(ee.Stderr)), "fatal: ")
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("%s is not inside a git work tree (%s)", dir, msg)
	}
	if err != nil {
		return "", err
	}
	if out == "" {
		// Older git answers so inside a .git directory.
		return "", fmt.Errorf("%s is not inside a git work tree (it is inside a git directory)", dir)
	}
	top, err := filepath.Abs(filepath.FromSlash(out))
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(top)
}

// Open returns the project in dir as committed at rev ("" means HEAD): its manifest and the files under blocks/,
// templates/ and fixtures/ in the commit's tree, with paths relative to dir and their committed bytes (no
// end-of-line conversion, no filters). Nothing else of the commit is read, so a large unrelated file costs nothing.
// dir is a project root inside a git work tree, possibly below the repository's top.
//
// Symbolic links are followed by the rule linkfs.View states for a directory on disk, with the commit's whole tree
// as the boundary: a link that leads to a file or directory in the commit by relative steps is followed, and a link
// that leaves the tree, is absolute, dangles or loops stays a symbolic link that cannot be opened (its
// *fs.PathError wraps a *linkfs.LinkError), so the compiler reports it as it would report it in the working tree.
// Submodules are left out.
//
// Open runs git (rev-parse, ls-tree and cat-file --batch) with the inherited environment, and only reads: the
// working tree, the index and the refs are left as they are. The error wraps ErrUnknownRevision when rev names no
// commit and ErrNoProject when the commit has no promptc.toml in dir.
func Open(dir, rev string) (fs.FS, error) {
	if rev == "" {
		rev = "HEAD"
	}
	top, err := TopLevel(dir)
	if err != nil {
		return nil, err
	}
	prefix, err := git(dir, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, err
	}
	commit, err := resolve(dir, rev)
	if err != nil {
		return nil, err
	}
	ct := &commitTree{dir: dir, commit: commit, data: map[string][]byte{}}
	root := strings.TrimSuffix(prefix, "/")
	if root == "" {
		root = "."
	}
	var listed []string
	for _, p := range projectPaths {
		listed = append(listed, path.Join(root, p))
	}
	if err := ct.list(listed); err != nil {
		return nil, err
	}
	if _, ok := ct.entries[path.Join(root, manifest)]; !ok {
		where := "the top of the repository " + top
		if prefix != "" {
			where = prefix + " in the repository " + top
		}
		return nil, fmt.Errorf("%w at revision %q (commit %.12s): no %s at %s in that commit",
			ErrNoProject, rev, commit, manifest, where)
	}
	if ct.blobs, err = newBlobReader(dir); err != nil {
		return nil, err
	}
	defer ct.blobs.close() // every blob needed has been read by then: a late failure changes nothing
	return ct.project(linkfs.NewView(ct, root))
}

// project copies the project's files out of view into an in-memory tree, reading each blob once.
func (ct *commitTree) project(view *linkfs.View) (*tree, error) {
	t := newTree()
	for _, p := range projectPaths {
		err := fs.WalkDir(view, p, func(name string, d fs.DirEntry, err error) error {
			var le *linkfs.LinkError
			switch {
			case name == p && errors.Is(err, fs.ErrNotExist):
				return fs.SkipAll
			case errors.As(err, &le):
				t.addBroken(name, err)
				return nil
			case err != nil:
				return err
			case d.IsDir():
				return nil
			case d.Type()&fs.ModeSymlink != 0:
				// A link the view does not follow: keep why. Resolving it again fails as listing it did.
				_, _, err := view.Resolve(name)
				if !errors.As(err, &le) {
					return fmt.Errorf("%s: a symbolic link neither followed nor refused (%v)", name, err)
				}
				t.addBroken(name, err)
				return nil
			}
			real, fi, err := view.Resolve(name)
			if err != nil {
				return err
			}
			data, err := ct.read(real)
			if err != nil {
				return err
			}
			t.add(name, data, fi.Mode().Perm())
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	t.sortDirs()
	return t, nil
}

// resolve returns the commit rev names. rev is resolved first and its object peeled to a commit after, so that
// rev may be any revision git knows, ":/message" included, whose syntax a "^{commit}" suffix would change.
func resolve(dir, rev string) (string, error) {
	hint := `(see "git log" for commits and "git branch -a" for branches; e.g. HEAD~1, a commit hash, v1.2.0 or origin/main)`
	if strings.HasPrefix(rev, "-") {
		// git would read it as an option.
		return "", fmt.Errorf("%w %q: a revision cannot start with \"-\" %s", ErrUnknownRevision, rev, hint)
	}
	unknown := func(out string, err error) bool {
		// --quiet turns "no such object" into exit status 1 and no output; other failures still say why on stderr.
		var ee *exec.ExitError
		return (errors.As(err, &ee) && ee.ExitCode() == 1) || (err == nil && out == "")
	}
	obj, err := git(dir, "rev-parse", "--verify", "--quiet", "--end-of-options", rev)
	if unknown(obj, err) {
		return "", fmt.Errorf("%w %q: %s", ErrUnknownRevision, rev, whyUnknown(dir, rev, hint))
	}
	if err != nil {
		return "", err
	}
	commit, err := git(dir, "rev-parse", "--verify", "--quiet", "--end-of-options", obj+"^{commit}")
	if unknown(commit, err) {
		return "", fmt.Errorf("%w %q: it names a %s, not a commit %s", ErrUnknownRevision, rev, objectType(dir, obj), hint)
	}
	return commit, err
}

// ancestry matches a revision that walks back from HEAD: HEAD~3, HEAD^, HEAD^^, @~2.
var ancestry = regexp.MustCompile(`^(HEAD|@)([~^][0-9]*)+$`)

// whyUnknown says why rev names no commit, for a repository where it does not: no commit at all yet, a walk back
// from HEAD past the first commit (with how many commits there are, rather than suggesting HEAD~1 to a repository
// that has one), or else no such name, with the hint.
func whyUnknown(dir, rev, hint string) string {
	if _, err := git(dir, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err != nil {
		return "the repository has no commit yet: commit the project first, then diff compares the working tree with it"
	}
	if ancestry.MatchString(rev) {
		if n, err := git(dir, "rev-list", "--count", "HEAD"); err == nil {
			commits := "commits"
			if n == "1" {
				commits = "commit"
			}
			return fmt.Sprintf("it goes back further than the history of HEAD, which has %s %s (see \"git log\")", n, commits)
		}
	}
	return "no commit of that name in this repository " + hint
}

// objectType names the type of the object oid, for a message.
func objectType(dir, oid string) string {
	if typ, err := git(dir, "cat-file", "-t", oid); err == nil && typ != "" {
		return typ
	}
	return "object"
}

// git runs git in dir and returns its standard output less one final newline. The error of a failed run holds
// git's standard error, and is an *exec.ExitError whose Stderr holds it too.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			ee.Stderr = stderr.Bytes()
		}
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

// commitTree is a commit's tree as a linkfs.Tree, bounded by the commit's top. It lists the project's paths
// first, and the whole tree only when a symbolic link needs it, and it reads a blob only when asked for it.
type commitTree struct {
	dir, commit string
	// listed are the paths whose entries, at any depth, are in entries; nil once the whole tree is.
	listed []string
	// entries are the blobs and links of the listing by path; children the names in each directory, sorted.
	entries  map[string]treeEntry
	children map[string][]string
	blobs    blobReader
	data     map[string][]byte // by object id
}

type treeEntry struct {
	mode fs.FileMode // 0o444, 0o555 or fs.ModeSymlink | 0o777
	oid  string
}

// list reads the commit's entries at the given paths and below, or the whole tree when paths is nil.
func (ct *commitTree) list(paths []string) error {
	args := []string{"ls-tree", "-r", "-z", "--full-tree", ct.commit}
	if paths != nil {
		// ls-tree matches paths element by element, never as globs, so a directory named "a[1]" means itself.
		args = append(append(args, "--"), paths...)
	}
	listing, err := git(ct.dir, args...)
	if err != nil {
		return err
	}
	ct.listed, ct.entries, ct.children = paths, map[string]treeEntry{}, map[string][]string{}
	for _, rec := range strings.Split(strings.TrimSuffix(listing, "\x00"), "\x00") {
		if rec == "" {
			continue
		}
		// <mode> SP <type> SP <object> TAB <path>
		meta, p, ok := strings.Cut(rec, "\t")
		fields := strings.Fields(meta)
		if !ok || len(fields) != 3 {
			return fmt.Errorf("git ls-tree: unexpected record %q", rec)
		}
		var mode fs.FileMode
		switch fields[0] {
		case "100644":
			mode = 0o444
		case "100755":
			mode = 0o555
		case "120000":
			mode = fs.ModeSymlink | 0o777
		default:
			continue // a submodule (mode 160000): its files are in another repository
		}
		if !fs.ValidPath(p) {
			continue
		}
		ct.entries[p] = treeEntry{mode: mode, oid: fields[2]}
		for child, dir := p, path.Dir(p); ; child, dir = dir, path.Dir(dir) {
			_, seen := ct.children[dir]
			ct.children[dir] = append(ct.children[dir], path.Base(child))
			if seen || dir == "." {
				break
			}
		}
	}
	for _, names := range ct.children {
		slices.Sort(names)
	}
	return nil
}

// covered reports whether the listing holds what is at p: p is at or below a listed path, or a directory above
// one that the listing shows to exist.
func (ct *commitTree) covered(p string) bool {
	if ct.listed == nil {
		return true
	}
	for _, l := range ct.listed {
		if p == l || strings.HasPrefix(p, l+"/") {
			return true
		}
	}
	return false
}

// entry looks p up, listing the whole tree first when the project's listing does not cover it.
func (ct *commitTree) lookup(p string, dirOK bool) (treeEntry, bool, error) {
	if !ct.covered(p) {
		// A directory above a listed path is known to exist when the listing has something under it; reading its
		// entries, or anything else outside the project, needs the whole tree.
		if _, ok := ct.children[p]; !(ok && dirOK) {
			if err := ct.list(nil); err != nil {
				return treeEntry{}, false, err
			}
		}
	}
	e, ok := ct.entries[p]
	if ok {
		return e, false, nil
	}
	_, isDir := ct.children[p]
	return treeEntry{}, isDir || p == ".", nil
}

func (ct *commitTree) Bound() (string, string) { return ".", linkfs.Repository }

func (ct *commitTree) Lstat(p string) (fs.FileInfo, string, error) {
	e, isDir, err := ct.lookup(p, true)
	switch {
	case err != nil:
		return nil, "", err
	case isDir:
		return &fileInfo{name: path.Base(p), mode: fs.ModeDir | 0o555}, "", nil
	case e.oid == "":
		return nil, "", &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrNotExist}
	}
	fi := &fileInfo{name: path.Base(p), mode: e.mode}
	if e.mode&fs.ModeSymlink == 0 {
		return fi, "", nil
	}
	target, err := ct.blob(e.oid)
	if err != nil {
		return nil, "", err
	}
	fi.size = int64(len(target))
	return fi, string(target), nil
}

func (ct *commitTree) ReadDir(p string) ([]fs.DirEntry, error) {
	if _, _, err := ct.lookup(p, false); err != nil {
		return nil, err
	}
	names, ok := ct.children[p]
	if !ok && p != "." {
		return nil, &fs.PathError{Op: "readdir", Path: p, Err: fs.ErrNotExist}
	}
	out := make([]fs.DirEntry, 0, len(names))
	for _, name := range names {
		mode := fs.ModeDir | 0o555
		if e, ok := ct.entries[path.Join(p, name)]; ok {
			mode = e.mode
		}
		out = append(out, &fileInfo{name: name, mode: mode})
	}
	return out, nil
}

func (ct *commitTree) Open(p string) (fs.File, error) {
	data, err := ct.read(p)
	if err != nil {
		return nil, err
	}
	return &openFile{fi: &fileInfo{name: path.Base(p), size: int64(len(data)), mode: ct.entries[p].mode}, r: bytes.NewReader(data)}, nil
}

// read returns the bytes of the regular file at p.
func (ct *commitTree) read(p string) ([]byte, error) {
	e, isDir, err := ct.lookup(p, false)
	if err != nil {
		return nil, err
	}
	if isDir || e.oid == "" || e.mode&fs.ModeType != 0 {
		return nil, &fs.PathError{Op: "read", Path: p, Err: fs.ErrInvalid}
	}
	return ct.blob(e.oid)
}

// blob reads a blob once; a file committed at several paths, or reached through links, shares its bytes.
func (ct *commitTree) blob(oid string) ([]byte, error) {
	if data, ok := ct.data[oid]; ok {
		return data, nil
	}
	data, err := ct.blobs.blob(oid)
	if err != nil {
		return nil, err
	}
	ct.data[oid] = data
	return data, nil
}

// blobReader reads blobs by object id.
type blobReader interface {
	blob(oid string) ([]byte, error)
	close() error
}

// newBlobReader starts the blobReader Open uses: a git cat-file --batch in dir. Tests replace it to see which
// blobs Open reads.
var newBlobReader = func(dir string) (blobReader, error) { return startCatFile(dir) }

// catFile is a running git cat-file --batch, asked for one object at a time: Open asks for a link's target before
// it knows which blob it needs next.
type catFile struct {
	done   bool // the process has been waited for
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr bytes.Buffer
}

func startCatFile(dir string) (*catFile, error) {
	c := &catFile{cmd: exec.Command("git", "-C", dir, "cat-file", "--batch")}
	c.cmd.Stderr = &c.stderr
	stdin, err := c.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.cmd.Start(); err != nil {
		return nil, gitError("cat-file", err, nil)
	}
	c.stdin, c.stdout = stdin, bufio.NewReaderSize(stdout, 64<<10)
	return c, nil
}

// blob asks for one blob and reads the answer; git flushes each answer, unasked for --buffer.
func (c *catFile) blob(oid string) ([]byte, error) {
	data, err := c.ask(oid)
	if err == nil {
		return data, nil
	}
	c.stdin.Close()
	c.cmd.Process.Kill()
	werr := c.cmd.Wait()
	c.done = true
	// git gone: its output ended, or it exited before it was asked and the ask met a pipe with no reader.
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, fs.ErrClosed) ||
		errors.Is(err, syscall.EPIPE) {
		return nil, gitError("cat-file", werr, c.stderr.Bytes())
	}
	return nil, fmt.Errorf("git cat-file: %w", err)
}

func (c *catFile) ask(oid string) ([]byte, error) {
	if _, err := io.WriteString(c.stdin, oid+"\n"); err != nil {
		return nil, err
	}
	// <object> SP <type> SP <size> LF <contents> LF, or <object> SP missing LF.
	header, err := c.stdout.ReadString('\n')
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
	if _, err := io.ReadFull(c.stdout, data); err != nil {
		return nil, err
	}
	if data[size] != '\n' {
		return nil, fmt.Errorf("blob %s: not followed by a newline", oid)
	}
	return data[:size:size], nil
}

func (c *catFile) close() error {
	if c.done {
		return nil
	}
	c.done = true
	c.stdin.Close()
	if err := c.cmd.Wait(); err != nil {
		return gitError("cat-file", err, c.stderr.Bytes())
	}
	return nil
}

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
// *linkfs.LinkError) that says why: it is listed, and opening it fails with that error.
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

// WebURL returns the web address of the repository holding dir, from its remote "origin" (or, without one, its only
// remote): https://HOST/OWNER/REPO for a remote written as https://HOST/OWNER/REPO(.git), git@HOST:OWNER/REPO(.git)
// or ssh://[USER@]HOST[:PORT]/OWNER/REPO(.git). User names and passwords in the address (CI checkouts put tokens
// there) are dropped. ok is false when dir has no such remote, or its address is of another kind (a path, a
// file:// URL).
func WebURL(dir string) (base string, ok bool) {
	remote, err := git(dir, "remote", "get-url", "origin")
	if err != nil {
		names, err := git(dir, "remote")
		if err != nil || names == "" || strings.Contains(names, "\n") {
			return "", false
		}
		if remote, err = git(dir, "remote", "get-url", names); err != nil {
			return "", false
		}
	}
	return webURL(remote)
}

// webURL is WebURL's reading of one remote address.
func webURL(remote string) (string, bool) {
	var host, p string
	switch {
	case strings.HasPrefix(remote, "https://") || strings.HasPrefix(remote, "http://") || strings.HasPrefix(remote, "ssh://"):
		u, err := url.Parse(remote)
		if err != nil || u.Hostname() == "" {
			return "", false
		}
		host, p = u.Hostname(), u.Path
		if u.Scheme != "ssh" && u.Port() != "" {
			host = u.Host
		}
	case !strings.Contains(remote, "://"):
		// scp-like syntax, USER@HOST:PATH; a local path has no colon before its first slash.
		at, rest, found := strings.Cut(remote, ":")
		if !found || strings.Contains(at, "/") {
			return "", false
		}
		if _, h, found := strings.Cut(at, "@"); found {
			at = h
		}
		host, p = at, "/"+rest
	default:
		return "", false
	}
	p = strings.TrimSuffix(strings.TrimSuffix(p, "/"), ".git")
	if host == "" || strings.Count(p, "/") < 2 {
		return "", false
	}
	return "https://" + host + p, true
}

// Head returns the full hash of the commit checked out in dir.
func Head(dir string) (string, error) { return git(dir, "rev-parse", "--verify", "HEAD^{commit}") }

// Commit is one commit of a project's history: its hash, its first parent in the history as seen through the
// project's paths (git's parent rewriting: "" when there is none), its committer time and subject line.
type Commit struct {
	Hash, Parent string
	Time         time.Time
	Subject      string
}

// Commits lists the commits of rng (a git revision range, "" meaning HEAD) that touched the project in dir (its
// manifest, blocks/, templates/, fixtures/), newest first, and whether the repository is a shallow clone, in
// which case the oldest commit's parent may be cut off. Only git log and rev-parse run; nothing is written.
func Commits(dir, rng string) ([]Commit, bool, error) {
	if rng == "" {
		rng = "HEAD"
	}
	if strings.HasPrefix(rng, "-") {
		return nil, false, fmt.Errorf("%w: %q", ErrUnknownRevision, rng)
	}
	args := []string{"log", "--parents", "--format=%H%x00%P%x00%ct%x00%s", rng, "--"}
	args = append(args, projectPaths...)
	out, err := git(dir, args...)
	if err != nil {
		return nil, false, err
	}
	var commits []Commit
	for _, rec := range strings.Split(out, "\n") {
		f := strings.Split(rec, "\x00")
		if len(f) != 4 {
			continue
		}
		hashes := strings.Fields(f[0] + " " + f[1])
		sec, err := strconv.ParseInt(f[2], 10, 64)
		if len(hashes) == 0 || err != nil {
			return nil, false, fmt.Errorf("git log: unexpected line %q", rec)
		}
		c := Commit{Hash: hashes[0], Time: time.Unix(sec, 0).UTC(), Subject: f[3]}
		if len(hashes) > 1 {
			c.Parent = hashes[1]
		}
		commits = append(commits, c)
	}
	shallow, err := git(dir, "rev-parse", "--is-shallow-repository")
	return commits, shallow == "true", err
}
