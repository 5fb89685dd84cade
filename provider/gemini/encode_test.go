package gemini_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/provider/gemini"
)

// TestCacheName: an explicit cache's name is a hash of the parts it holds, each as its kind numbered as projection
// numbers its parts (tool 0, system 1, message 2) and its text: the name promptc has always written, so that a
// cache created by an earlier release is found by a later one's requests.
func TestCacheName(t *testing.T) {
	text := "S"
	l := &provider.Layout{Model: provider.Model{Provider: provider.Gemini, Name: "gemini-2.5-flash"}, Mode: provider.CacheExplicit,
		Tools:    []provider.ToolDef{{Name: "t", Description: "d", Schema: json.RawMessage(`{"type":"object"}`)}},
		ToolJSON: []json.RawMessage{json.RawMessage(`{"name":"t"}`)},
		Units: []provider.Unit{
			{Kind: provider.Tool, Text: `{"name":"t"}`, Message: -1},
			{Kind: provider.System, Text: text, Message: -1, Marker: true, Content: provider.Content{Type: provider.TextBlock, Text: &text}},
		}}
	_, create := gemini.Encode(l)
	js, err := provider.CanonicalJSON(create, "")
	if err != nil {
		t.Fatal(err)
	}
	var c struct{ DisplayName string }
	if err := json.Unmarshal(js, &c); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("0\x00{\"name\":\"t\"}\x001\x00S\x00"))
	if want := "promptc-" + hex.EncodeToString(sum[:])[:24]; c.DisplayName != want {
		t.Errorf("cache name %q, want %q", c.DisplayName, want)
	}
}
