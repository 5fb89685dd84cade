package projection

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/provider/codecs"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/tokens"
)

// Role is who wrote a message of a conversation history.
type Role string

const (
	User      Role = "user"
	Assistant Role = "assistant"
	// ToolRole is a tool's result, answering an assistant's tool call.
	ToolRole Role = "tool"
)

// Message is one message of a conversation history: the user's, the assistant's (with the tool calls it made) or
// a tool's result.
type Message struct {
	Role    Role
	Content string
	// ToolCalls are the calls an assistant message makes.
	ToolCalls []ToolCall
	// ToolCallID is the call a tool message answers.
	ToolCallID string
}

// ToolCall is a call an assistant made: Arguments is a JSON object in canonical form (keys sorted).
type ToolCall struct {
	ID, Name  string
	Arguments json.RawMessage
}

// historyLine is one line of a history file (JSON Lines).
type historyLine struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []historyCall   `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
}

type historyCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// MaxHistoryBytes bounds a history file, as promptc bounds every file it reads.
const MaxHistoryBytes = blocks.MaxSourceBytes

// ReadHistory reads a conversation history in JSON Lines, one message per line:
//
//	{"role": "user", "content": "Look at NW-142."}
//	{"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "name": "tracker_show", "arguments": {"id": "NW-142"}}]}
//	{"role": "tool", "tool_call_id": "c1", "content": {"id": "NW-142", "title": "Login fails", "fetched_at": "2026-12-01T10:00:00Z"}}
//	{"role": "assistant", "content": "The login fails because ..."}
//
// A tool's content may be any JSON value: it is serialized canonically (object keys sorted, no insignificant
// space), with every object field named in volatile removed at any depth (timestamps, request ids), so that the same
// facts are always the same bytes; a string is kept as it is. Tool-call arguments are made canonical the same way.
// Blank lines are skipped. name is the file's name for diagnostics, which give its line and column.
func ReadHistory(r io.Reader, name string, volatile []string) ([]Message, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxHistoryBytes+1))
	if err != nil {
		return nil, err
	}
	var diags source.Diagnostics
	if len(data) > MaxHistoryBytes {
		file := source.NewFile(name, string(data[:0]))
		diags.Errorf(file.Range(0, 0), "history file too large: promptc reads at most 8 MiB; keep the history to the turns a request carries")
		return nil, diags
	}
	// A leading byte order mark is dropped, as in every file promptc reads (docs/reference.md, "Source files").
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	file := source.NewFile(name, string(data))
	var msgs []Message
	open := map[string]bool{} // tool calls not answered yet
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), MaxHistoryBytes+1)
	off := 0
	for sc.Scan() {
		line := sc.Bytes()
		start := off
		off += len(line) + 1
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		at := func(i int) source.Range { return file.Range(start+i, start+i) }
		if !utf8.Valid(line) {
			diags.Errorf(at(0), "invalid UTF-8: a history file is JSON Lines in UTF-8")
			continue
		}
		var hl historyLine
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&hl); err != nil {
			diags.Errorf(at(jsonErrorOffset(err, line)), "%s: each line of a history file is one JSON object: {\"role\": ..., \"content\": ...}", jsonMessage(err))
			continue
		}
		if dec.More() {
			diags.Errorf(at(int(dec.InputOffset())), "a second JSON value on the line: one message per line")
			continue
		}
		if key, off, first, dup := duplicateKey(line); dup {
			fp := file.Range(start+first, start+first).Start
			diags.Errorf(at(off), "duplicate key %q (first at %d:%d): a JSON object may hold each key once", key, fp.Line, fp.Column)
			continue
		}
		m := Message{Role: Role(hl.Role), ToolCallID: hl.ToolCallID}
		switch m.Role {
		case User, Assistant:
			s, ok := jsonString(hl.Content)
			if !ok {
				diags.Errorf(at(0), "the content of a %s message must be a string", m.Role)
				continue
			}
			m.Content = s
			if m.Role == User && len(hl.ToolCalls) > 0 {
				diags.Errorf(at(0), "a user message makes no tool calls: tool_calls belong to assistant messages")
				continue
			}
			if m.Role == User && hl.ToolCallID != "" {
				diags.Errorf(at(0), "tool_call_id belongs to a tool message, not a user message")
				continue
			}
			bad := false
			for _, c := range hl.ToolCalls {
				if c.ID == "" || c.Name == "" {
					diags.Errorf(at(0), "a tool call needs an id and a name")
					bad = true
					break
				}
				if seen[c.ID] {
					diags.Errorf(at(0), "tool call id %q is used twice: each call needs its own id", c.ID)
					bad = true
					break
				}
				args := c.Arguments
				if len(args) == 0 {
					args = json.RawMessage("{}")
				}
				canon, err := Canonical(args, nil)
				if err != nil || !bytes.HasPrefix(canon, []byte("{")) {
					diags.Errorf(at(0), "the arguments of tool call %q must be a JSON object", c.ID)
					bad = true
					break
				}
				seen[c.ID], open[c.ID] = true, true
				m.ToolCalls = append(m.ToolCalls, ToolCall{ID: c.ID, Name: c.Name, Arguments: canon})
			}
			if bad {
				continue
			}
			if m.Role == Assistant && m.Content == "" && len(m.ToolCalls) == 0 {
				diags.Errorf(at(0), "an assistant message needs content or tool calls")
				continue
			}
		case ToolRole:
			if !open[hl.ToolCallID] {
				why := "no earlier assistant message made it"
				if hl.ToolCallID == "" {
					why = "tool_call_id is missing"
				} else if seen[hl.ToolCallID] {
					why = "it was answered already"
				}
				diags.Errorf(at(0), "a tool message answers a tool call, and %q cannot be answered: %s", hl.ToolCallID, why)
				continue
			}
			delete(open, hl.ToolCallID)
			if s, ok := jsonString(hl.Content); ok {
				m.Content = s
			} else {
				canon, err := Canonical(hl.Content, volatile)
				if err != nil {
					diags.Errorf(at(0), "the content of a tool message must be JSON: %v", err)
					continue
				}
				m.Content = string(canon)
			}
		default:
			diags.Errorf(at(0), "unknown role %q%s: a history message is from user, assistant or tool", hl.Role, suggest.DidYouMean(hl.Role, []string{"user", "assistant", "tool"}))
			continue
		}
		msgs = append(msgs, m)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(open) > 0 && len(diags) == 0 {
		ids := make([]string, 0, len(open))
		for id := range open {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		diags.Errorf(file.Range(len(data), len(data)), "tool calls %s have no result: add a tool message for each (providers refuse a call left unanswered)", strings.Join(ids, ", "))
	}
	if len(diags) > 0 {
		return nil, diags
	}
	return msgs, nil
}

// duplicateKey finds the first key that an object of line, a valid JSON value, holds twice: encoding/json would keep
// the last silently (a tool call's arguments {"x":1,"x":2} sent as {"x":2}). It returns the key, the byte offset
// of its second occurrence and of its first.
func duplicateKey(line []byte) (key string, off, first int, dup bool) {
	type object struct {
		keys    map[string]int
		wantKey bool
	}
	var stack []*object // nil entries are arrays
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return "", 0, 0, false // io.EOF: the whole value was read; anything else was reported already
		}
		var top *object
		if n := len(stack); n > 0 {
			top = stack[n-1]
		}
		if top != nil && top.wantKey {
			if d, ok := tok.(json.Delim); !ok || d != '}' {
				k := tok.(string)
				at := before + bytes.IndexByte(line[before:], '"')
				if f, seen := top.keys[k]; seen {
					return k, at, f, true
				}
				top.keys[k] = at
				top.wantKey = false
				continue
			}
			stack = stack[:len(stack)-1] // the object closed: it is a complete value of its parent
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &object{keys: map[string]int{}, wantKey: true})
			continue // the object is the pending value; its parent wants a key once it closes
		case json.Delim('['):
			stack = append(stack, nil)
			continue
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value is complete (a scalar, or an array just closed): the enclosing object wants its next key.
		if n := len(stack); n > 0 && stack[n-1] != nil {
			stack[n-1].wantKey = true
		}
	}
}

func jsonString(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 {
		return "", true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

func jsonErrorOffset(err error, line []byte) int {
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset > 0 && int(se.Offset) <= len(line) {
		return int(se.Offset) - 1
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Offset > 0 && int(te.Offset) <= len(line) {
		return int(te.Offset) - 1
	}
	return 0
}

func jsonMessage(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("%s must be a %s, not a JSON %s", te.Field, te.Type, te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// Canonical returns the JSON value raw in canonical form: object keys sorted, no insignificant space, numbers as
// written, no HTML escaping, and every object field named in volatile removed at any depth.
func Canonical(raw json.RawMessage, volatile []string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value")
	}
	if len(volatile) > 0 {
		v = dropFields(v, volatile)
	}
	return blocks.CanonicalJSON(v, "")
}

func dropFields(v any, names []string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if slices.Contains(names, k) {
				delete(x, k)
				continue
			}
			x[k] = dropFields(e, names)
		}
	case []any:
		for i, e := range x {
			x[i] = dropFields(e, names)
		}
	}
	return v
}

// TrimHistory keeps the history of a request within maxTokens tokens (docs/providers.md, "History budget"): it drops
// whole messages from the oldest, and moves its cut only in steps of maxTokens/4 tokens, so that consecutive turns
// drop the same messages and keep the same cached prefix until the history has grown by another step. The kept
// history starts with a user message (a tool result whose call was dropped, or an assistant's reply, cannot open
// a conversation). maxTokens ≤ 0 keeps everything; counter nil counts with o200k_base.
func TrimHistory(history []Message, maxTokens int, counter *tokens.Counter) ([]Message, error) {
	if maxTokens <= 0 || len(history) == 0 {
		return history, nil
	}
	if counter == nil {
		counter = tokens.New(tokens.O200k)
	}
	tokens := make([]int, len(history))
	roles := make([]Role, len(history))
	for i, m := range history {
		tokens[i], roles[i] = messageTokens(m, counter), m.Role
	}
	return history[trimCut(tokens, roles, maxTokens, true, 0):], nil
}

func messageTokens(m Message, counter *tokens.Counter) int {
	n := counter.Count(m.Content)
	if len(m.ToolCalls) > 0 {
		// The calls as a chat message holds them: the measure is the same whatever the provider.
		n += counter.Count(codecs.For(provider.OpenAI).Text(provider.Content{ToolCalls: calls(m.ToolCalls)}))
	}
	return n
}

// trimCut returns how many of the oldest messages to drop so that the rest fit in max tokens: in steps of max/4
// (stepped) or exactly (a client that trims at every turn), never fewer than from, then on to the next user message.
func trimCut(tokens []int, roles []Role, max int, stepped bool, from int) int {
	total := 0
	for _, n := range tokens {
		total += n
	}
	if total <= max {
		return min(from, len(tokens))
	}
	need := total - max
	if stepped {
		step := max / 4
		if step < 1 {
			step = 1
		}
		need = (need + step - 1) / step * step
	}
	d, dropped := 0, 0
	for d < len(tokens) && (dropped < need || d < from) {
		dropped += tokens[d]
		d++
	}
	for d < len(tokens) && roles[d] != User {
		d++
	}
	return d
}
