package provider

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/promptc/promptc/internal/enum"
)

// Provider is an API whose request bodies promptc projects, reads back (promptc miss) and whose responses it counts
// (promptc usage). Its names are Names(), in the order of the constants: the one list for promptc.toml's [[model]]
// rows, the --provider flags and the model table. A Provider is a flag.Value and an encoding.TextMarshaler and
// TextUnmarshaler, so that a flag or a configuration file parses it the same way.
type Provider uint8

const (
	// Anthropic is the Messages API: the system prompt as text blocks, cached up to explicit cache_control
	// breakpoints, or automatically with one top-level cache_control.
	Anthropic Provider = iota
	// OpenAI is the Chat Completions API: the longest prefix seen before is cached automatically; from GPT-5.6 on,
	// explicit prompt_cache_breakpoint markers too.
	OpenAI
	// DashScope is Alibaba Cloud Model Studio's OpenAI-compatible Chat Completions API, whose explicit cache matches
	// whole messages up to cache_control markers.
	DashScope
	// Bedrock is AWS Bedrock's Converse API: cachePoint blocks in system, messages and toolConfig.tools.
	Bedrock
	// Gemini is the Google Gemini API: implicit caching, or an explicit cachedContents resource that
	// generateContent references by name.
	Gemini
	// DeepSeek is DeepSeek's OpenAI-compatible Chat Completions API, cached automatically on disk in prefix units.
	DeepSeek
)

// names is the one list of providers promptc knows (docs/providers.md), in the order of the constants.
var names = []string{"anthropic", "openai", "dashscope", "bedrock", "gemini", "deepseek"}

// Names returns the providers' names, in order.
func Names() []string { return slices.Clone(names) }

// All returns every provider, in order.
func All() []Provider {
	out := make([]Provider, len(names))
	for i := range out {
		out[i] = Provider(i)
	}
	return out
}

var providers = enum.New[Provider]("Provider", "provider", names...).Hint(": use " + enum.OrList(names))

func (p Provider) String() string { return providers.String(p) }

// Parse returns the provider named s.
func Parse(s string) (Provider, error) { return providers.Parse(s) }

// Known reports whether s names a provider.
func Known(s string) bool { _, ok := providers.Lookup(s); return ok }

// Set parses s into p (flag.Value).
func (p *Provider) Set(s string) error { return providers.Set(p, s) }

// MarshalText returns p's name.
func (p Provider) MarshalText() ([]byte, error) { return providers.Marshal(p) }

// UnmarshalText parses a provider's name.
func (p *Provider) UnmarshalText(b []byte) error { return p.Set(string(b)) }

// QuotedList is the providers' names quoted, as a sentence: "anthropic", "openai", … or "deepseek".
func QuotedList() string {
	q := make([]string, len(names))
	for i, p := range names {
		q[i] = `"` + p + `"`
	}
	return enum.OrList(q)
}

// CanonicalJSON encodes v as encoding/json does, with map keys sorted, but without HTML escaping and without the
// final newline, indented by indent ("" for compact): the bytes of every request body promptc writes.
func CanonicalJSON(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
