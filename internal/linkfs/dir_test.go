package linkfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/promptc/promptc/internal/testenv"
)

// TestDiskConfined: the disk Tree itself, below the View's rule, reads nothing outside the boundary: not a path
// outside it, not through a directory that is a link leading out, not the target of a link to a file outside. A
// View never asks for such a path; a tree that changes while it is read (a directory swapped for a link between
// the View's look and the open) can make it, and the os.Root under each access refuses.
func TestDiskConfined(t *testing.T) {
	top := tempTree(t, map[string]string{
		"repo/p/promptc.toml": "p\n",
		"repo/p/in/a.md":      "a\n",
		"repo/shared/s.md":    "s\n",
		"secret/key.md":       "secret\n",
	}, map[string]string{
		"repo/p/out":        "../../secret",        // a directory link leading out
		"repo/p/key.md":     "../../secret/key.md", // a file link leading out
		"repo/p/abs":        filepath.Join("..", "..", "secret"),
		"repo/shared/out":   "../../secret",
		"repo/p/in/up":      "../..", // to the repository: inside the boundary, outside the project directory
		"repo/p/in/shared":  "../../shared",
		"repo/p/in/project": "..",
	})
	v := Dir(filepath.Join(top, "repo", "p"), func() string { return filepath.Join(top, "repo") })
	d := v.tree.(*disk)
	rel := func(p string) string { // a tree path, from the volume's root
		r, err := filepath.Rel(d.vol, filepath.Join(top, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		return filepath.ToSlash(r)
	}
	// A View asks for the boundary before it leaves dir; so does this test.
	if bound, name := d.Bound(); bound != rel("repo") || name != Repository {
		t.Fatalf("Bound() = %q, %q; want %q, %q", bound, name, rel("repo"), Repository)
	}
	for _, p := range []string{"secret/key.md", "secret", "repo/p/out/key.md", "repo/p/key.md", "repo/shared/out/key.md",
		"repo/p/in/up/p/out/key.md", "repo/p/in/project/out/key.md"} {
		if f, err := d.Open(rel(p)); err == nil {
			f.Close()
			t.Errorf("Open(%s) succeeded: the disk tree read outside the repository", p)
		}
		if fi, _, err := d.Lstat(rel(p)); err == nil && p != "repo/p/key.md" { // the link itself may be described
			t.Errorf("Lstat(%s) = %v: the disk tree looked outside the repository", p, fi.Name())
		}
		if _, err := d.ReadDir(rel(p)); err == nil {
			t.Errorf("ReadDir(%s) succeeded: the disk tree listed outside the repository", p)
		}
	}
	if _, _, err := d.Lstat(rel("secret/key.md")); !errors.Is(err, errOutside) {
		t.Errorf("Lstat of a path outside the boundary: %v, want %v", err, errOutside)
	}
	// Inside the boundary, the same calls read what is there, a link below the project directory included.
	for p, want := range map[string]string{"repo/p/in/a.md": "a\n", "repo/shared/s.md": "s\n"} {
		f, err := d.Open(rel(p))
		if err != nil {
			t.Errorf("Open(%s): %v", p, err)
			continue
		}
		buf := make([]byte, 16)
		n, _ := f.Read(buf)
		f.Close()
		if string(buf[:n]) != want {
			t.Errorf("Open(%s) read %q, want %q", p, buf[:n], want)
		}
	}
}

// TestDirNoBoundaryAbove: a project directory that is its own boundary confines the disk Tree to itself, though a
// git work tree holds it and a link leads there.
func TestDirNoBoundaryAbove(t *testing.T) {
	top := tempTree(t, map[string]string{"p/promptc.toml": "p\n", "shared.md": "s\n"}, map[string]string{"p/up.md": "../shared.md"})
	v := Dir(filepath.Join(top, "p"), nil)
	d := v.tree.(*disk)
	if _, err := v.ReadFile("up.md"); err == nil {
		t.Fatal("a link out of a project with no boundary above it was followed")
	}
	shared, err := filepath.Rel(d.vol, filepath.Join(top, "shared.md"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Open(filepath.ToSlash(shared)); !errors.Is(err, errOutside) {
		t.Errorf("Open of a file beside the project directory: %v, want %v", err, errOutside)
	}
}

// TestDirClose: Close releases the directories a View holds open, without asking for the boundary, and every call
// after fails; a file opened before stays readable.
func TestDirClose(t *testing.T) {
	dir := tempTree(t, map[string]string{"promptc.toml": "p\n", "blocks/a.toml": "a\n"}, nil)
	calls := 0
	v := Dir(dir, fixed(dir, &calls))
	f, err := v.Open("blocks/a.toml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if n := len(v.tree.(*disk).dirs); n != 2 {
		t.Errorf("%d directories held open, want 2 (the project and blocks)", n)
	}
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	if err := v.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	if calls != 0 {
		t.Errorf("Close asked for the boundary %d times", calls)
	}
	for _, name := range []string{"promptc.toml", "blocks/a.toml", "."} {
		if _, err := fs.Stat(v, name); !errors.Is(err, os.ErrClosed) {
			t.Errorf("Stat(%s) after Close: %v, want %v", name, err, os.ErrClosed)
		}
	}
	buf := make([]byte, 4)
	if n, err := f.Read(buf); err != nil || string(buf[:n]) != "a\n" {
		t.Errorf("a file opened before Close read %q, %v", buf[:n], err)
	}
	// A View never used closes too, and opens nothing after.
	unused := Dir(dir, nil)
	if err := unused.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := unused.ReadFile("promptc.toml"); !errors.Is(err, os.ErrClosed) {
		t.Errorf("ReadFile after Close of an unused View: %v, want %v", err, os.ErrClosed)
	}
	// A tree in memory has nothing to close.
	if err := NewView(&memTree{bound: "."}, ".").Close(); err != nil {
		t.Errorf("Close of a View of a memTree: %v", err)
	}
}

// TestDirMissing: a project directory that is not there, or is a file, fails each call as os.DirFS does.
func TestDirMissing(t *testing.T) {
	dir := tempTree(t, map[string]string{"file": "f\n"}, nil)
	for _, tc := range []struct {
		dir  string
		want error
	}{
		{filepath.Join(dir, "gone"), fs.ErrNotExist},
		{filepath.Join(dir, "file"), nil},
	} {
		v := Dir(tc.dir, nil)
		_, err := v.ReadFile("promptc.toml")
		_, want := fs.ReadFile(os.DirFS(tc.dir), "promptc.toml")
		if err == nil || want == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("%s: ReadFile = %v; os.DirFS gives %v", tc.dir, err, want)
		}
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != "promptc.toml" || pe.Err.Error() != unwrap(want).Error() {
			t.Errorf("%s: ReadFile = %v, want an *fs.PathError naming promptc.toml saying %q", tc.dir, err, unwrap(want))
		}
	}
}

// TestDirNoWorkingDirectory: with the working directory gone, a project named by a relative path cannot be placed
// on its volume, so it is its own boundary and nothing is read from elsewhere: not from the root of the disk, where
// a volume path of "." would lead.
func TestDirNoWorkingDirectory(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "gone")
	if err := os.Mkdir(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(gone)
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	if _, err := filepath.Abs("p"); err == nil {
		testenv.Absent(t, "this system finds a working directory that was removed")
	}
	calls := 0
	v := Dir("p", fixed("/", &calls))
	root, err := os.Open("/")
	if err != nil {
		t.Fatal(err)
	}
	names, err := root.Readdirnames(-1)
	root.Close()
	if err != nil || len(names) == 0 {
		t.Fatalf("listing /: %v", err)
	}
	for _, name := range append(names, ".") {
		if _, err := fs.Stat(v, name); err == nil {
			t.Errorf("Stat(%s) succeeded in a project that is not there", name)
		}
	}
	if bound, name := v.tree.Bound(); bound != "." || name != ProjectDir || calls != 0 {
		t.Errorf("Bound() = %q, %q after %d calls of top; want the project directory, and top never called", bound, name, calls)
	}
}
