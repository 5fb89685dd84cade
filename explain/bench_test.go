package explain

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
)

// longLine is a project whose runbook's first line is n bytes long: literal text, a constant and a variable's
// value (trusted, so that it prints as given) side by side, each a third of the line.
func longLine(n int) fstest.MapFS {
	third := strings.Repeat("abcdefghi ", n/30)
	return fstest.MapFS{
		"promptc.toml": {Data: []byte("name = \"a\"\ntasks = [\"t\"]\n[runbook]\norder = [\"long\"]\n" +
			"[vars.v]\nscope = \"session\"\ntype = \"string\"\ntrust = \"trusted\"\n")},
		"blocks/a.toml": {Data: []byte("[const]\nc = \"" + third + "\"\n\n[[block]]\nid = \"long\"\nbody = \"" +
			third + "{{const \\\"c\\\"}}{{.v}}\"\n")},
		"fixtures/f.toml": {Data: []byte("[session]\nv = \"" + third + "\"\n")},
	}
}

// BenchmarkLineLong explains line 1 of runbooks whose first line is 60 KB and 600 KB long: the time per byte stays
// flat (each byte's origin is found without rereading the line or the block).
func BenchmarkLineLong(b *testing.B) {
	for _, n := range []int{60_000, 600_000} {
		prog, diags := assemble.Load(longLine(n))
		if len(diags) > 0 {
			b.Fatal(diags)
		}
		b.Run(fmt.Sprint("bytes=", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := Line(prog, "t/f.runbook.md", 1)
				if err != nil {
					b.Fatal(err)
				}
				if len(r.From) != 3 {
					b.Fatalf("from = %v, want text, const and var", r.From)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/byte")
		})
	}
}
