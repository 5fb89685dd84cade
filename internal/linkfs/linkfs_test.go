package linkfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/internal/testenv"
)

// tempTree makes files and symbolic links under a new directory and returns the directory, symbolic links resolved.
func tempTree(t *testing.T, files, links map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for p, data := range files {
		name := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for p, target := range links {
		name := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.FromSlash(target), name); err != nil {
			testenv.Absent(t, "cannot make symbolic links here: %v", err)
		}
	}
	return dir
}

// fixed is a boundary function that counts its calls.
func fixed(dir string, calls *int) func() string {
	return func() string {
		*calls++
		return dir
	}
}

func TestDirFollows(t *testing.T) {
	top := tempTree(t, map[string]string{
		"p/promptc.toml":        "p\n",
		"p/templates/a.md":      "a\n",
		"shared/s.md":           "s\n",
		"shared/dir/d.md":       "d\n",
		"shared/dir/sub/e.md":   "e\n",
		"p/blocks/x.toml":       "x\n",
		"p/.git/HEAD":           "not a repository, and not read\n",
		"p/templates/.git/head": "nor this\n",
	}, map[string]string{
		"p/templates/alias.md": "a.md",
		"p/templates/s.md":     "../../shared/s.md",
		"p/templates/dir":      "../../shared/dir",
		"p/blocks/y.toml":      "../templates/alias.md",
	})
	var calls int
	fsys := Dir(filepath.Join(top, "p"), fixed(top, &calls))
	if err := fstest.TestFS(fsys, "promptc.toml", "templates/a.md", "templates/alias.md", "templates/s.md",
		"templates/dir/d.md", "templates/dir/sub/e.md", "blocks/x.toml", "blocks/y.toml"); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"templates/alias.md": "a\n", "templates/s.md": "s\n", "templates/dir/sub/e.md": "e\n", "blocks/y.toml": "a\n",
	} {
		if got, err := fs.ReadFile(fsys, name); err != nil || string(got) != want {
			t.Errorf("ReadFile(%s) = %q, %v; want %q", name, got, err, want)
		}
	}
	for _, name := range []string{".git/HEAD", ".git", "templates/.git/head"} {
		if _, err := fs.Stat(fsys, name); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Stat(%s) = %v, want fs.ErrNotExist: a .git is never found", name, err)
		}
	}
	if calls != 1 {
		t.Errorf("the boundary was asked for %d times, want once", calls)
	}
}

// TestDirBoundaryLazy: a project without links never asks for its boundary, which may cost a run of git.
func TestDirBoundaryLazy(t *testing.T) {
	dir := tempTree(t, map[string]string{"promptc.toml": "p\n", "blocks/a.toml": "a\n", "templates/t/u.md": "u\n"}, nil)
	var calls int
	fsys := Dir(dir, fixed(dir, &calls))
	if err := fstest.TestFS(fsys, "promptc.toml", "blocks/a.toml", "templates/t/u.md"); err != nil {
		t.Fatal(err)
	}
	if calls != 0 {
		t.Errorf("the boundary was asked for %d times, want never", calls)
	}
}

func TestDirRefuses(t *testing.T) {
	top := tempTree(t, map[string]string{
		"p/promptc.toml": "p\n",
		"shared/s.md":    "s\n",
		"a/file.md":      "f\n",
		"outside.md":     "o\n",
	}, map[string]string{
		"p/t/abs.md":      filepath.Join(os.TempDir(), "x.md"),
		"p/t/above.md":    "../../../outside.md",
		"p/t/gone.md":     "missing.md",
		"p/t/through.md":  "../../a/file.md/x",
		"p/t/self":        ".",
		"p/t/root":        "../..",
		"p/t/ping.md":     "pong.md",
		"p/t/pong.md":     "ping.md",
		"p/t/via.md":      "../../shared/up.md",
		"shared/up.md":    "../../outside.md",
		"p/t/git.md":      "../.git/config",
		"p/t/dirgit":      "../../.git",
		"p/t/outside-top": "../../../",
	})
	// An empty link is its own case: Linux refuses to make one (symlink(2) gives ENOENT), so no such link can be
	// met there, and making it in tempTree would stop the whole test on Linux; macOS and the BSDs make it.
	emptyLinks := os.Symlink("", filepath.Join(top, "p", "t", "empty.md")) == nil
	const tail = ": promptc follows only relative links that stay inside it"
	// The boundary is top/: outside.md above it stands for anything outside the repository.
	fsys := Dir(filepath.Join(top, "p"), fixed(filepath.Join(top), new(int)))
	abs := filepath.ToSlash(filepath.Join(os.TempDir(), "x.md"))
	type refusal struct {
		name   string
		reason Reason
		err    string
	}
	tests := []refusal{
		{"t/abs.md", Outside, fmt.Sprintf("symbolic link to %q leaves the repository", abs) + tail},
		{"t/above.md", Outside, `symbolic link to "../../../outside.md" leaves the repository` + tail},
		{"t/outside-top", Outside, `symbolic link to "../../../" leaves the repository` + tail},
		{"t/via.md", Outside, `symbolic link to "../../shared/up.md" leads through "shared/up.md", a symbolic link to "../../outside.md", which leaves the repository` + tail},
		{"t/gone.md", Dangling, `symbolic link to "missing.md" dangles: nothing is there in the repository`},
		{"t/empty.md", Dangling, `symbolic link to "" dangles: nothing is there in the repository`},
		{"t/through.md", Dangling, `symbolic link to "../../a/file.md/x" dangles: nothing is there in the repository`},
		{"t/git.md", Dangling, `symbolic link to "../.git/config" dangles: nothing is there in the repository`},
		{"t/dirgit", Dangling, `symbolic link to "../../.git" dangles: nothing is there in the repository`},
		{"t/self", Loop, `symbolic link to "." loops back on itself`},
		{"t/root", Loop, `symbolic link to "../.." loops back on itself`},
		{"t/ping.md", Loop, `symbolic link to "pong.md" loops back on itself`},
	}
	if err := os.MkdirAll(filepath.Join(top, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(top, "p", ".git"), []byte("gitdir: elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !emptyLinks {
		t.Log("this system makes no empty symbolic links, so none can be met: t/empty.md is not checked")
		tests = slices.DeleteFunc(tests, func(tt refusal) bool { return tt.name == "t/empty.md" })
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for op, do := range map[string]func() error{
				"open":     func() error { _, err := fsys.Open(tt.name); return err },
				"stat":     func() error { _, err := fs.Stat(fsys, tt.name); return err },
				"readfile": func() error { _, err := fs.ReadFile(fsys, tt.name); return err },
				"below":    func() error { _, err := fs.Stat(fsys, tt.name+"/x"); return err },
			} {
				var le *FollowError
				err := do()
				if !errors.As(err, &le) || le.Reason != tt.reason || le.Error() != tt.err {
					t.Errorf("%s: %v\nwant a %v LinkError: %s", op, err, tt.reason, tt.err)
				}
				var pe *fs.PathError
				if op != "below" && (!errors.As(err, &pe) || pe.Path != tt.name) {
					t.Errorf("%s: %v, want an *fs.PathError naming %s", op, err, tt.name)
				}
			}
		})
	}
	// Listed, they are links: the entry is there, and says what it is.
	entries, err := fs.ReadDir(fsys, "t")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Type() != fs.ModeSymlink {
			t.Errorf("entry %s: type %v, want a symbolic link", e.Name(), e.Type())
		}
	}
	if len(entries) != len(tests)+1 { // pong.md too
		t.Errorf("ReadDir(t): %d entries, want %d", len(entries), len(tests)+1)
	}
}

