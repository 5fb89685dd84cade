package lint

import (
	"fmt"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/internal/gen"
	"github.com/promptc/promptc/tokens"
)

// benchLintSizes are the project sizes lint must handle in near-linear time: ns/block must stay flat from one size
// to the next.
var benchLintSizes = []int{2000, 10000, 50000}

// BenchmarkLint runs every lint over a generated project of 20 tasks, compiled and built once outside the timer.
// The project is shaped like a real one (gates, constants, references, replacements, fixtures), and blocks of
// every scope are interleaved enough that scope-inversion has work to do.
func BenchmarkLint(b *testing.B) {
	for _, n := range benchLintSizes {
		b.Run(fmt.Sprintf("blocks=%d", n), func(b *testing.B) {
			prog, diags := assemble.Load(gen.FS(gen.Files(n, 20)))
			if len(diags) > 0 {
				b.Fatal(diags)
			}
			arts, diags := prog.Build()
			if len(diags) > 0 {
				b.Fatal(diags)
			}
			tok := tokens.New(tokens.O200k)
			tok.Count("warm up") // load the vocabulary outside the timer
			b.ResetTimer()
			for b.Loop() {
				Run(prog, arts, tok)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/block")
		})
	}
}

// BenchmarkScattered: lint against build on a project in the middle of a migration (gen.Scattered: 10,000 blocks ×
// 20 tasks, session blocks scattered through runbook.order, thousands of scope inversions). Lint must cost at most
// twice what build does, whatever the number of findings (docs/lint.md, "Cost"). Each side loads the project itself,
// as the commands do; the vocabulary is loaded outside the timer.
func BenchmarkScattered(b *testing.B) {
	fsys := gen.FS(gen.Scattered(10000, 20))
	tok := tokens.New(tokens.O200k)
	tok.Count("warm up")
	load := func(b *testing.B) (*assemble.Program, []*assemble.Artifact) {
		prog, diags := assemble.Load(fsys)
		if len(diags) > 0 {
			b.Fatal(diags)
		}
		arts, diags := prog.Build()
		if len(diags) > 0 {
			b.Fatal(diags)
		}
		return prog, arts
	}
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			load(b)
		}
	})
	b.Run("lint", func(b *testing.B) {
		findings := 0
		for b.Loop() {
			prog, arts := load(b)
			findings = len(Run(prog, arts, tok))
		}
		b.ReportMetric(float64(findings), "findings")
	})
}
