package blocks_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/values"
)

// BenchmarkUnknownNames loads a project whose runbook.order names n blocks that exist and n that do not, each
// unknown one a near miss of a real one: every diagnostic asks for a suggestion among n ids. The cost per name must
// stay flat as n grows (a suggestion is not a scan of every id).
func BenchmarkUnknownNames(b *testing.B) {
	for _, n := range []int{2000, 20000} {
		b.Run(fmt.Sprintf("names=%d", n), func(b *testing.B) {
			var blocksFile, order strings.Builder
			for i := range n {
				fmt.Fprintf(&blocksFile, "[[block]]\nid = \"block-%05d-x\"\nbody = \"b\"\n\n", i)
				fmt.Fprintf(&order, "\"block-%05d-x\", \"block-%05d-y\",\n", i, i)
			}
			fsys := fstest.MapFS{
				"promptc.toml":  {Data: []byte("name = \"a\"\ntasks = [\"t\"]\n[runbook]\norder = [\n" + order.String() + "]\n")},
				"blocks/a.toml": {Data: []byte(blocksFile.String())},
			}
			for b.Loop() {
				if _, diags := values.Load(fsys); len(diags) != n {
					b.Fatalf("%d diagnostics, want %d", len(diags), n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/name")
		})
	}
}
