package chat

import (
	"fmt"
	"strings"

	"github.com/promptc/promptc/provider"
)

// IsResponses tells an OpenAI Responses body from a Chat Completions one.
func IsResponses(doc map[string]any) bool {
	_, ok := doc["messages"]
	return !ok && (doc["input"] != nil || doc["instructions"] != nil)
}

// Check says why doc is not a request body of api (its name as an error says what was expected: "a DashScope
// (OpenAI-compatible) request"), an OpenAI-compatible Chat Completions or Responses API, or returns nil.
func Check(doc map[string]any, api string) error {
	fail := provider.Fail(api)
	own := "openai"
	if IsResponses(doc) {
		own = "responses"
	}
	if err := provider.ForeignKey(doc, own, fail); err != nil {
		return err
	}
	if m, _ := doc["model"].(string); m == "" {
		return fail("it names no \"model\"")
	}
	if own == "responses" {
		if _, ok := doc["system"]; ok {
			return fail("a top-level \"system\" is Anthropic's and Bedrock Converse's: this API's system prompt is \"instructions\"")
		}
		return nil
	}
	if _, ok := doc["system"]; ok {
		return fail("a top-level \"system\" is Anthropic's and Bedrock Converse's: this API's system prompt is a system message")
	}
	if _, ok := doc["toolConfig"]; ok {
		return fail("\"toolConfig\" is Bedrock Converse's or Gemini's")
	}
	return provider.MessagesError(doc["messages"], fail, provider.MessageRules{Roles: []string{"system", "developer", "user", "assistant", "tool", "function"},
		Typed: true, Null: true, Others: provider.AnthropicOnly, OthersAPI: "Anthropic's"})
}

// Decode reads a Chat Completions body, or a Responses one.
func Decode(doc map[string]any, b *provider.Body) error {
	if IsResponses(doc) {
		return responses(doc, b)
	}
	return chat(doc, b)
}

// chat reads an OpenAI-compatible Chat Completions body (OpenAI, DashScope, DeepSeek): the leading system and
// developer messages are the system prompt.
func chat(doc map[string]any, b *provider.Body) error {
	if err := b.Tools(doc["tools"]); err != nil {
		return err
	}
	start := len(b.Parts)
	if err := b.Messages(doc["messages"], "content"); err != nil {
		return err
	}
	inSystem := true
	for i := start; i < len(b.Parts); i++ {
		p := &b.Parts[i]
		if p.Head != "" {
			role, _, _ := strings.Cut(p.Head, " ")
			inSystem = inSystem && (role == "system" || role == "developer")
		}
		if inSystem {
			p.Kind = provider.System
		}
	}
	return nil
}

// responses reads an OpenAI Responses API body: instructions, then the input items.
func responses(doc map[string]any, b *provider.Body) error {
	if err := b.Tools(doc["tools"]); err != nil {
		return err
	}
	if s, ok := doc["instructions"].(string); ok {
		b.Add(provider.Part{Kind: provider.System, Text: s, Label: "instructions"})
	}
	switch in := doc["input"].(type) {
	case nil:
	case string:
		b.Add(provider.Part{Kind: provider.Message, Head: "user", Text: in, Label: "input"})
	case []any:
		var msgs []any
		for _, it := range in {
			m, _ := it.(map[string]any)
			if m == nil {
				continue
			}
			if _, isMsg := m["role"]; isMsg {
				msgs = append(msgs, m)
				continue
			}
			t, _ := m["type"].(string)
			msgs = append(msgs, map[string]any{"role": t, "content": []any{m}})
		}
		return b.Messages(msgs, "content")
	default:
		return fmt.Errorf("\"input\" is neither a string nor an array")
	}
	return nil
}
