package bedrock

import (
	"encoding/json"
	"slices"

	"github.com/promptc/promptc/provider"
)

// The body of AWS Bedrock's Converse API. It holds a conversation as Anthropic's does (alternating user and
// assistant turns of content blocks, the system apart), so each provider-neutral block is written in Converse's
// shape here.

type bedrockBody struct {
	System          []bedrockBlock     `json:"system,omitempty"`
	Messages        []bedrockMessage   `json:"messages"`
	ToolConfig      *bedrockToolConfig `json:"toolConfig,omitempty"`
	InferenceConfig bedrockInference   `json:"inferenceConfig"`
}

type bedrockMessage struct {
	Role    provider.Role  `json:"role"`
	Content []bedrockBlock `json:"content"`
}

// bedrockBlock is one Converse content block: a text, a tool use, a tool result, or a cache point.
type bedrockBlock struct {
	Text       *string            `json:"text,omitempty"`
	ToolUse    *bedrockToolUse    `json:"toolUse,omitempty"`
	ToolResult *bedrockToolResult `json:"toolResult,omitempty"`
	CachePoint *bedrockCachePoint `json:"cachePoint,omitempty"`
}

type bedrockCachePoint struct {
	Type string `json:"type"`
	TTL  string `json:"ttl,omitempty"`
}

type bedrockToolUse struct {
	ToolUseID string          `json:"toolUseId"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
}

type bedrockToolResult struct {
	ToolUseID string          `json:"toolUseId"`
	Content   []bedrockResult `json:"content"`
}

// bedrockResult is a tool result's content: a JSON object as json, anything else as text.
type bedrockResult struct {
	Text *string         `json:"text,omitempty"`
	JSON json.RawMessage `json:"json,omitempty"`
}

type bedrockToolConfig struct {
	Tools []json.RawMessage `json:"tools"`
}

// bedrockTool is one entry of toolConfig.tools: a tool's spec, or the cache point that follows the specs.
type bedrockTool struct {
	ToolSpec   *bedrockToolSpec   `json:"toolSpec,omitempty"`
	CachePoint *bedrockCachePoint `json:"cachePoint,omitempty"`
}

type bedrockToolSpec struct {
	Name        string        `json:"name"`
	Description string        `json:"description"`
	InputSchema bedrockSchema `json:"inputSchema"`
}

type bedrockSchema struct {
	JSON json.RawMessage `json:"json"`
}

type bedrockInference struct {
	MaxTokens int `json:"maxTokens"`
}

func cachePoint(t provider.TTL) bedrockBlock {
	cp := &bedrockCachePoint{Type: "default"}
	if t == provider.TTL1h {
		cp.TTL = "1h"
	}
	return bedrockBlock{CachePoint: cp}
}

// Tool is t as a toolConfig.tools entry.
func Tool(t provider.ToolDef) json.RawMessage {
	js, _ := provider.CanonicalJSON(bedrockTool{ToolSpec: &bedrockToolSpec{Name: t.Name, Description: t.Description, InputSchema: bedrockSchema{JSON: t.Schema}}}, "")
	return js
}

// Text is c's Converse block as JSON.
func Text(c provider.Content) string {
	js, _ := provider.CanonicalJSON(bedrockContent(c), "")
	return string(js)
}

// bedrockContent is a block as a Converse block.
func bedrockContent(blk provider.Content) bedrockBlock {
	switch blk.Type {
	case "tool_use":
		return bedrockBlock{ToolUse: &bedrockToolUse{ToolUseID: blk.ID, Name: blk.Name, Input: blk.Input}}
	case "tool_result":
		r := &bedrockToolResult{ToolUseID: blk.ToolUseID, Content: []bedrockResult{}}
		if blk.Text != nil {
			if c := *blk.Text; len(c) > 0 && c[0] == '{' && json.Valid([]byte(c)) {
				r.Content = append(r.Content, bedrockResult{JSON: json.RawMessage(c)})
			} else {
				r.Content = append(r.Content, bedrockResult{Text: blk.Text})
			}
		}
		return bedrockBlock{ToolResult: r}
	}
	return bedrockBlock{Text: blk.Text}
}

// Encode writes the Converse body: the model is not in it (the API takes it in the URL, /model/ID/converse).
// A cache marker is a cachePoint block after the part it follows.
func Encode(l *provider.Layout) any {
	body := bedrockBody{InferenceConfig: bedrockInference{MaxTokens: l.MaxTokens}}
	if len(l.ToolJSON) > 0 {
		body.ToolConfig = &bedrockToolConfig{Tools: l.ToolJSON}
		if t := l.MarkedTools(); t != nil {
			// The Converse API's tools checkpoint: a tool of its own, {"cachePoint": …}, after the specs it caches.
			cp, _ := provider.CanonicalJSON(bedrockTool{CachePoint: cachePoint(t.TTL).CachePoint}, "")
			body.ToolConfig.Tools = append(slices.Clip(l.ToolJSON), cp)
		}
	}
	for i := range l.Units {
		p := &l.Units[i]
		switch p.Kind {
		case provider.System:
			text := p.Text
			body.System = append(body.System, bedrockBlock{Text: &text})
			if p.Marker {
				body.System = append(body.System, cachePoint(p.TTL))
			}
		case provider.Message:
			if n := len(body.Messages); n == 0 || n <= p.Message {
				body.Messages = append(body.Messages, bedrockMessage{Role: p.Role})
			}
			m := &body.Messages[len(body.Messages)-1]
			m.Content = append(m.Content, bedrockContent(p.Content))
			if p.Marker {
				m.Content = append(m.Content, cachePoint(p.TTL))
			}
		}
	}
	return body
}
