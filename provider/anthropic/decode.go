package anthropic

import (
	"fmt"

	"github.com/promptc/promptc/provider"
)

// Check says why doc is not an Anthropic Messages request body, or returns nil.
func Check(doc map[string]any) error {
	fail := provider.Fail("an Anthropic Messages request")
	if err := provider.ForeignKey(doc, "anthropic", fail); err != nil {
		return err
	}
	if m, _ := doc["model"].(string); m == "" {
		return fail("it names no \"model\"")
	}
	if _, ok := doc["toolConfig"]; ok {
		return fail("\"toolConfig\" is Bedrock Converse's or Gemini's")
	}
	if err := provider.TextOrBlocks(doc["system"], "\"system\""); err != nil {
		return fail("%v", err)
	}
	return provider.MessagesError(doc["messages"], fail, provider.MessageRules{Roles: []string{"user", "assistant"},
		Typed: true, Others: provider.OpenAIOnly, OthersAPI: "OpenAI's"})
}

// Decode reads a Messages body: tools, the system prompt (a string or text blocks), the messages; a top-level
// cache_control (automatic caching) marks the last part.
func Decode(doc map[string]any, b *provider.Body) error {
	if err := b.Tools(doc["tools"]); err != nil {
		return err
	}
	switch sys := doc["system"].(type) {
	case nil:
	case string:
		b.Add(provider.Part{Kind: provider.System, Text: sys, Label: "system block 1"})
	case []any:
		for i, blk := range sys {
			b.AddBlock(provider.System, blk, "", fmt.Sprintf("system block %d", i+1))
		}
	default:
		return fmt.Errorf("\"system\" is neither a string nor an array of blocks")
	}
	if err := b.Messages(doc["messages"], "content"); err != nil {
		return err
	}
	if _, auto := doc["cache_control"]; auto && len(b.Parts) > 0 {
		// Automatic caching: the API puts the breakpoint on the last block.
		b.Parts[len(b.Parts)-1].Marker = true
	}
	return nil
}
