package atomicfile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

// TestUnchanged: a file is unchanged only when it holds exactly the bytes, whatever their size relative to the
// chunks Unchanged reads them in.
func TestUnchanged(t *testing.T) {
	dir := t.TempDir()
	big := bytes.Repeat([]byte("0123456789abcdef"), 64<<10/16*3+5) // three chunks and a bit
	flip := func(b []byte, i int) []byte { c := bytes.Clone(b); c[i] ^= 1; return c }
	for _, tt := range []struct {
		name       string
		file, data []byte
		want       bool
	}{
		{"empty", nil, nil, true},
		{"equal", []byte("abc"), []byte("abc"), true},
		{"equal, several chunks", big, big, true},
		{"last byte differs", big, flip(big, len(big)-1), false},
		{"first byte of a later chunk differs", big, flip(big, 64<<10), false},
		{"file longer", append(bytes.Clone(big), 'x'), big, false},
		{"file shorter", big[:len(big)-1], big, false},
		{"file longer by exactly a chunk", big[:2*64<<10], big[:64<<10], false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			name := filepath.Join(dir, "f")
			if err := os.WriteFile(name, tt.file, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(name, 0o644); err != nil {
				t.Fatal(err)
			}
			if got := Unchanged(File{Name: name, Data: tt.data, Perm: 0o644}); got != tt.want {
				t.Errorf("Unchanged = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestUnchangedEach checks that the parallel comparison answers for each file in its own place.
func TestUnchangedEach(t *testing.T) {
	dir := t.TempDir()
	var files []File
	var want []bool
	for i := range 40 {
		name := filepath.Join(dir, fmt.Sprintf("f%02d", i))
		data := bytes.Repeat([]byte{byte('a' + i%26)}, 100+i)
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(name, 0o644); err != nil {
			t.Fatal(err)
		}
		same := i%3 != 0
		if !same {
			data = append(bytes.Clone(data[:len(data)-1]), '!')
		}
		files = append(files, File{Name: name, Data: data, Perm: 0o644})
		want = append(want, same)
	}
	files = append(files, File{Name: filepath.Join(dir, "missing"), Data: []byte("x"), Perm: 0o644})
	want = append(want, false)
	if got := UnchangedEach(files); !slices.Equal(got, want) {
		t.Errorf("UnchangedEach = %v\nwant            %v", got, want)
	}
	if got := UnchangedEach(nil); len(got) != 0 {
		t.Errorf("UnchangedEach(nil) = %v", got)
	}
}
