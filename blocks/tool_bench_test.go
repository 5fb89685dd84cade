package blocks_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/values"
)

// manyTools is a project with n [[tool]] tables in one file, each with a parameters table and a property
// subtable; with bad, every tool's schema holds a value JSON has no type for, so each is a diagnostic placed at
// its key.
func manyTools(n int, bad bool) fstest.MapFS {
	var tools strings.Builder
	for i := range n {
		fmt.Fprintf(&tools, "[[tool]]\nname = \"tool_%05d\"\ndescription = \"Tool number %d.\"\n\n[tool.parameters]\ntype = \"object\"\n", i, i)
		if bad {
			tools.WriteString("x = nan\n")
		}
		tools.WriteString("\n[tool.parameters.properties.q]\ntype = \"string\"\n\n")
	}
	return fstest.MapFS{
		"promptc.toml":      {Data: []byte("name = \"a\"\ntasks = [\"t\"]\n[runbook]\norder = [\"a\"]\n")},
		"blocks/a.toml":     {Data: []byte("[[block]]\nid = \"a\"\nbody = \"b\"\n")},
		"blocks/tools.toml": {Data: []byte(tools.String())},
	}
}

// BenchmarkLoadTools loads projects of n tools, valid and with a diagnostic in each: the cost per tool stays flat
// as n grows (placing a diagnostic, or reading a tool, is not a scan of every key of the file).
func BenchmarkLoadTools(b *testing.B) {
	for _, bad := range []bool{false, true} {
		for _, n := range []int{300, 3000} {
			fsys := manyTools(n, bad)
			b.Run(fmt.Sprintf("errors=%t/tools=%d", bad, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					p, diags := values.Load(fsys)
					if bad && len(diags) != n || !bad && (len(diags) != 0 || len(p.Tools) != n) {
						b.Fatalf("%d diagnostics: %v", len(diags), diags[:min(3, len(diags))])
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/tool")
			})
		}
	}
}
