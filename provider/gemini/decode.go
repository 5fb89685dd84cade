package gemini

import (
	"fmt"
	"slices"

	"github.com/promptc/promptc/provider"
)

// Check says why doc is not a Gemini generateContent (or cachedContents create) request body, or returns nil.
func Check(doc map[string]any) error {
	fail := provider.Fail("a Gemini generateContent request")
	if err := provider.ForeignKey(doc, "gemini", fail); err != nil {
		return err
	}
	for _, k := range []string{"messages", "system"} {
		if _, ok := doc[k]; ok {
			return fail("%q is not Gemini's: its request holds \"contents\" and \"systemInstruction\"", k)
		}
	}
	contents, ok := doc["contents"].([]any)
	if !ok {
		return fail("it has no \"contents\" array")
	}
	for i, c := range contents {
		m, ok := c.(map[string]any)
		if !ok {
			return fail("content %d is not an object", i+1)
		}
		if role, ok := m["role"]; ok {
			if r, _ := role.(string); !slices.Contains([]string{"user", "model", "function"}, r) {
				return fail("content %d's role is %s: Gemini's roles are user and model", i+1, provider.Describe(role))
			}
		}
		if err := provider.Objects(m["parts"], fmt.Sprintf("content %d's \"parts\"", i+1)); err != nil {
			return fail("%v", err)
		}
	}
	if si, ok := doc["systemInstruction"]; ok {
		m, ok := si.(map[string]any)
		if !ok {
			return fail("\"systemInstruction\" is not an object")
		}
		if err := provider.Objects(m["parts"], "\"systemInstruction\"'s \"parts\""); err != nil {
			return fail("%v", err)
		}
	}
	return nil
}

// Decode reads a generateContent (or cachedContents create) body: the cached content it names, tools, the system
// instruction and contents.
func Decode(doc map[string]any, b *provider.Body) error {
	if name, ok := doc["cachedContent"].(string); ok {
		b.Add(provider.Part{Kind: provider.Cached, Text: name, Marker: true, Label: "cachedContent"})
	}
	if err := b.Tools(doc["tools"]); err != nil {
		return err
	}
	if si, ok := doc["systemInstruction"].(map[string]any); ok {
		parts, _ := si["parts"].([]any)
		for i, p := range parts {
			b.AddBlock(provider.System, p, "", fmt.Sprintf("system instruction part %d", i+1))
		}
	}
	contents, _ := doc["contents"].([]any)
	msgs := make([]any, 0, len(contents))
	for _, c := range contents {
		m, _ := c.(map[string]any)
		if m == nil {
			continue
		}
		msgs = append(msgs, map[string]any{"role": m["role"], "content": m["parts"]})
	}
	return b.Messages(msgs, "content")
}
