package anthropic

import (
	"encoding/json"
	"slices"

	"github.com/promptc/promptc/provider"
)

var ephemeral = &cacheControl{Type: "ephemeral"}

type cacheControl struct {
	Type string `json:"type"`
	TTL  string `json:"ttl,omitempty"`
}

// control is a cache_control marker with lifetime t: "ttl" only for the longer lifetime (5 minutes is the
// default, sent without one).
func control(t provider.TTL) *cacheControl {
	if t == provider.TTL1h {
		return &cacheControl{Type: "ephemeral", TTL: "1h"}
	}
	return ephemeral
}

type anthropicTool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"input_schema"`
	CacheControl *cacheControl   `json:"cache_control,omitempty"`
}

type anthropicBody struct {
	Model     string `json:"model"`
	MaxTokens int    `json:"max_tokens"`
	// CacheControl is automatic caching's one top-level marker.
	CacheControl *cacheControl      `json:"cache_control,omitempty"`
	Tools        []json.RawMessage  `json:"tools,omitempty"`
	System       []contentBlock     `json:"system,omitempty"`
	Messages     []anthropicMessage `json:"messages"`
}

type anthropicMessage struct {
	Role    provider.Role `json:"role"`
	Content any           `json:"content"` // a string, or []contentBlock
}

// contentBlock is an Anthropic content block: text, tool_use or tool_result.
type contentBlock struct {
	Type         string          `json:"type"`
	Text         *string         `json:"text,omitempty"`
	ID           string          `json:"id,omitempty"`
	Name         string          `json:"name,omitempty"`
	Input        json.RawMessage `json:"input,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	Content      *string         `json:"content,omitempty"`
	CacheControl *cacheControl   `json:"cache_control,omitempty"`
}

// block is c as an Anthropic content block.
func block(c provider.Content) contentBlock {
	b := contentBlock{Type: c.Type, ID: c.ID, Name: c.Name, Input: c.Input, ToolUseID: c.ToolUseID}
	if c.Type == provider.ToolResultBlock {
		b.Content = c.Text
	} else {
		b.Text = c.Text
	}
	return b
}

// Tool is t as a Messages tool definition.
func Tool(t provider.ToolDef) json.RawMessage {
	js, _ := provider.CanonicalJSON(anthropicTool{Name: t.Name, Description: t.Description, InputSchema: t.Schema}, "")
	return js
}

// Text is c's content block as JSON.
func Text(c provider.Content) string {
	js, _ := provider.CanonicalJSON(block(c), "")
	return string(js)
}

// Encode writes a Messages body: the tools (the last with cache_control when a marker follows them), the system
// blocks, the messages of content blocks; cache_control on each marked block, or once at the top for automatic
// caching. A message of one unmarked text block is sent as a plain string.
func Encode(l *provider.Layout) any {
	body := anthropicBody{Model: l.Model.Name, MaxTokens: l.MaxTokens, Tools: l.ToolJSON}
	if p := l.MarkedTools(); p != nil {
		t := l.Tools[len(l.ToolJSON)-1]
		js, _ := provider.CanonicalJSON(anthropicTool{Name: t.Name, Description: t.Description,
			InputSchema: t.Schema, CacheControl: control(p.TTL)}, "")
		body.Tools = append(slices.Clip(l.ToolJSON[:len(l.ToolJSON)-1]), js)
	}
	if l.Mode == provider.CacheAutomatic {
		body.CacheControl = control(l.Model.Lifetime(l.TTL))
	}
	for i := range l.Units {
		p := &l.Units[i]
		blk := block(p.Content)
		if p.Marker && l.Mode == provider.CacheExplicit {
			blk.CacheControl = control(p.TTL)
		}
		switch p.Kind {
		case provider.System:
			body.System = append(body.System, blk)
		case provider.Message:
			if n := len(body.Messages); n == 0 || n <= p.Message {
				body.Messages = append(body.Messages, anthropicMessage{Role: p.Role})
			}
			m := &body.Messages[len(body.Messages)-1]
			blocks, _ := m.Content.([]contentBlock)
			m.Content = append(blocks, blk)
		}
	}
	// A message of one unmarked text block is sent as a plain string, as people write it.
	for i := range body.Messages {
		m := &body.Messages[i]
		if bs := m.Content.([]contentBlock); len(bs) == 1 && bs[0].Type == "text" && bs[0].CacheControl == nil {
			m.Content = *bs[0].Text
		}
	}
	return body
}