// TestDirProjectBound: with no boundary above it, the project directory is the boundary.
func TestDirProjectBound(t *testing.T) {
	top := tempTree(t, map[string]string{"p/promptc.toml": "p\n", "shared.md": "s\n", "p/in.md": "i\n"},
		map[string]string{"p/t/up.md": "../../shared.md", "p/t/in.md": "../in.md"})
	for _, bound := range []string{"", filepath.Join(top, "p", "t")} { // none, or one that does not hold the project
		fsys := Dir(filepath.Join(top, "p"), fixed(bound, new(int)))
		_, err := fs.ReadFile(fsys, "t/up.md")
		want := `symbolic link to "../../shared.md" leaves the project directory: promptc follows only relative links that stay inside it`
		var le *FollowError
		if !errors.As(err, &le) || le.Error() != want {
			t.Errorf("bound %q: %v\nwant %s", bound, err, want)
		}
		if data, err := fs.ReadFile(fsys, "t/in.md"); err != nil || string(data) != "i\n" {
			t.Errorf("bound %q: ReadFile(t/in.md) = %q, %v", bound, data, err)
		}
	}
}

// TestDirLoops: a link to a directory is followed unless it leads back to a directory its path already passed
// through, or one above such a directory, which would make the tree endless; however the links take turns.
func TestDirLoops(t *testing.T) {
	top := tempTree(t, map[string]string{"a/b/f.md": "f\n", "c/g.md": "g\n"}, map[string]string{
		"a/to-c":    "../c",   // a → c …
		"c/to-a":    "../a",   // … and c → a: a/to-c/to-a is a again
		"c/to-b":    "../a/b", // below a, so not a loop from a/to-c …
		"a/b/up":    "..",     // … but a/b/up is
		"a/b/to-c2": "../../c",
	})
	fsys := Dir(filepath.Join(top, "a"), fixed(top, new(int)))
	var files, links []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.Type() == fs.ModeSymlink:
			links = append(links, p)
		case !d.IsDir():
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// to-c/to-b/to-c2 is c again, which to-c passed through.
	wantFiles := []string{"b/f.md", "b/to-c2/g.md", "to-c/g.md", "to-c/to-b/f.md"}
	wantLinks := []string{"b/to-c2/to-a", "b/to-c2/to-b", "b/up", "to-c/to-a", "to-c/to-b/to-c2", "to-c/to-b/up"}
	if !slices.Equal(files, wantFiles) || !slices.Equal(links, wantLinks) {
		t.Errorf("walk:\nfiles %q\nlinks %q\nwant\nfiles %q\nlinks %q", files, links, wantFiles, wantLinks)
	}
}

// TestDirChainLength: a chain of maxLinks links is followed, one more loops, as on the operating systems.
func TestDirChainLength(t *testing.T) {
	links := map[string]string{}
	for i := 1; i <= maxLinks+1; i++ {
		links[fmt.Sprintf("l%d", i)] = fmt.Sprintf("l%d", i-1)
	}
	dir := tempTree(t, map[string]string{"l0": "end\n"}, links)
	fsys := Dir(dir, nil)
	if data, err := fs.ReadFile(fsys, fmt.Sprintf("l%d", maxLinks)); err != nil || string(data) != "end\n" {
		t.Errorf("a chain of %d links: %q, %v", maxLinks, data, err)
	}
	var le *FollowError
	if _, err := fs.ReadFile(fsys, fmt.Sprintf("l%d", maxLinks+1)); !errors.As(err, &le) || le.Reason != Loop {
		t.Errorf("a chain of %d links: %v, want a loop", maxLinks+1, err)
	}
}
