//go:build unix

package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadDirRefusesNamedPipes: a named pipe among the fixtures, with an editor's buffer over another file, loads
// at once with a diagnostic naming it (the overlay tells what a file is without opening it), so that the language
// server answers; opening the pipe waited for a writer, and every request after it.
func TestLoadDirRefusesNamedPipes(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"promptc.toml":  "name = \"p\"\ntasks = [\"t\"]\n[runbook]\norder = [\"a\"]\n",
		"blocks/a.toml": "[[block]]\nid = \"a\"\nbody = \"A\"\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "fixtures"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fixtures", "f.toml"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan *Snapshot, 1)
	go func() {
		done <- LoadDir(dir, map[string]string{"blocks/a.toml": "[[block]]\nid = \"a\"\nbody = \"B\"\n"})
	}()
	select {
	case s := <-done:
		want := "fixtures/f.toml:?:?: cannot read file: a named pipe (FIFO), not a regular file"
		if got := s.Diagnostics().String(); !strings.Contains(got, want) {
			t.Errorf("diagnostics:\n%s\nwant one starting\n%s", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("LoadDir is still waiting on the named pipe after 10 s")
	}
}
