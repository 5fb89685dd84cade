package values_test

import (
	"strconv"
	"testing"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/values"
)

// BenchmarkCheckRecords checks a records value of 100,000 records of three fields, as a values file of 8 MiB
// holds: the check's paths cost nothing until a message needs them.
func BenchmarkCheckRecords(b *testing.B) {
	v := &blocks.Var{Name: "repos", Type: blocks.TypeRecords, Fields: []*blocks.Var{
		{Name: "n", Type: blocks.TypeInt}, {Name: "owner", Type: blocks.TypeRecord, Fields: []*blocks.Var{{Name: "login", Type: blocks.TypeString}}},
		{Name: "url", Type: blocks.TypeString},
	}}
	recs := make([]any, 100_000)
	for i := range recs {
		recs[i] = map[string]any{"url": "https://x/" + strconv.Itoa(i), "n": int64(i), "owner": map[string]any{"login": "a"}}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, errs := values.TypeCheckAll(v, recs, values.FormatJSON); len(errs) > 0 {
			b.Fatal(errs[0])
		}
	}
}
