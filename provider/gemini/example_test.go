package gemini_test

import (
	"encoding/json"
	"fmt"

	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/provider/gemini"
)

// A request body read back as the parts a prefix cache sees, and a response's usage counted.
func Example() {
	var doc map[string]any
	_ = json.Unmarshal([]byte(`{"cachedContent":"cachedContents/promptc-1","contents":[{"role":"user","parts":[{"text":"Hi."}]}],"generationConfig":{"maxOutputTokens":4096}}`), &doc)
	cd := gemini.Codec
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
	_ = json.Unmarshal([]byte(`{"usageMetadata":{"promptTokenCount":1100,"cachedContentTokenCount":1024,"candidatesTokenCount":5}}`), &r)
	c, err := cd.Usage(provider.Response{Usage: r.Usage, UsageMetadata: r.UsageMetadata})
	fmt.Printf("%+v %v\n", c, err)
	// Output:
	// cached content "cachedContents/promptc-1" marker=true
	// message "Hi." marker=false
	// {Input:1100 CacheRead:1024 CacheWrite:0 CacheWrite1h:0 Output:5} <nil>
}
