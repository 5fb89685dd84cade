package linkfs

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// memTree is a Tree in memory, as a git commit is one: it can hold what a disk cannot make (an empty link
// target), and fail where a disk fails rarely (an I/O error, a file that grows while it is read).
type memTree struct {
	bound   string
	files   map[string]string // regular files
	links   map[string]string // symbolic links and their targets
	dirs    map[string]bool   // directories besides "." and the parents of the above
	failAt  map[string]error  // Lstat, ReadDir and Open of these paths fail so
	readErr map[string]error  // reading these files fails so, after their bytes
	lie     map[string]bool   // these files say they are empty, whatever they hold
}

type memInfo struct {
	name string
	mode fs.FileMode
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return i.mode }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return i.mode.IsDir() }
func (i memInfo) Sys() any           { return nil }

func (m *memTree) Bound() (string, string) { return m.bound, Repository }

func (m *memTree) isDir(p string) bool {
	if p == "." || m.dirs[p] {
		return true
	}
	for _, set := range []map[string]string{m.files, m.links} {
		for q := range set {
			if strings.HasPrefix(q, p+"/") {
				return true
			}
		}
	}
	return false
}

func (m *memTree) Lstat(p string) (fs.FileInfo, string, error) {
	if err := m.failAt[p]; err != nil {
		return nil, "", &fs.PathError{Op: "lstat", Path: p, Err: err}
	}
	if data, ok := m.files[p]; ok {
		size := int64(len(data))
		if m.lie[p] {
			size = 0
		}
		return memInfo{path.Base(p), 0o644, size}, "", nil
	}
	if target, ok := m.links[p]; ok {
		return memInfo{path.Base(p), fs.ModeSymlink | 0o777, int64(len(target))}, target, nil
	}
	if m.isDir(p) {
		return memInfo{path.Base(p), fs.ModeDir | 0o755, 0}, "", nil
	}
	return nil, "", &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrNotExist}
}

