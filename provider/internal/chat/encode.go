package chat

import (
	"encoding/json"

	"github.com/promptc/promptc/provider"
)

var ephemeral = &cacheControl{Type: "ephemeral"}

// cacheControl is DashScope's cache_control marker, in Anthropic's shape.
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

// Tool is t as a Chat Completions function tool.
func Tool(t provider.ToolDef) json.RawMessage {
	js, _ := provider.CanonicalJSON(openaiTool{Type: "function", Function: openaiFunction{Name: t.Name, Description: t.Description, Parameters: t.Schema}}, "")
	return js
}

// Text is a chat message's content followed by its tool calls as JSON.
func Text(c provider.Content) string {
	text := ""
	if c.Text != nil {
		text = *c.Text
	}
	if len(c.ToolCalls) > 0 {
		js, _ := provider.CanonicalJSON(openaiCalls(c.ToolCalls), "")
		text += string(js)
	}
	return text
}

type openaiTool struct {
	Type     string         `json:"type"`
	Function openaiFunction `json:"function"`
}

type openaiFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

type openaiBody struct {
	Model          string `json:"model"`
	PromptCacheKey string `json:"prompt_cache_key,omitempty"`
	// PromptCacheRetention is OpenAI's retention, when one is chosen: "in_memory" or "24h".
	PromptCacheRetention string `json:"prompt_cache_retention,omitempty"`
	// PromptCacheOptions turns OpenAI's implicit breakpoint off where promptc places explicit ones.
	PromptCacheOptions *promptCacheOptions `json:"prompt_cache_options,omitempty"`
	// CacheControl is Qwen4's automatic caching: one top-level marker.
	CacheControl *cacheControl     `json:"cache_control,omitempty"`
	Tools        []json.RawMessage `json:"tools,omitempty"`
	Messages     []openaiMessage   `json:"messages"`
}

type openaiMessage struct {
	Role       provider.Role `json:"role"`
	Content    any           `json:"content"` // a string, []textPart, or null
	ToolCalls  []openaiCall  `json:"tool_calls,omitempty"`
	ToolCallID string        `json:"tool_call_id,omitempty"`
}

type textPart struct {
	Type         string        `json:"type"`
	Text         string        `json:"text"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
	// Breakpoint is OpenAI's explicit prompt_cache_breakpoint.
	Breakpoint *breakpoint `json:"prompt_cache_breakpoint,omitempty"`
}

type breakpoint struct {
	Mode string `json:"mode"`
}

type promptCacheOptions struct {
	Mode string `json:"mode"`
	TTL  string `json:"ttl,omitempty"`
}

type openaiCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

func openaiCalls(cs []provider.Call) []openaiCall {
	out := make([]openaiCall, len(cs))
	for i, c := range cs {
		out[i].ID, out[i].Type = c.ID, "function"
		out[i].Function.Name, out[i].Function.Arguments = c.Name, string(c.Arguments)
	}
	return out
}

// message is c as a chat message.
func message(c provider.Content) openaiMessage {
	m := openaiMessage{Role: c.Role, ToolCallID: c.ToolCallID}
	if c.Text != nil {
		m.Content = *c.Text
	}
	if len(c.ToolCalls) > 0 {
		m.ToolCalls = openaiCalls(c.ToolCalls)
	}
	return m
}

// Encode writes a Chat Completions body for l's provider (OpenAI, DashScope or DeepSeek): the tools, the system
// message (for OpenAI's explicit breakpoints, one message of a text part per segment), the messages; a marked
// message's content becomes one text part carrying the marker (cache_control; OpenAI's prompt_cache_breakpoint).
func Encode(l *provider.Layout) any {
	m := l.Model
	body := openaiBody{Model: m.Name, PromptCacheKey: l.CacheKey, Tools: l.ToolJSON}
	explicitOpenAI := m.Provider == provider.OpenAI && l.Mode == provider.CacheExplicit
	switch {
	case explicitOpenAI:
		body.PromptCacheOptions = &promptCacheOptions{Mode: "explicit"}
		if l.TTL == provider.TTL30m {
			body.PromptCacheOptions.TTL = "30m"
		}
	case m.Provider == provider.OpenAI && l.TTL != provider.TTLDefault:
		body.PromptCacheRetention = l.TTL.String()
	case m.Provider == provider.DashScope && l.Mode == provider.CacheAutomatic:
		body.CacheControl = control(m.Lifetime(l.TTL))
	}
	for i := range l.Units {
		p := &l.Units[i]
		if p.Kind == provider.Tool {
			continue
		}
		om := message(p.Content)
		if explicitOpenAI && p.Kind == provider.System {
			// One system message, each segment a text part of it.
			tp := textPart{Type: "text", Text: p.Text}
			if p.Marker {
				tp.Breakpoint = &breakpoint{Mode: "explicit"}
			}
			if n := len(body.Messages); n > 0 && body.Messages[n-1].Role == "system" {
				sm := &body.Messages[n-1]
				sm.Content = append(sm.Content.([]textPart), tp)
				continue
			}
			om.Content = []textPart{tp}
			body.Messages = append(body.Messages, om)
			continue
		}
		if p.Marker && (l.Mode == provider.CacheExplicit || explicitOpenAI) {
			text, _ := om.Content.(string)
			tp := textPart{Type: "text", Text: text}
			if explicitOpenAI {
				tp.Breakpoint = &breakpoint{Mode: "explicit"}
			} else {
				tp.CacheControl = control(p.TTL)
			}
			om.Content = []textPart{tp}
		}
		body.Messages = append(body.Messages, om)
	}
	return body
}
