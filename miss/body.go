package miss

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/jsondup"
)

// Kind says where a part of a request sits in the provider's cached order: tools, then the system prompt, then the
// messages.
type Kind uint8

const (
	// Cached is Gemini's cachedContent: the name of an explicit cache the request reads first.
	Cached Kind = iota
	// Tool is a tool definition.
	Tool
	// System is a piece of the system prompt (a text block, or a system message).
	System
	// Message is a content block of a message (a whole message when its content is one string).
	Message
)

var kindNames = []string{"cached content", "tool", "system", "message"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Part is one unit of a request as a prefix cache sees it. Two requests share a prefix up to a part when every
// part before it is equal: the same kind, the same Head and the same Text. Cache markers are not content.
type Part struct {
	Kind Kind
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
	// Provider is the API the body is for: anthropic, openai, dashscope, bedrock, gemini or deepseek.
	Provider string
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

// Providers are the names Parse takes: the model table's providers (blocks.Providers), in its order.
var Providers = blocks.Providers

// Parse reads a request body. provider names its API; "" tells it from the body's shape (docs/usage.md):
// Gemini's contents, Bedrock Converse's content blocks without a type, the OpenAI Responses API's input,
// Anthropic's top-level system or typed content blocks, else an OpenAI-compatible Chat Completions body, DashScope's
// or DeepSeek's by its model's name. A body that is not a request of that API (of any, when told from its shape) is
// refused, saying what was expected; a body that is not one JSON object, or holds a key twice in one object, is a
// *JSONError that says where.
func Parse(data []byte, provider string) (*Body, error) {
	if provider != "" && !slices.Contains(Providers, provider) {
		return nil, fmt.Errorf("unknown provider %q: use %s", provider, strings.Join(Providers, ", "))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		off := len(data)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off = int(se.Offset) - 1
		}
		msg := strings.TrimPrefix(err.Error(), "invalid character ")
		if err == io.EOF {
			msg = "the file is empty"
		}
		return nil, &JSONError{Offset: max(off, 0), Msg: "not a JSON object: " + msg}
	}
	if dec.More() || dec.InputOffset() < int64(len(data)) && len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return nil, &JSONError{Offset: int(dec.InputOffset()), Msg: "more than one JSON value: a request body is one object"}
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return nil, &JSONError{Offset: firstByte(data), Msg: "a request body is a JSON object, not " + describeValue(v)}
	}
	if dup := jsondup.Find(data, nil); dup != nil {
		l, c := jsondup.Position(data, dup.First)
		return nil, &JSONError{Offset: dup.Offset, Msg: dup.Message(fmt.Sprintf("%d:%d", l, c))}
	}
	if provider == "" {
		detected := detect(doc)
		provider = detected
		if err := shapeError(doc, detected); err != nil {
			// The shape's marks named detected; a body that is not its request may still be another's.
			i := slices.IndexFunc(Providers, func(p string) bool { return shapeError(doc, p) == nil })
			if i < 0 {
				return nil, fmt.Errorf("not a request body of any provider miss reads (%s): read by its shape, it is %w",
					strings.Join(Providers, ", "), err)
			}
			provider = Providers[i]
		}
	} else if err := shapeError(doc, provider); err != nil {
		if d := detect(doc); d != provider && shapeError(doc, d) == nil {
			return nil, fmt.Errorf("%w; its shape is that of a request for %s: name that provider, or none", err, d)
		}
		return nil, err
	}
	b := &Body{Provider: provider}
	b.Model, _ = doc["model"].(string)
	if b.Model == "" {
		b.Model, _ = doc["modelId"].(string)
	}
	var err error
	switch provider {
	case "anthropic":
		err = b.anthropic(doc)
	case "bedrock":
		err = b.bedrock(doc)
	case "gemini":
		err = b.gemini(doc)
	default:
		if isResponses(doc) {
			err = b.responses(doc)
		} else {
			err = b.chat(doc)
		}
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

// JSONError is a body that is not one JSON object, or holds a key twice: Offset is the byte of the body where the
// problem is, for a reader to place it (Between gives its line and column).
type JSONError struct {
	Offset int
	Msg    string
}

func (e *JSONError) Error() string { return e.Msg }

// firstByte is the offset of data's first byte that is not white space.
func firstByte(data []byte) int {
	return len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
}

// describeValue names the kind of a decoded JSON value, with its article.
func describeValue(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "a number"
}

func detect(doc map[string]any) string {
	if doc["contents"] != nil || doc["systemInstruction"] != nil || doc["cachedContent"] != nil {
		return "gemini"
	}
	if doc["toolConfig"] != nil || doc["inferenceConfig"] != nil {
		return "bedrock"
	}
	msgs, _ := doc["messages"].([]any)
	if isResponses(doc) {
		return "openai"
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
		return "bedrock"
	}
	if doc["system"] != nil {
		return "anthropic"
	}
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		items, _ := mm["content"].([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			if t, _ := m["type"].(string); t == "tool_use" || t == "tool_result" {
				return "anthropic"
			}
		}
	}
	if tools, ok := doc["tools"].([]any); ok && len(tools) > 0 {
		if t, ok := tools[0].(map[string]any); ok && t["input_schema"] != nil {
			return "anthropic"
		}
	}
	model, _ := doc["model"].(string)
	switch {
	case strings.HasPrefix(model, "qwen") || strings.HasPrefix(model, "qwq"):
		return "dashscope"
	case strings.HasPrefix(model, "deepseek"):
		return "deepseek"
	}
	return "openai"
}

// markerKeys are the keys that mark a cache breakpoint on a block: not content.
var markerKeys = []string{"cache_control", "prompt_cache_breakpoint"}

// marked removes the marker keys of m, reporting whether it held one.
func marked(m map[string]any) (map[string]any, bool) {
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

// canonical is v as JSON with sorted keys, numbers as written and no HTML escaping.
func canonical(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // values decoded from JSON always encode
	return strings.TrimSuffix(buf.String(), "\n")
}

func (b *Body) add(p Part) { b.Parts = append(b.Parts, p) }

// block adds one content block: a text block's text, any other block's JSON.
func (b *Body) block(kind Kind, v any, head, label string) {
	switch x := v.(type) {
	case string:
		b.add(Part{Kind: kind, Head: head, Text: x, Label: label})
	case map[string]any:
		m, mark := marked(x)
		p := Part{Kind: kind, Head: head, Marker: mark, Label: label}
		t, _ := m["type"].(string)
		text, isText := m["text"].(string)
		if isText && (t == "text" || t == "input_text" || t == "output_text" || len(m) == 1 || t == "" && len(m) == 1) {
			p.Text = text
		} else {
			p.Text = canonical(m)
		}
		b.add(p)
	default:
		b.add(Part{Kind: kind, Head: head, Text: canonical(v), Label: label})
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

func (b *Body) tools(list any) error {
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
			b.markLast(Tool)
			continue
		}
		mm, mark := marked(m)
		var v any = mm
		if m == nil {
			v = t
		}
		b.add(Part{Kind: Tool, Text: canonical(v), Marker: mark, Label: toolLabel(i+1, t)})
	}
	return nil
}

// markLast sets the marker of the last part, when it is of kind k (a Bedrock cachePoint follows what it marks).
func (b *Body) markLast(k Kind) {
	if n := len(b.Parts); n > 0 && b.Parts[n-1].Kind == k {
		b.Parts[n-1].Marker = true
	}
}

func (b *Body) anthropic(doc map[string]any) error {
	if err := b.tools(doc["tools"]); err != nil {
		return err
	}
	switch sys := doc["system"].(type) {
	case nil:
	case string:
		b.add(Part{Kind: System, Text: sys, Label: "system block 1"})
	case []any:
		for i, blk := range sys {
			b.block(System, blk, "", fmt.Sprintf("system block %d", i+1))
		}
	default:
		return fmt.Errorf("\"system\" is neither a string nor an array of blocks")
	}
	if err := b.messages(doc["messages"], "content"); err != nil {
		return err
	}
	if _, auto := doc["cache_control"]; auto && len(b.Parts) > 0 {
		// Automatic caching: the API puts the breakpoint on the last block.
		b.Parts[len(b.Parts)-1].Marker = true
	}
	return nil
}

// messages adds the messages of list, whose content (under key) is a string or an array of blocks.
func (b *Body) messages(list any, key string) error {
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
		label := fmt.Sprintf("message %d (%s)", i+1, blocks.QuoteName(role))
		first := len(b.Parts)
		switch c := m[key].(type) {
		case nil:
		case string:
			b.add(Part{Kind: Message, Text: c, Label: label})
		case []any:
			for j, blk := range c {
				if bm, ok := blk.(map[string]any); ok && bm["cachePoint"] != nil && len(bm) == 1 {
					b.markLast(Message)
					continue
				}
				b.block(Message, blk, "", fmt.Sprintf("%s, block %d", label, j+1))
			}
		default:
			return fmt.Errorf("message %d: %q is neither a string nor an array", i+1, key)
		}
		if calls, ok := m["tool_calls"]; ok {
			b.add(Part{Kind: Message, Text: canonical(calls), Label: label + ", tool calls"})
		}
		if len(b.Parts) == first {
			b.add(Part{Kind: Message, Label: label}) // an empty message still opens a turn
		}
		b.Parts[first].Head = head
	}
	return nil
}

// chat reads an OpenAI-compatible Chat Completions body (OpenAI, DashScope, DeepSeek): the leading system and
// developer messages are the system prompt.
func (b *Body) chat(doc map[string]any) error {
	if err := b.tools(doc["tools"]); err != nil {
		return err
	}
	start := len(b.Parts)
	if err := b.messages(doc["messages"], "content"); err != nil {
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
			p.Kind = System
		}
	}
	return nil
}

// responses reads an OpenAI Responses API body: instructions, then the input items.
func (b *Body) responses(doc map[string]any) error {
	if err := b.tools(doc["tools"]); err != nil {
		return err
	}
	if s, ok := doc["instructions"].(string); ok {
		b.add(Part{Kind: System, Text: s, Label: "instructions"})
	}
	switch in := doc["input"].(type) {
	case nil:
	case string:
		b.add(Part{Kind: Message, Head: "user", Text: in, Label: "input"})
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
		return b.messages(msgs, "content")
	default:
		return fmt.Errorf("\"input\" is neither a string nor an array")
	}
	return nil
}

// bedrock reads a Converse body: toolConfig.tools, system and messages, with cachePoint blocks after what they
// mark.
func (b *Body) bedrock(doc map[string]any) error {
	if tc, ok := doc["toolConfig"].(map[string]any); ok {
		if err := b.tools(tc["tools"]); err != nil {
			return err
		}
	}
	if sys, ok := doc["system"].([]any); ok {
		n := 0
		for _, blk := range sys {
			if m, ok := blk.(map[string]any); ok && m["cachePoint"] != nil {
				b.markLast(System)
				continue
			}
			n++
			b.block(System, blk, "", fmt.Sprintf("system block %d", n))
		}
	}
	return b.messages(doc["messages"], "content")
}

// gemini reads a generateContent (or cachedContents create) body: the cached content it names, tools, the system
// instruction and contents.
func (b *Body) gemini(doc map[string]any) error {
	if name, ok := doc["cachedContent"].(string); ok {
		b.add(Part{Kind: Cached, Text: name, Marker: true, Label: "cachedContent"})
	}
	if err := b.tools(doc["tools"]); err != nil {
		return err
	}
	if si, ok := doc["systemInstruction"].(map[string]any); ok {
		parts, _ := si["parts"].([]any)
		for i, p := range parts {
			b.block(System, p, "", fmt.Sprintf("system instruction part %d", i+1))
		}
	}
	contents, _ := doc["contents"].([]any)
	msgs := make([]any, 0, len(contents))
	for _, c := range contents {
		m, _ := c.(map[string]any)
		if m == nil {
			continue
		}
		msgs = append(msgs, map[string]any{"role": m["role"], "content": m["parts"]})
	}
	return b.messages(msgs, "content")
}
