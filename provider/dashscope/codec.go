package dashscope

import (
	"encoding/json"

	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/provider/internal/chat"
)

// Codec is the provider's wire format, in its three directions.
var Codec provider.Codec = codec{}

type codec struct{}

func (codec) Provider() provider.Provider { return provider.DashScope }

// Check says why doc is not a DashScope (OpenAI-compatible) request body, or returns nil.
func (codec) Check(doc map[string]any) error {
	return chat.Check(doc, "a DashScope (OpenAI-compatible) request")
}

func (codec) Decode(doc map[string]any, b *provider.Body) error  { return chat.Decode(doc, b) }
func (codec) Usage(r provider.Response) (provider.Counts, error) { return chat.Usage(r) }
func (codec) Blocky() bool                                       { return false }
func (codec) Tool(t provider.ToolDef) json.RawMessage            { return chat.Tool(t) }
func (codec) Text(c provider.Content) string                     { return chat.Text(c) }
func (codec) Encode(l *provider.Layout) (body, cache any)        { return chat.Encode(l), nil }
