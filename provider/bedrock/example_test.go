package bedrock_test

import (
	"encoding/json"
	"fmt"

	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/provider/bedrock"
)

// A request body read back as the parts a prefix cache sees, and a response's usage counted.
func Example() {
	var doc map[string]any
	_ = json.Unmarshal([]byte(`{"system":[{"text":"Rules."},{"cachePoint":{"type":"default"}}],"messages":[{"role":"user","content":[{"text":"Hi."}]}],"inferenceConfig":{"maxTokens":4096}}`), &doc)
	cd := bedrock.Codec
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
	_ = json.Unmarshal([]byte(`{"usage":{"inputTokens":3,"outputTokens":5,"cacheReadInputTokens":1024,"cacheWriteInputTokens":0}}`), &r)
	c, err := cd.Usage(provider.Response{Usage: r.Usage, UsageMetadata: r.UsageMetadata})
	fmt.Printf("%+v %v\n", c, err)
	// Output:
	// system "Rules." marker=true
	// message "Hi." marker=false
	// {Input:1027 CacheRead:1024 CacheWrite:0 CacheWrite1h:0 Output:5} <nil>
}
