package lsp

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/promptc/promptc/internal/gen"
)

// BenchmarkDidChange measures a keystroke end to end in a 2,000-block project on disk: didChange sent, the
// project reloaded with the buffer, the diagnostics of the edited file received. The keystroke adds a typo to a
// constant's name and the next one removes it, so every op waits for a real change of diagnostics.
func BenchmarkDidChange(b *testing.B) {
	root := b.TempDir()
	files := gen.Files(2000, 8)
	if err := gen.WriteDir(root, files); err != nil {
		b.Fatal(err)
	}
	var name string
	for n, data := range files {
		if strings.HasPrefix(n, "blocks/") && strings.Contains(string(data), `{{const "`) && (name == "" || n < name) {
			name = n
		}
	}
	path := filepath.Join(root, filepath.FromSlash(name))
	text := string(files[name])
	i := strings.Index(text, `{{const "`) + len(`{{const "`)
	typo := text[:i] + "x" + text[i:]
	c := startClient(b)
	c.initialize(root)
	uri := c.open(path)
	has := func(want bool) func([]map[string]any) bool {
		return func(ds []map[string]any) bool {
			for _, d := range ds {
				if d["severity"].(float64) == 1 {
					return want
				}
			}
			return !want
		}
	}
	if ds, ok := c.waitDiags(uri, time.Minute, has(false)); !ok {
		b.Fatalf("generated project has errors: %v", ds)
	}
	// The first lint of a project this size takes seconds; it is measured by lint's benchmarks, not here.
	select {
	case <-c.linted:
	case <-time.After(2 * time.Minute):
		b.Fatal("no lint finding in the generated project")
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	for k := 0; k < b.N; k++ {
		edited, want := typo, true
		if k%2 == 1 {
			edited, want = text, false
		}
		c.change(uri, k+2, edited)
		if ds, ok := c.waitDiags(uri, time.Minute, has(want)); !ok {
			b.Fatalf("keystroke %d: %v", k, ds)
		}
	}
	// The CPU time of the whole process (server and test client) per keystroke: less dependent than wall time on
	// what else the machine runs.
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}
