package explain_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/promptc/promptc/explain"
)

// Stale says a build/ or golden/ copy differs from the current rendering, and nothing about any other path.
func TestStale(t *testing.T) {
	prog := demo(t)
	const path = "issue/basic.runbook.md"
	a, err := explain.Artifact(prog, path)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("build/"+path, a.Text)
	write("golden/"+path, a.Text+"one more line\n")
	write("elsewhere/"+path, "anything\n")
	for _, tt := range []struct {
		file, path string
		want       bool
	}{
		{"build/" + path, path, false},
		{"golden/" + path, path, true},
		{`golden\issue\basic.runbook.md`, path, true},                   // either slash
		{"elsewhere/" + path, path, false},                              // not a copy of an artifact
		{path, path, false},                                             // the artifact itself, not a copy
		{"build/issue/lead.runbook.md", "issue/lead.runbook.md", false}, // no such file
		{"golden/" + path, "nosuch/basic.runbook.md", false},            // renders nothing
	} {
		if got := explain.Stale(prog, root, tt.file, tt.path); got != tt.want {
			t.Errorf("Stale(%s, %s) = %v, want %v", tt.file, tt.path, got, tt.want)
		}
	}
}
