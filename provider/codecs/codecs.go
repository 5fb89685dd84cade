package codecs

import (
	"fmt"
	"strings"

	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/provider/anthropic"
	"github.com/promptc/promptc/provider/bedrock"
	"github.com/promptc/promptc/provider/dashscope"
	"github.com/promptc/promptc/provider/deepseek"
	"github.com/promptc/promptc/provider/gemini"
	"github.com/promptc/promptc/provider/internal/chat"
	"github.com/promptc/promptc/provider/openai"
)

// all are the codecs, in the order of provider.All: a new provider's package adds its Codec here.
var all = []provider.Codec{anthropic.Codec, openai.Codec, dashscope.Codec, bedrock.Codec, gemini.Codec, deepseek.Codec}

// For returns provider p's codec, nil for a provider promptc does not know.
func For(p provider.Provider) provider.Codec {
	if int(p) < len(all) {
		return all[p]
	}
	return nil
}

// Detect tells a request body's provider from its shape (docs/usage.md): Gemini's contents, Bedrock Converse's
// content blocks without a type, the OpenAI Responses API's input, Anthropic's top-level system or typed content
// blocks, else an OpenAI-compatible Chat Completions body, DashScope's or DeepSeek's by its model's name.
func Detect(doc map[string]any) provider.Provider {
	if doc["contents"] != nil || doc["systemInstruction"] != nil || doc["cachedContent"] != nil {
		return provider.Gemini
	}
	if doc["toolConfig"] != nil || doc["inferenceConfig"] != nil {
		return provider.Bedrock
	}
	msgs, _ := doc["messages"].([]any)
	if chat.IsResponses(doc) {
		return provider.OpenAI
	}
	untyped, typed := false, false
	blocks := func(list any) {
		items, _ := list.([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			if m == nil {
				continue
			}
			if _, ok := m["type"]; ok {
				typed = true
			} else if m["text"] != nil || m["cachePoint"] != nil || m["toolUse"] != nil || m["toolResult"] != nil {
				untyped = true
			}
		}
	}
	if sys, ok := doc["system"].([]any); ok {
		blocks(sys)
	}
	for _, m := range msgs {
		if mm, ok := m.(map[string]any); ok {
			blocks(mm["content"])
		}
	}
	if untyped && !typed {
		return provider.Bedrock
	}
	if doc["system"] != nil {
		return provider.Anthropic
	}
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		items, _ := mm["content"].([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			if t, _ := m["type"].(string); t == "tool_use" || t == "tool_result" {
				return provider.Anthropic
			}
		}
	}
	if tools, ok := doc["tools"].([]any); ok && len(tools) > 0 {
		if t, ok := tools[0].(map[string]any); ok && t["input_schema"] != nil {
			return provider.Anthropic
		}
	}
	model, _ := doc["model"].(string)
	switch {
	case strings.HasPrefix(model, "qwen") || strings.HasPrefix(model, "qwq"):
		return provider.DashScope
	case strings.HasPrefix(model, "deepseek"):
		return provider.DeepSeek
	}
	return provider.OpenAI
}

// DetectResponse tells a response body's provider from its usage fields (docs/usage.md), and among the
// OpenAI-compatible APIs from DeepSeek's own fields or the model's name; id and object are the body's, to tell an
// OpenAI Responses body (r.Responses is then set).
func DetectResponse(r *provider.Response, model, id, object string, isError bool) (provider.Provider, error) {
	u := r.Usage
	switch {
	case r.UsageMetadata != nil:
		return provider.Gemini, nil
	case u == nil && isError:
		return 0, fmt.Errorf("an error response, with no usage")
	case u == nil:
		return 0, fmt.Errorf("no \"usage\" or \"usageMetadata\": not a response body of a known provider (a wrapper holds it under \"response\")")
	case u.BedrockInputTokens != nil:
		return provider.Bedrock, nil
	case u.InputTokens != nil && (object == "response" || strings.HasPrefix(id, "resp_")):
		r.Responses = true
		return provider.OpenAI, nil
	case u.InputTokens != nil:
		return provider.Anthropic, nil
	case u.PromptCacheHitTokens != nil || u.PromptCacheMissTokens != nil || strings.HasPrefix(model, "deepseek"):
		return provider.DeepSeek, nil
	case u.PromptTokens != nil && (strings.HasPrefix(model, "qwen") || strings.HasPrefix(model, "qwq") ||
		u.PromptTokensDetails != nil && (u.PromptTokensDetails.CacheType != "" || u.PromptTokensDetails.CacheCreationInputTokens > 0)):
		return provider.DashScope, nil
	case u.PromptTokens != nil:
		return provider.OpenAI, nil
	}
	return 0, fmt.Errorf("\"usage\" holds no input token count this reader knows (input_tokens, prompt_tokens, inputTokens)")
}
