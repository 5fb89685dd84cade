package anthropic_test

import (
	"encoding/json"
	"fmt"

	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/provider/anthropic"
)

// A request body read back as the parts a prefix cache sees, and a response's usage counted.
func Example() {
	var doc map[string]any
	_ = json.Unmarshal([]byte(`{"model":"claude-sonnet-4-5","max_tokens":1024,"system":[{"type":"text","text":"Rules.","cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user","content":"Hi."}]}`), &doc)
	cd := anthropic.Codec
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
	_ = json.Unmarshal([]byte(`{"usage":{"input_tokens":3,"cache_read_input_tokens":1024,"output_tokens":5}}`), &r)
	c, err := cd.Usage(provider.Response{Usage: r.Usage, UsageMetadata: r.UsageMetadata})
	fmt.Printf("%+v %v\n", c, err)
	// Output:
	// system "Rules." marker=true
	// message "Hi." marker=false
	// {Input:1027 CacheRead:1024 CacheWrite:0 CacheWrite1h:0 Output:5} <nil>
}
