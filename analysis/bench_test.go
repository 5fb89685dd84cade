package analysis

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/internal/gen"
)

// BenchmarkKeystroke measures the re-analysis after one keystroke in a 2,000-block project: the overlay holds the
// edited file, everything else is read from the base file system. The target is 100 ms per op (docs/editors.md).
func BenchmarkKeystroke(b *testing.B) {
	files := gen.Project(2000, 8)
	fsys := gen.FS(files)
	var name string
	for n := range files {
		if strings.HasPrefix(n, "blocks/") && (name == "" || n < name) {
			name = n
		}
	}
	text := string(files[name])
	if s := Load(fsys); len(s.Diagnostics()) > 0 {
		b.Fatalf("generated project has diagnostics: %v", s.Diagnostics()[:1])
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		edited := text + strings.Repeat("#", i%7+1) + "\n" // a comment typed at the end of the file
		s := Load(Overlay(fsys, map[string]string{name: edited}))
		if len(s.Diagnostics()) > 0 {
			b.Fatal(s.Diagnostics()[0])
		}
	}
	// Wall time depends on what else the machine runs; the CPU time the process spent per keystroke does not (much).
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}
