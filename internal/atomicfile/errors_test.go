package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// leftovers lists the temporary files (TempPattern) under dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ok, _ := filepath.Match(TempPattern("*"), d.Name()); ok || strings.Contains(d.Name(), ".tmp-") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWrite: Write replaces one file, creating its directories, with the mode asked for, and leaves no temporary
// file behind.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a", "b", "hook")
	for _, data := range []string{"#!/bin/sh\nexit 0\n", "#!/bin/sh\nexit 1\n"} {
		if err := Write(name, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil || string(got) != data {
			t.Errorf("after Write: %q, %v; want %q", got, err, data)
		}
		if fi, err := os.Stat(name); err != nil || fi.Mode().Perm() != 0o755 {
			t.Errorf("mode %v, %v; want 0755", fi.Mode(), err)
		}
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("temporary files left: %v", l)
	}
}

// TestWriteAllTempFails: when one temporary file cannot be written, WriteAll returns that error and renames none
// of the set, so the other files keep their old bytes, and removes every temporary file it made.
func TestWriteAllTempFails(t *testing.T) {
	for name, bad := range map[string]func(dir string) string{
		// A parent directory that is a file.
		"parent is a file": func(dir string) string {
			if err := os.WriteFile(filepath.Join(dir, "blocker"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(dir, "blocker", "x.md")
		},
		// A name whose temporary name (".NAME.tmp-…") is too long for the file system.
		"temporary name too long": func(dir string) string {
			return filepath.Join(dir, strings.Repeat("n", 250))
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			good := filepath.Join(dir, "good.md")
			if err := os.WriteFile(good, []byte("old\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			files := []File{{Name: good, Data: []byte("new\n"), Perm: 0o644}, {Name: bad(dir), Data: []byte("x"), Perm: 0o644}}
			for i := range 8 { // enough files that several writers run at once
				files = append(files, File{Name: filepath.Join(dir, "more", string(rune('a'+i))), Data: []byte("m"), Perm: 0o644})
			}
			err := WriteAll(files)
			if err == nil {
				t.Fatal("WriteAll succeeded")
			}
			var pe *fs.PathError
			if !errors.As(err, &pe) {
				t.Errorf("error %v (%T), want the *fs.PathError of the file that failed", err, err)
			}
			if got, _ := os.ReadFile(good); string(got) != "old\n" {
				t.Errorf("good.md = %q after a failed WriteAll, want its old bytes", got)
			}
			if _, err := os.Stat(filepath.Join(dir, "more", "a")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a file of the failed set was renamed into place: %v", err)
			}
			if l := leftovers(t, dir); len(l) > 0 {
				t.Errorf("temporary files left: %v", l)
			}
		})
	}
}

// TestWriteAllRenameFails: a file that cannot be renamed into place (a directory stands there) stops WriteAll with
// the rename's error; the files before it are in place, and no temporary file is left.
func TestWriteAllRenameFails(t *testing.T) {
	dir := t.TempDir()
	first, blocked, last := filepath.Join(dir, "1.md"), filepath.Join(dir, "2.md"), filepath.Join(dir, "3.md")
	if err := os.MkdirAll(filepath.Join(blocked, "child"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := WriteAll([]File{{Name: first, Data: []byte("1"), Perm: 0o644}, {Name: blocked, Data: []byte("2"), Perm: 0o644}, {Name: last, Data: []byte("3"), Perm: 0o644}})
	var le *os.LinkError
	if !errors.As(err, &le) || le.Op != "rename" || le.New != blocked {
		t.Fatalf("WriteAll = %v, want the rename onto %s to fail", err, blocked)
	}
	if got, _ := os.ReadFile(first); string(got) != "1" {
		t.Errorf("1.md = %q, want it renamed into place before the failure", got)
	}
	if _, err := os.Stat(last); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("3.md, after the failure: %v, want it not written", err)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("temporary files left: %v", l)
	}
}

// TestSameBytesErrors: a file that cannot be opened or read is an error, not "the same".
func TestSameBytesErrors(t *testing.T) {
	dir := t.TempDir()
	if same, err := SameBytes(filepath.Join(dir, "missing"), nil); same || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("SameBytes(missing) = %v, %v; want false and a not-exist error", same, err)
	}
	if same, err := SameBytes(dir, nil); same || err == nil {
		t.Errorf("SameBytes(a directory) = %v, %v; want false and the read error", same, err)
	}
	if Unchanged(File{Name: dir, Perm: fs.ModeDir | 0o755}) {
		t.Error("Unchanged(a directory) = true")
	}
}
