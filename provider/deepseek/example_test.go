package deepseek_test

import (
	"encoding/json"
	"fmt"

	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/provider/deepseek"
)

// A request body read back as the parts a prefix cache sees, and a response's usage counted.
func Example() {
	var doc map[string]any
	_ = json.Unmarshal([]byte(`{"model":"deepseek-chat","messages":[{"role":"system","content":"Rules."},{"role":"user","content":"Hi."}]}`), &doc)
	cd := deepseek.Codec
	if err := cd.Check(doc); err != nil {
		fmt.Println(err)
		return
	}
	b := &provider.Body{Provider: cd.Provider()}
	if err := cd.Decode(doc, b); err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range b.Parts {
		fmt.Printf("%s %q marker=%v\n", p.Kind, p.Text, p.Marker)
	}
	var r struct {
		Usage         *provider.Usage
		UsageMetadata *provider.UsageMetadata
	}
	_ = json.Unmarshal([]byte(`{"usage":{"prompt_tokens":1100,"completion_tokens":5,"prompt_cache_hit_tokens":1024,"prompt_cache_miss_tokens":76}}`), &r)
	c, err := cd.Usage(provider.Response{Usage: r.Usage, UsageMetadata: r.UsageMetadata})
	fmt.Printf("%+v %v\n", c, err)
	// Output:
	// system "Rules." marker=false
	// message "Hi." marker=false
	// {Input:1100 CacheRead:1024 CacheWrite:0 CacheWrite1h:0 Output:5} <nil>
}
