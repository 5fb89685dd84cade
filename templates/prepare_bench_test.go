package templates

import (
	"fmt"
	"testing"

	"github.com/promptc/promptc/blocks"
)

// BenchmarkPrepareRecords measures one records value of a thousand records, each with a nested records field,
// through Prepare: the type check, the processing up to the limits and the escaping by trust.
func BenchmarkPrepareRecords(b *testing.B) {
	label := &blocks.Var{Name: "label", Type: blocks.TypeString, Trust: blocks.Untrusted, Trim: true}
	tags := &blocks.Var{Name: "tags", Type: blocks.TypeRecords, Fields: []*blocks.Var{label}, MaxItems: 3}
	name := &blocks.Var{Name: "name", Type: blocks.TypeString, Trust: blocks.Untrusted, MaxRunes: 20}
	stars := &blocks.Var{Name: "stars", Type: blocks.TypeInt, Trust: blocks.Trusted}
	repos := &blocks.Var{Name: "repos", Type: blocks.TypeRecords, Fields: []*blocks.Var{name, stars, tags}, MaxBytes: 1 << 20}
	val := make([]map[string]any, 1000)
	for i := range val {
		val[i] = map[string]any{"name": fmt.Sprintf("repository number %d of many", i), "stars": int64(i),
			"tags": []map[string]any{{"label": " go "}, {"label": "toml"}, {"label": "json"}, {"label": "cli"}}}
	}
	for b.Loop() {
		if _, _, err := Prepare(repos, val, nil); err != nil {
			b.Fatal(err)
		}
	}
}
