package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestWriteAll(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "x", "a.md")
	b := filepath.Join(dir, "y", "b.md")
	if err := WriteAll([]File{{Name: a, Data: []byte("one\n"), Perm: 0o644}, {Name: b, Data: []byte("two\n"), Perm: 0o755, NoSync: true}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		want string
		perm os.FileMode
	}{{a, "one\n", 0o644}, {b, "two\n", 0o755}} {
		got, err := os.ReadFile(c.name)
		if err != nil || string(got) != c.want {
			t.Errorf("%s = %q, %v; want %q", c.name, got, err, c.want)
		}
		if fi, _ := os.Stat(c.name); fi.Mode().Perm() != c.perm {
			t.Errorf("%s mode = %v, want %v", c.name, fi.Mode().Perm(), c.perm)
		}
	}

	// Unchanged bytes and mode: the file is not rewritten, so its time stays.
	old := time.Unix(1_000_000_000, 0)
	if err := os.Chtimes(a, old, old); err != nil {
		t.Fatal(err)
	}
	if err := WriteAll([]File{{Name: a, Data: []byte("one\n"), Perm: 0o644}}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(a); !fi.ModTime().Equal(old) {
		t.Errorf("unchanged file was rewritten: mtime %v", fi.ModTime())
	}
	// Same bytes, other mode: rewritten with the new mode.
	if err := WriteAll([]File{{Name: a, Data: []byte("one\n"), Perm: 0o600}}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(a); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600", fi.Mode().Perm())
	}
	// No temporary file is left behind.
	entries, _ := os.ReadDir(filepath.Dir(a))
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only a.md", len(entries))
	}
}
