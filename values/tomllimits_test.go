package values_test

import (
	"strings"
	"testing"
	"time"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/values"
)

// pathological holds inputs that BurntSushi/toml v1.6.0 takes seconds and gigabytes to decode (blocks/tomllimits.go,
// whose tests hold them too).
var pathological = map[string]string{
	"8000 nested inline tables":  "a = " + strings.Repeat("{b=", 8000) + "1" + strings.Repeat("}", 8000),
	"30000-part dotted header":   "[" + strings.TrimSuffix(strings.Repeat("a.", 30000), ".") + "]\nx = 1",
	"8000 nested arrays":         "a = " + strings.Repeat("[", 8000) + "1" + strings.Repeat("]", 8000),
	"30000-part key under table": "[t]\n" + strings.TrimSuffix(strings.Repeat("a.", 30000), ".") + " = 1",
}

// TestPathologicalTOMLRefusedFast checks that those inputs are refused before they are decoded, and
// quickly: the pre-scan takes well under a millisecond for each, where decoding took 9 to 24 seconds. The bound
// here is loose, so that a slow machine does not fail it; BenchmarkCheckTOMLLimits gives the real figures.
func TestPathologicalTOMLRefusedFast(t *testing.T) {
	for name, in := range pathological {
		start := time.Now()
		vals, _, diags := values.ReadFile(&blocks.Project{Vars: map[string]*blocks.Var{}}, "v.toml", []byte(in), blocks.ScopeSession)
		took := time.Since(start)
		if vals != nil || len(diags) != 1 || !strings.Contains(diags[0].Summary, "slow") {
			t.Errorf("%s: not refused: %v", name, diags)
		}
		if took > 100*time.Millisecond {
			t.Errorf("%s: refused in %v", name, took)
		}
		t.Logf("%s: refused in %v", name, took)
	}
}
