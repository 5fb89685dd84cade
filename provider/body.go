package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/promptc/promptc/internal/enum"
	"github.com/promptc/promptc/source"
)

// Region says where a part of a request sits in the provider's cached order: tools, then the system prompt, then the
// messages.
type Region uint8

const (
	// Cached is Gemini's cachedContent: the name of an explicit cache the request reads first.
	Cached Region = iota
	// Tool is a tool definition.
	Tool
	// System is a piece of the system prompt (a text block, or a system message).
	System
	// Message is a content block of a message (a whole message when its content is one string).
	Message
)

var kindNames = []string{"cached content", "tool", "system", "message"}

var kinds = enum.New[Region]("Kind", "part kind", kindNames...)

func (k Region) String() string { return kinds.String(k) }

// Part is one unit of a request body as a prefix cache sees it, as a provider package decodes it. Two requests share
// a prefix up to a part when every part before it is equal: the same kind, the same Head and the same Text. Cache
// markers are not content.
type Part struct {
	Kind Region
	// Head is what opens a message besides its content: its role (and a tool result's call id), on the message's
	// first part; "" on the other parts of a message and on tools and system parts.
	Head string
	// Text is the part's bytes: a text block's text; a tool's, a tool call's or any other block's JSON, with its
	// keys sorted and its cache markers removed.
	Text string
	// Marker is set when a cache breakpoint follows the part (cache_control, cachePoint,
	// prompt_cache_breakpoint; Anthropic's top-level cache_control marks the last part).
	Marker bool
	// Label names the part for a person: `system block 2`, `message 3 (user), block 1`, `tool 1 "search"`.
	Label string
}

// Body is a request body read as its parts, in cached order.
type Body struct {
	// Provider is the API the body is for.
	Provider Provider
	// Model is the body's model ("" where the body does not carry it: Bedrock puts it in the URL).
	Model string
	Parts []Part
}

// System returns the system prompt's text: its system parts' texts joined, which for a body promptc project
// built is the runbook.
func (b *Body) System() string {
	var s strings.Builder
	for _, p := range b.Parts {
		if p.Kind == System {
			s.WriteString(p.Text)
		}
	}
	return s.String()
}

// The rest of this file is what every provider package's request decoding shares: a body is decoded with
// encoding/json into a map (numbers as json.Number), and walked.

// markerKeys are the keys that mark a cache breakpoint on a block: not content.
var markerKeys = []string{"cache_control", "prompt_cache_breakpoint"}

// Unmarked returns m without its marker keys, reporting whether it held one.
func Unmarked(m map[string]any) (map[string]any, bool) {
	found := false
	var out map[string]any
	for _, k := range markerKeys {
		if _, ok := m[k]; ok {
			if out == nil {
				out = make(map[string]any, len(m))
				for kk, v := range m {
					out[kk] = v
				}
			}
			delete(out, k)
			found = true
		}
	}
	if out == nil {
		out = m
	}
	return out, found
}

// Canonical is v as JSON with sorted keys, numbers as written and no HTML escaping.
func Canonical(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // values decoded from JSON always encode
	return strings.TrimSuffix(buf.String(), "\n")
}

// Add appends a part.
func (b *Body) Add(p Part) { b.Parts = append(b.Parts, p) }

// AddBlock adds one content block: a text block's text, any other block's JSON.
func (b *Body) AddBlock(kind Region, v any, head, label string) {
	switch x := v.(type) {
	case string:
		b.Add(Part{Kind: kind, Head: head, Text: x, Label: label})
	case map[string]any:
		m, mark := Unmarked(x)
		p := Part{Kind: kind, Head: head, Marker: mark, Label: label}
		t, _ := m["type"].(string)
		text, isText := m["text"].(string)
		if isText && (t == "text" || t == "input_text" || t == "output_text" || len(m) == 1 || t == "" && len(m) == 1) {
			p.Text = text
		} else {
			p.Text = Canonical(m)
		}
		b.Add(p)
	default:
		b.Add(Part{Kind: kind, Head: head, Text: Canonical(v), Label: label})
	}
}

func toolLabel(i int, v any) string {
	m, _ := v.(map[string]any)
	name, _ := m["name"].(string)
	if f, ok := m["function"].(map[string]any); ok && name == "" {
		name, _ = f["name"].(string)
	}
	if s, ok := m["toolSpec"].(map[string]any); ok && name == "" {
		name, _ = s["name"].(string)
	}
	if name == "" {
		return fmt.Sprintf("tool %d", i)
	}
	return fmt.Sprintf("tool %d %q", i, name)
}

// Tools adds the tool definitions of list (nil: none); a lone {"cachePoint": …} marks the tool before it.
func (b *Body) Tools(list any) error {
	if list == nil {
		return nil
	}
	items, ok := list.([]any)
	if !ok {
		return fmt.Errorf("\"tools\" is not an array")
	}
	for i, t := range items {
		m, _ := t.(map[string]any)
		if m != nil && m["cachePoint"] != nil && len(m) == 1 {
			b.MarkLast(Tool)
			continue
		}
		mm, mark := Unmarked(m)
		var v any = mm
		if m == nil {
			v = t
		}
		b.Add(Part{Kind: Tool, Text: Canonical(v), Marker: mark, Label: toolLabel(i+1, t)})
	}
	return nil
}

// MarkLast sets the marker of the last part, when it is of kind k (a Bedrock cachePoint follows what it marks).
func (b *Body) MarkLast(k Region) {
	if n := len(b.Parts); n > 0 && b.Parts[n-1].Kind == k {
		b.Parts[n-1].Marker = true
	}
}

// Messages adds the messages of list, whose content (under key) is a string or an array of blocks.
func (b *Body) Messages(list any, key string) error {
	if list == nil {
		return nil
	}
	msgs, ok := list.([]any)
	if !ok {
		return fmt.Errorf("\"messages\" is not an array")
	}
	for i, raw := range msgs {
		m, ok := raw.(map[string]any)
		if !ok {
			return fmt.Errorf("message %d is not an object", i+1)
		}
		role, _ := m["role"].(string)
		head := role
		if id, ok := m["tool_call_id"].(string); ok {
			head += " " + id
		}
		if name, ok := m["name"].(string); ok {
			head += " " + name
		}
		label := fmt.Sprintf("message %d (%s)", i+1, source.QuoteName(role))
		first := len(b.Parts)
		switch c := m[key].(type) {
		case nil:
		case string:
			b.Add(Part{Kind: Message, Text: c, Label: label})
		case []any:
			for j, blk := range c {
				if bm, ok := blk.(map[string]any); ok && bm["cachePoint"] != nil && len(bm) == 1 {
					b.MarkLast(Message)
					continue
				}
				b.AddBlock(Message, blk, "", fmt.Sprintf("%s, block %d", label, j+1))
			}
		default:
			return fmt.Errorf("message %d: %q is neither a string nor an array", i+1, key)
		}
		if calls, ok := m["tool_calls"]; ok {
			b.Add(Part{Kind: Message, Text: Canonical(calls), Label: label + ", tool calls"})
		}
		if len(b.Parts) == first {
			b.Add(Part{Kind: Message, Label: label}) // an empty message still opens a turn
		}
		b.Parts[first].Head = head
	}
	return nil
}
