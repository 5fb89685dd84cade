package projection_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/promptc/promptc/projection"
	toks "github.com/promptc/promptc/tokens"
)

func TestReadHistory(t *testing.T) {
	h, err := projection.ReadHistory(strings.NewReader(`{"role": "user", "content": "Hi <b>&"}

{"role": "assistant", "content": "Looking.", "tool_calls": [{"id": "c1", "name": "show", "arguments": {"b": [2, 1.50], "a": {"y": 1, "x": 2}}}]}
{"role": "tool", "tool_call_id": "c1", "content": {"data": {"request_id": "r-9", "n": 1e3, "items": [{"ts": 1, "v": "<ok>"}]}, "ts": 5}}
{"role": "assistant", "tool_calls": [{"id": "c2", "name": "list"}]}
{"role": "tool", "tool_call_id": "c2", "content": "plain text, kept as it is: {\"b\":1,\"a\":2}"}
`), "h.jsonl", []string{"request_id", "ts"})
	if err != nil {
		t.Fatal(err)
	}
	want := []projection.Message{
		{Role: projection.User, Content: "Hi <b>&"},
		{Role: projection.Assistant, Content: "Looking.", ToolCalls: []projection.ToolCall{{ID: "c1", Name: "show", Arguments: json.RawMessage(`{"a":{"x":2,"y":1},"b":[2,1.50]}`)}}},
		// Keys sorted, volatile fields gone at every depth, numbers as written, no HTML escaping.
		{Role: projection.ToolRole, ToolCallID: "c1", Content: `{"data":{"items":[{"v":"<ok>"}],"n":1e3}}`},
		{Role: projection.Assistant, ToolCalls: []projection.ToolCall{{ID: "c2", Name: "list", Arguments: json.RawMessage(`{}`)}}},
		{Role: projection.ToolRole, ToolCallID: "c2", Content: `plain text, kept as it is: {"b":1,"a":2}`},
	}
	got, _ := json.Marshal(h)
	exp, _ := json.Marshal(want)
	if string(got) != string(exp) {
		t.Errorf("history:\n%s\nwant\n%s", got, exp)
	}
}

func TestReadHistoryErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"role": "system", "content": "x"}`, `h.jsonl:1:1: unknown role "system"`},
		{"\n\n{\"role\": \"user\", \"content\": 3}", `h.jsonl:3:1: the content of a user message must be a string`},
		{`{"role": "user", "content": "x",}`, `h.jsonl:1:33: invalid character '}'`},
		{`{"role": "user", "text": "x"}`, `h.jsonl:1:1: unknown field "text"`},
		{`{"role": "tool", "tool_call_id": "c9", "content": "x"}`, `h.jsonl:1:1: a tool message answers a tool call, and "c9" cannot be answered: no earlier assistant message made it`},
		{`{"role": "assistant", "tool_calls": [{"id": "c1", "name": "f"}]}`, `h.jsonl:1:` /* at the end */},
		{`{"role": "assistant", "content": ""}`, `h.jsonl:1:1: an assistant message needs content or tool calls`},
		{`{"role": "assistant", "tool_calls": [{"id": "c1", "name": "f", "arguments": [1]}]}`, `the arguments of tool call "c1" must be a JSON object`},
		{`{"role": "user", "content": "a"} {"role": "user", "content": "b"}`, `a second JSON value on the line`},
		{"{\"role\": \"user\", \"content\": \"\xff\"}", `h.jsonl:1:1: invalid UTF-8`},
		// Duplicate keys are refused as in a values file, at the second key, naming the first: encoding/json would
		// keep the last one silently.
		{`{"role": "user", "role": "assistant", "content": "x"}`, `h.jsonl:1:18: duplicate key "role" (first at 1:2): a JSON object may hold each key once`},
		{`{"role": "user", "content": "é"}` + "\n" + `{"role": "assistant", "tool_calls": [{"id": "c1", "name": "f", "arguments": {"x": 1, "x": 2}}]}`,
			`h.jsonl:2:86: duplicate key "x" (first at 2:78)`},
		{`{"role": "assistant", "tool_calls": [{"id": "c1", "name": "f", "arguments": {"a": {"x": [{"k": 1}, {"k": 2}], "x": 3}}}]}`,
			`h.jsonl:1:111: duplicate key "x" (first at 1:84)`},
		{`{"role": "assistant", "tool_calls": [{"id": "c1", "name": "f"}]}` + "\n" + `{"role": "tool", "tool_call_id": "c1", "content": {"ts": 1, "ts": 2}}`,
			`h.jsonl:2:61: duplicate key "ts" (first at 2:52)`},
		// A BOM is not the start of a line (values files drop it too); a position after it counts from the text.
		{"\uFEFF{\"role\": \"system\", \"content\": \"x\"}", `h.jsonl:1:1: unknown role "system"`},
	} {
		_, err := projection.ReadHistory(strings.NewReader(tc.in), "h.jsonl", nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadHistory(%q) = %v, want an error containing %q", tc.in, err, tc.want)
		}
	}
	// The same keys in different objects, and in sibling objects of an array, are no duplicates; a BOM is dropped.
	h, err := projection.ReadHistory(strings.NewReader("\uFEFF"+`{"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "name": "f", "arguments": {"id": {"id": [{"id": 1}, {"id": 2}, []], "x": {}}, "y": 1}}]}`+"\n"+
		`{"role": "tool", "tool_call_id": "c1", "content": {"role": "x"}}`), "h.jsonl", nil)
	if err != nil || len(h) != 2 || string(h[0].ToolCalls[0].Arguments) != `{"id":{"id":[{"id":1},{"id":2},[]],"x":{}},"y":1}` {
		t.Errorf("nested keys: %v %v", h, err)
	}
	// A call left unanswered is reported at the end of the file.
	_, err = projection.ReadHistory(strings.NewReader(`{"role": "assistant", "tool_calls": [{"id": "c1", "name": "f"}]}`+"\n"), "h.jsonl", nil)
	if err == nil || !strings.Contains(err.Error(), "h.jsonl:2:1: tool calls c1 have no result") {
		t.Errorf("unanswered call: %v", err)
	}
}

