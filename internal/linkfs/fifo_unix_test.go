//go:build unix

package linkfs

import (
	"errors"
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestDirRefusesNamedPipes: opening a named pipe, or a link to one, fails at once with ErrNotRegular; os.Open would
// wait for a writer. Stat still says what it is.
func TestDirRefusesNamedPipes(t *testing.T) {
	dir := tempTree(t, map[string]string{"a.toml": "a = 1\n"}, map[string]string{"link.toml": "pipe.toml"})
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.toml"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	v := Dir(dir, nil)
	for _, name := range []string{"pipe.toml", "link.toml"} {
		done := make(chan error, 1)
		go func() {
			f, err := v.Open(name)
			if err == nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("Open(%s) = %v, want ErrNotRegular", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Open(%s) is still waiting after 10 s", name)
		}
		if fi, err := fs.Stat(v, name); err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
			t.Errorf("Stat(%s) = %v, %v; want a named pipe", name, fi, err)
		}
	}
	if _, err := fs.ReadFile(v, "a.toml"); err != nil {
		t.Errorf("a regular file: %v", err)
	}
}