func (m *memTree) ReadDir(p string) ([]fs.DirEntry, error) {
	if err := m.failAt[p]; err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: p, Err: err}
	}
	names := map[string]bool{}
	for _, set := range []map[string]string{m.files, m.links} {
		for q := range set {
			if rest, ok := strings.CutPrefix(q, p+"/"); ok || p == "." {
				if p == "." {
					rest = q
				}
				names[strings.SplitN(rest, "/", 2)[0]] = true
			}
		}
	}
	var out []fs.DirEntry
	for n := range names {
		fi, _, err := m.Lstat(path.Join(p, n))
		if err != nil {
			fi = memInfo{n, 0o644, 0} // listed, though it cannot be described
		}
		out = append(out, fs.FileInfoToDirEntry(fi))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

func (m *memTree) Open(p string) (fs.File, error) {
	if err := m.failAt[p]; err != nil {
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	data, ok := m.files[p]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
	var r io.Reader = strings.NewReader(data)
	if err := m.readErr[p]; err != nil {
		r = io.MultiReader(r, errReader{err})
	}
	fi, _, _ := m.Lstat(p)
	return &memFile{r, fi}, nil
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

type memFile struct {
	io.Reader
	fi fs.FileInfo
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.fi, nil }
func (f *memFile) Close() error               { return nil }

var errIO = errors.New("input/output error")

// TestReasonString: each reason has its name, and a value outside the set says what it is.
func TestReasonString(t *testing.T) {
	for r, want := range map[Reason]string{Outside: "outside", Dangling: "dangling", Loop: "loop", 7: "Reason(7)"} {
		if got := r.String(); got != want {
			t.Errorf("Reason(%d).String() = %q, want %q", uint8(r), got, want)
		}
	}
}

// TestViewTreeLinks: the rule on a tree a commit can hold but a Linux disk cannot (empty targets), and links that
// break it part-way through a chain, named by the link where the chain broke, relative to the boundary.
func TestViewTreeLinks(t *testing.T) {
	m := &memTree{bound: "repo", files: map[string]string{"repo/p/promptc.toml": "p\n", "repo/s/real.md": "r\n"}, links: map[string]string{
		"repo/p/empty.md":   "",
		"repo/p/to-empty":   "../s/empty",
		"repo/s/empty":      "",
		"repo/p/to-abs":     "../s/abs",
		"repo/s/abs":        "/etc/passwd",
		"repo/p/slashes.md": "//",
		"repo/p/ok.md":      "../s/real.md",
		"repo/p/sdir":       "../s",
	}}
	v := NewView(m, "repo/p")
	for _, tc := range []struct {
		name, err string
		reason    Reason
	}{
		{"empty.md", `symbolic link to "" dangles: nothing is there in the repository`, Dangling},
		{"slashes.md", `symbolic link to "//" leaves the repository: promptc follows only relative links that stay inside it`, Outside},
		{"to-empty", `symbolic link to "../s/empty" leads through "s/empty", a symbolic link to "", which dangles: nothing is there in the repository`, Dangling},
		{"to-abs", `symbolic link to "../s/abs" leads through "s/abs", a symbolic link to "/etc/passwd", which leaves the repository: promptc follows only relative links that stay inside it`, Outside},
	} {
		_, err := v.ReadFile(tc.name)
		var le *FollowError
		if !errors.As(err, &le) || le.Reason != tc.reason || le.Error() != tc.err {
			t.Errorf("ReadFile(%s) = %v\nwant the %v LinkError: %s", tc.name, err, tc.reason, tc.err)
		}
	}
	if data, err := v.ReadFile("ok.md"); err != nil || string(data) != "r\n" {
		t.Errorf("ReadFile(ok.md) = %q, %v", data, err)
	}
	// Resolve names the tree path a name leads to.
	for name, want := range map[string]string{".": "repo/p", "ok.md": "repo/s/real.md", "sdir": "repo/s", "sdir/real.md": "repo/s/real.md"} {
		p, fi, err := v.Resolve(name)
		if err != nil || p != want || fi.Name() != path.Base(name) && name != "." {
			t.Errorf("Resolve(%s) = %q, %v, %v; want %s", name, p, fi, err, want)
		}
	}
	// A bound of "." is the whole tree: chains are named from its top.
	_, err := NewView(&memTree{bound: ".", links: map[string]string{"a": "b", "b": ""}}, ".").ReadFile("a")
	if want := `symbolic link to "b" leads through "b", a symbolic link to "", which dangles: nothing is there in the repository`; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("chain from the top of a tree bound at \".\": %v, want %s", err, want)
	}
}

// TestViewErrors: each way a read fails is an *fs.PathError naming the path asked for, with the tree's error
// inside, and nothing read is returned.
func TestViewErrors(t *testing.T) {
	m := &memTree{bound: ".",
		files:   map[string]string{"p/a.md": "a\n", "p/bad.md": "half", "p/d/x.md": "x\n", "p/locked/y.md": "y\n", "p/unreadable.md": "u"},
		links:   map[string]string{"p/to-sick": "sick/f", "p/sick/f": "../a.md"},
		failAt:  map[string]error{"p/sick": errIO, "p/locked": fs.ErrPermission, "p/unreadable.md": fs.ErrPermission},
		readErr: map[string]error{"p/bad.md": errIO},
	}
	v := NewView(m, "p")
	for _, tc := range []struct {
		op, name string
		do       func() error
		want     error
	}{
		{"readfile", "bad.md", func() error { _, err := v.ReadFile("bad.md"); return err }, errIO},
		{"readfile", "d", func() error { _, err := v.ReadFile("d"); return err }, errIsDir},
		{"open", "unreadable.md", func() error { _, err := v.Open("unreadable.md"); return err }, fs.ErrPermission},
		{"readfile", "to-sick", func() error { _, err := v.ReadFile("to-sick"); return err }, errIO},
		{"stat", "a.md/x", func() error { _, err := v.Stat("a.md/x"); return err }, errNotDir},
		{"readdir", "a.md", func() error { _, err := v.ReadDir("a.md"); return err }, errNotDir},
		{"readdir", "missing", func() error { _, err := v.ReadDir("missing"); return err }, fs.ErrNotExist},
		{"readdir", "locked", func() error { _, err := v.ReadDir("locked"); return err }, fs.ErrPermission},
		{"readdir", ".", func() error { _, err := v.ReadDir("."); return err }, errIO}, // listing "to-sick" fails
		{"open", "../p", func() error { _, err := v.Open("../p"); return err }, fs.ErrInvalid},
		{"stat", ".git", func() error { _, err := v.Stat(".git"); return err }, fs.ErrNotExist},
	} {
		err := tc.do()
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != tc.name || !errors.Is(err, tc.want) {
			t.Errorf("%s %s: %v, want an *fs.PathError naming %s around %v", tc.op, tc.name, err, tc.name, tc.want)
		}
	}
	// A View whose root is gone fails for every name, naming it.
	if _, err := NewView(m, "nowhere").Stat("a.md"); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "a.md") {
		t.Errorf("Stat in a View of a missing root: %v", err)
	}
	// An open directory is not read as a file, and its listing fails as ReadDir's does.
	d, err := v.Open(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Read(make([]byte, 1)); !errors.Is(err, errIsDir) {
		t.Errorf("Read of an open directory: %v, want %v", err, errIsDir)
	}
	if _, err := d.(fs.ReadDirFile).ReadDir(-1); !errors.Is(err, errIO) {
		t.Errorf("ReadDir of the open directory: %v, want %v", err, errIO)
	}
	d.Close()
}

// TestViewReadFileGrows: a file that holds more than it said when it was described (it grew in between) is read
// whole.
func TestViewReadFileGrows(t *testing.T) {
	big := strings.Repeat("0123456789", 1000)
	m := &memTree{bound: ".", files: map[string]string{"big.md": big}, lie: map[string]bool{"big.md": true}}
	data, err := NewView(m, ".").ReadFile("big.md")
	if err != nil || !bytes.Equal(data, []byte(big)) {
		t.Errorf("ReadFile of a file that grew: %d bytes, %v; want %d", len(data), err, len(big))
	}
}

// TestViewFS: the tree in memory, links and all, passes the checks of testing/fstest, so that fs.WalkDir, fs.Glob
// and the loader see one consistent file system.
func TestViewFS(t *testing.T) {
	m := &memTree{bound: ".", files: map[string]string{"p/promptc.toml": "p\n", "p/blocks/a.toml": "a\n", "shared/s.md": "s\n"},
		links: map[string]string{"p/templates": "../shared"}}
	if err := fstest.TestFS(NewView(m, "p"), "promptc.toml", "blocks/a.toml", "templates/s.md"); err != nil {
		t.Fatal(err)
	}
}
