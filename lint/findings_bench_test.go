package lint

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/tokens"
)

// findingsProject is a project of n findings of one shape:
//   - "invisible": n blocks, each body holding a zero-width space (invisible-char, placed in its block);
//   - "allowed": the same, each block's finding silenced by an [[lint.allow]] of its own (as import writes them);
//   - "refs": one block of n refs to unknown blocks (unknown-ref);
//   - "dates": one block of n dates (volatile-text), 11 bytes each.
func findingsProject(shape string, n int) fstest.MapFS {
	var bl, order, allows strings.Builder
	switch shape {
	case "invisible", "allowed":
		for i := range n {
			fmt.Fprintf(&bl, "[[block]]\nid = \"b%d\"\nbody = \"text\u200b %d\"\n", i, i)
			fmt.Fprintf(&order, "\"b%d\",", i)
			if shape == "allowed" {
				fmt.Fprintf(&allows, "[[lint.allow]]\nlint = \"invisible-char\"\nblock = \"b%d\"\nreason = \"r\"\n", i)
			}
		}
	case "dates":
		bl.WriteString("[[block]]\nid = \"b\"\nbody = '''\n" + strings.Repeat("2024-01-01 ", n) + "\n'''\n")
		order.WriteString(`"b"`)
	case "refs":
		bl.WriteString("[[block]]\nid = \"b\"\nbody = '''\n")
		for i := range n {
			fmt.Fprintf(&bl, "{{ref \"n%d\"}}\n", i)
		}
		bl.WriteString("'''\n")
		order.WriteString(`"b"`)
	}
	return fstest.MapFS{
		"promptc.toml":  {Data: []byte("name = \"a\"\ntasks = [\"t\"]\n[runbook]\norder = [" + order.String() + "]\n" + allows.String())},
		"blocks/a.toml": {Data: []byte(bl.String())},
	}
}

// BenchmarkLintFindings runs every lint over projects with 7,200 and 72,000 findings (or silenced findings):
// the time per finding stays flat (placing, silencing and sorting findings is not a scan per finding).
func BenchmarkLintFindings(b *testing.B) {
	tok := tokens.New(tokens.O200k)
	tok.Count("warm up")
	for _, shape := range []string{"invisible", "allowed", "refs", "dates"} {
		for _, n := range []int{7200, 72000} {
			b.Run(fmt.Sprintf("%s/findings=%d", shape, n), func(b *testing.B) {
				prog, diags := assemble.Load(findingsProject(shape, n))
				if len(diags) > 0 {
					b.Fatal(diags[:min(len(diags), 3)])
				}
				arts, _ := prog.Build() // unknown refs fail to render: lint runs on what built
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					Run(prog, arts, tok)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/finding")
			})
		}
	}
}
