package bedrock

import (
	"fmt"

	"github.com/promptc/promptc/provider"
)

// Check says why doc is not a Bedrock Converse request body, or returns nil.
func Check(doc map[string]any) error {
	fail := provider.Fail("a Bedrock Converse request")
	if err := provider.ForeignKey(doc, "bedrock", fail); err != nil {
		return err
	}
	_, hasMsgs := doc["messages"]
	_, hasSys := doc["system"]
	if !hasMsgs && !hasSys {
		return fail("it has neither \"messages\" nor \"system\"")
	}
	if sys, ok := doc["system"]; ok {
		if err := provider.UntypedBlocks(sys, "\"system\""); err != nil {
			return fail("%v", err)
		}
	}
	if !hasMsgs {
		return nil
	}
	return provider.MessagesError(doc["messages"], fail, provider.MessageRules{Roles: []string{"user", "assistant"}})
}

// Decode reads a Converse body: toolConfig.tools, system and messages, with cachePoint blocks after what they
// mark.
func Decode(doc map[string]any, b *provider.Body) error {
	if tc, ok := doc["toolConfig"].(map[string]any); ok {
		if err := b.Tools(tc["tools"]); err != nil {
			return err
		}
	}
	if sys, ok := doc["system"].([]any); ok {
		n := 0
		for _, blk := range sys {
			if m, ok := blk.(map[string]any); ok && m["cachePoint"] != nil {
				b.MarkLast(provider.System)
				continue
			}
			n++
			b.AddBlock(provider.System, blk, "", fmt.Sprintf("system block %d", n))
		}
	}
	return b.Messages(doc["messages"], "content")
}