func FuzzReadHistory(f *testing.F) {
	f.Add(`{"role": "user", "content": "x"}`)
	f.Add(`{"role": "assistant", "tool_calls": [{"id": "c1", "name": "f", "arguments": {"b": 1}}]}` + "\n" + `{"role": "tool", "tool_call_id": "c1", "content": {"ts": 1, "a": [1, {"ts": 2}]}}`)
	f.Add("\n\n{\"role\": \"tool\"}\n{")
	f.Fuzz(func(t *testing.T, in string) {
		h, err := projection.ReadHistory(strings.NewReader(in), "h.jsonl", []string{"ts"})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "h.jsonl:") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		for _, m := range h {
			if m.Role == projection.ToolRole && strings.Contains(m.Content, `"ts":`) && strings.HasPrefix(m.Content, "{") {
				// A JSON result lost its volatile fields; "ts": may only survive inside a string value.
				var v any
				if json.Unmarshal([]byte(m.Content), &v) == nil && hasKey(v, "ts") {
					t.Fatalf("volatile field kept: %s", m.Content)
				}
			}
			for _, c := range m.ToolCalls {
				if !json.Valid(c.Arguments) {
					t.Fatalf("arguments not JSON: %s", c.Arguments)
				}
			}
		}
	})
}

func hasKey(v any, k string) bool {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x[k]; ok {
			return true
		}
		for _, e := range x {
			if hasKey(e, k) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasKey(e, k) {
				return true
			}
		}
	}
	return false
}

// TestTrimHistory: whole messages go from the oldest; the tokens dropped are a multiple of a quarter of the budget,
// so the cut stays put while the history grows by less than a step; the kept history opens with a user message.
func TestTrimHistory(t *testing.T) {
	c := toks.New(toks.O200k)
	msg := func(r projection.Role, words int) projection.Message {
		return projection.Message{Role: r, Content: strings.TrimSpace(strings.Repeat(" ab", words))}
	}
	one := c.Count(msg(projection.User, 10).Content) // every message below has this many tokens
	var h []projection.Message
	for i := 0; i < 10; i++ {
		r := projection.User
		if i%2 == 1 {
			r = projection.Assistant
		}
		h = append(h, msg(r, 10))
	}
	budget := 4 * one // step: one message's tokens
	for _, tc := range []struct{ n, kept int }{
		{4, 4},  // within the budget
		{5, 3},  // one message over: one step, one message, then the assistant's reply it leads to: two go
		{6, 4},  // two over: two steps, two messages
		{7, 3},  // three over: three steps, then the assistant's reply: four go
		{10, 4}, // six over: six messages
	} {
		got, err := projection.TrimHistory(h[:tc.n], budget, c)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tc.kept || len(got) > 0 && got[0].Role != projection.User {
			t.Errorf("%d messages of %d tokens, budget %d: kept %d (first %s), want %d from a user message", tc.n, one, budget, len(got), got[0].Role, tc.kept)
		}
	}
	// With a budget of 8 messages the step is 2: the cut moves by whole steps, from 9 messages on (one over: a step
	// of 2), staying put while the history grows within the step (n = 9 and 10 drop 2; 11 and 12 drop 4; ...).
	budget = 8 * one
	var cuts []int
	for n := 8; n <= 16; n++ {
		got, _ := projection.TrimHistory(append(h[:0:0], append(h, h...)[:n]...), budget, c)
		cuts = append(cuts, n-len(got))
	}
	if fmt.Sprint(cuts) != "[0 2 2 4 4 6 6 8 8]" {
		t.Errorf("cuts as the history grows from 8 to 16 messages, budget 8 (step 2): %v", cuts)
	}
}
