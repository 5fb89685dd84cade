package provider

import "encoding/json"

// The provider-neutral request that projection lays out and a provider package encodes (Codec.Encode): tools, the
// system text in blocks, the messages in blocks, each block with the cache marker projection placed after it.

// Role is a message's role: "user", "assistant" or "tool" (a tool's result), or "system" for a chat API's system
// message.
type Role = string

// ToolDef is a native tool definition: Schema is its parameters' JSON Schema, canonical JSON.
type ToolDef struct {
	Name, Description string
	Schema            json.RawMessage
}

// Call is a tool call an assistant made: Arguments is a JSON object in canonical form.
type Call struct {
	ID, Name  string
	Arguments json.RawMessage
}

// Content types of a block, for the providers whose messages are lists of content blocks.
const (
	TextBlock       = "text"
	ToolUseBlock    = "tool_use"
	ToolResultBlock = "tool_result"
)

// Content is what a block of a request holds beyond its kind.
type Content struct {
	// Type is TextBlock, ToolUseBlock or ToolResultBlock for the providers whose messages are lists of content
	// blocks (Anthropic, Bedrock, Gemini); "" for a chat message (OpenAI, DashScope, DeepSeek).
	Type string
	// Text is a text block's text, a tool result's content (nil: none) or a chat message's content (nil: null).
	Text *string
	// ID, Name and Input are a tool use's call.
	ID, Name string
	Input    json.RawMessage
	// ToolUseID is the call a tool result answers.
	ToolUseID string
	// Role is a chat message's role; ToolCalls the calls an assistant's chat message makes; ToolCallID the call a
	// chat tool message answers.
	Role       Role
	ToolCalls  []Call
	ToolCallID string
}

// Unit is one unit of a request as projection lays it out: a tool (Kind Tool), a piece of the system text
// (System) or a message or content block of one (Message).
type Unit struct {
	Kind Region
	// Role is a message block's role (for the providers of content blocks, its side: a tool result is the user's).
	Role Role
	// Text is the bytes the block holds, as counted.
	Text string
	// Message is the index of the body's message holding the block; -1 for tools and a system apart.
	Message int
	// Marker is set when a cache marker follows the block, TTL its lifetime (TTLDefault: the provider's default,
	// sent without one).
	Marker bool
	TTL    TTL
	// Content is the block as sent.
	Content Content
}

// Layout is a request as projection lays it out, for a provider package to write.
type Layout struct {
	Model Model
	// Mode is the cache mode in force; TTL the lifetime chosen (TTLDefault when none was).
	Mode CacheMode
	TTL  TTL
	// MaxTokens is the reply's limit.
	MaxTokens int
	// Tools are the tool definitions, ToolJSON each as the provider's JSON (Codec.Tool), in order.
	Tools    []ToolDef
	ToolJSON []json.RawMessage
	// Units are the request's blocks in cached order: the tools' first, then the system's, then the messages'.
	Units []Unit
	// CacheKey is OpenAI's prompt_cache_key ("" for none).
	CacheKey string
}

// MarkedTools returns the last tool's block when a cache marker follows the tools (under explicit caching), else
// nil.
func (l *Layout) MarkedTools() *Unit {
	n := len(l.ToolJSON)
	if n == 0 || n > len(l.Units) || l.Units[n-1].Kind != Tool || !l.Units[n-1].Marker || l.Mode != CacheExplicit {
		return nil
	}
	return &l.Units[n-1]
}
