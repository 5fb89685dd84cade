package miss

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/promptc/promptc/internal/jsondup"
	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/provider/codecs"
)

// Region says where a part of a request sits in the provider's cached order (provider.Region).
type Region = provider.Region

// The kinds of part.
const (
	Cached  = provider.Cached
	Tool    = provider.Tool
	System  = provider.System
	Message = provider.Message
)

// Part is one unit of a request as a prefix cache sees it (provider.Part).
type Part = provider.Part

// Body is a request body read as its parts, in cached order (provider.Body).
type Body = provider.Body

// Parse reads a request body, through the provider packages (provider/codecs). name names its API; "" tells it from the body's shape (docs/usage.md):
// Gemini's contents, Bedrock Converse's content blocks without a type, the OpenAI Responses API's input,
// Anthropic's top-level system or typed content blocks, else an OpenAI-compatible Chat Completions body, DashScope's
// or DeepSeek's by its model's name. A body that is not a request of that API (of any, when told from its shape) is
// refused, saying what was expected; a body that is not one JSON object, or holds a key twice in one object, is a
// *JSONError that says where.
func Parse(data []byte, name string) (*Body, error) {
	if name != "" && !provider.Known(name) {
		return nil, fmt.Errorf("unknown provider %q: use %s", name, strings.Join(provider.Names(), ", "))
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
	var p provider.Provider
	if name == "" {
		p = codecs.Detect(doc)
		if err := codecs.For(p).Check(doc); err != nil {
			// The shape's marks named p; a body that is not its request may still be another's.
			i := slices.IndexFunc(provider.All(), func(q provider.Provider) bool { return codecs.For(q).Check(doc) == nil })
			if i < 0 {
				return nil, fmt.Errorf("not a request body of any provider miss reads (%s): read by its shape, it is %w",
					strings.Join(provider.Names(), ", "), err)
			}
			p = provider.All()[i]
		}
	} else {
		p, _ = provider.Parse(name)
		if err := codecs.For(p).Check(doc); err != nil {
			if d := codecs.Detect(doc); d != p && codecs.For(d).Check(doc) == nil {
				return nil, fmt.Errorf("%w; its shape is that of a request for %s: name that provider, or none", err, d)
			}
			return nil, err
		}
	}
	b := &Body{Provider: p}
	b.Model, _ = doc["model"].(string)
	if b.Model == "" {
		b.Model, _ = doc["modelId"].(string)
	}
	if err := codecs.For(p).Decode(doc, b); err != nil {
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
