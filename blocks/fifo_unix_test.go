//go:build unix

package blocks_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/values"
)

// TestLoadRefusesNamedPipes: a named pipe (FIFO) among the sources, as blocks/x.toml, a template or a fixture, is
// refused at once with a diagnostic naming it, where opening it waited for a writer forever.
func TestLoadRefusesNamedPipes(t *testing.T) {
	for _, fifo := range []string{"blocks/x.toml", "templates/t.md", "fixtures/f.toml"} {
		t.Run(fifo, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{
				"promptc.toml":  "name = \"p\"\ntasks = [\"t\"]\n[runbook]\norder = [\"a\", \"b\"]\n",
				"blocks/a.toml": "[[block]]\nid = \"a\"\nbody = \"A\"\n[[block]]\nid = \"b\"\ntemplate = \"t.md\"\n",
			}
			if fifo != "templates/t.md" {
				files["templates/t.md"] = "B\n"
			}
			for name, text := range files {
				writeFile(t, filepath.Join(dir, name), text)
			}
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, fifo)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(filepath.Join(dir, fifo), 0o644); err != nil {
				t.Skipf("no named pipes here: %v", err)
			}
			done := make(chan source.Diagnostics, 1)
			go func() {
				_, diags := values.Load(os.DirFS(dir))
				done <- diags
			}()
			select {
			case diags := <-done:
				want := fifo + ":?:?: cannot read file: a named pipe (FIFO), not a regular file: promptc reads only regular files, so that reading never waits; replace it with a file"
				if !strings.Contains(diags.String(), want+"\n") {
					t.Errorf("diagnostics:\n%s\nwant among them:\n%s", diags, want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Load is still waiting on the named pipe after 10 s")
			}
		})
	}
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
