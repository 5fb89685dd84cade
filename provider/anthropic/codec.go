package anthropic

import (
	"encoding/json"

	"github.com/promptc/promptc/provider"
)

// Codec is the provider's wire format, in its three directions.
var Codec provider.Codec = codec{}

type codec struct{}

func (codec) Provider() provider.Provider                        { return provider.Anthropic }
func (codec) Check(doc map[string]any) error                     { return Check(doc) }
func (codec) Decode(doc map[string]any, b *provider.Body) error  { return Decode(doc, b) }
func (codec) Usage(r provider.Response) (provider.Counts, error) { return Usage(r) }
func (codec) Blocky() bool                                       { return true }
func (codec) Tool(t provider.ToolDef) json.RawMessage            { return Tool(t) }
func (codec) Text(c provider.Content) string                     { return Text(c) }
func (codec) Encode(l *provider.Layout) (body, cache any)        { return Encode(l), nil }
