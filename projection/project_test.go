package projection_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/projection"
	toks "github.com/promptc/promptc/tokens"
)

// runbook builds an artifact from blocks of the given scopes, joined by blank lines as the compiler joins them, with
// the source map Segments reads.
func runbook(parts ...any) *assemble.Artifact {
	a := &assemble.Artifact{}
	for i := 0; i < len(parts); i += 2 {
		text, scope := parts[i].(string), parts[i+1].(blocks.Scope)
		sp := assemble.Span{Start: len(a.Text), Scope: scope}
		if i > 0 {
			a.Text += "\n\n"
		}
		sp.TextStart = len(a.Text)
		a.Text += text
		sp.End = len(a.Text)
		a.Spans = append(a.Spans, sp)
	}
	if a.Text != "" {
		a.Text += "\n"
		a.Spans[len(a.Spans)-1].End++
	}
	return a
}

var counter = toks.New(toks.O200k)

func tokens(s string) int { return counter.Count(s) }

// model is a model with markers whose minimum the test sets.
func model(p projection.Provider, min, breakpoints int) projection.Model {
	m := projection.Model{Provider: p, Name: "m", MinCacheTokens: min, MaxBreakpoints: breakpoints, Lookback: 20,
		CacheWrite: 1.25, CacheRead: 0.1, Safety: 1}
	switch p {
	case projection.OpenAI:
		m.Matching, m.MaxBreakpoints, m.Step, m.CacheWrite = projection.Prefix, 0, 128, 1
	case projection.DashScope:
		m.Matching, m.ImplicitMinCacheTokens, m.ImplicitCacheRead = projection.Messages, 256, 0.2
	}
	return m
}

func project(t *testing.T, in projection.Input, opt projection.Options) *projection.Projection {
	t.Helper()
	pr, err := projection.New(in, opt)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// The three-segment runbook most tests project: "G\n\n" global, "T\n\n" task, "S\n" session.
var gts = runbook("G", blocks.ScopeGlobal, "T", blocks.ScopeTask, "S", blocks.ScopeSession)

var convo = []projection.Message{{Role: projection.User, Content: "u1"}, {Role: projection.Assistant, Content: "a1"}}

func TestAnthropicBody(t *testing.T) {
	pr := project(t, projection.Input{Runbook: gts, History: convo, Turn: "u2"},
		projection.Options{Model: model(projection.Anthropic, 1, 4)})
	// Each segment reaches the minimum of 1 token, so each is a system block of its own with a marker, and the end of
	// the history has the fourth.
	want := `{
  "model": "m",
  "max_tokens": 4096,
  "system": [
    {
      "type": "text",
      "text": "G\n\n",
      "cache_control": {
        "type": "ephemeral"
      }
    },
    {
      "type": "text",
      "text": "T\n\n",
      "cache_control": {
        "type": "ephemeral"
      }
    },
    {
      "type": "text",
      "text": "S\n",
      "cache_control": {
        "type": "ephemeral"
      }
    }
  ],
  "messages": [
    {
      "role": "user",
      "content": "u1"
    },
    {
      "role": "assistant",
      "content": [
        {
          "type": "text",
          "text": "a1",
          "cache_control": {
            "type": "ephemeral"
          }
        }
      ]
    },
    {
      "role": "user",
      "content": "u2"
    }
  ]
}
`
	if string(pr.Body) != want {
		t.Errorf("body:\n%s\nwant:\n%s", pr.Body, want)
	}
	if n := strings.Count(string(pr.Body), "cache_control"); n != 4 {
		t.Errorf("%d markers, want 4", n)
	}
}

// TestMarkerLimit: with room for fewer markers than segments, the history's marker is kept and the system's go
// from the first segment on (the prefixes shared most widely).
func TestMarkerLimit(t *testing.T) {
	for _, tc := range []struct {
		limit int
		want  []string // the texts of the parts with a marker
	}{
		{4, []string{"G\n\n", "T\n\n", "S\n", "a1"}},
		{3, []string{"G\n\n", "T\n\n", "a1"}},
		{2, []string{"G\n\n", "a1"}},
		{1, []string{"a1"}},
		{0, nil},
	} {
		pr := project(t, projection.Input{Runbook: gts, History: convo, Turn: "u2"},
			projection.Options{Model: model(projection.Anthropic, 1, tc.limit)})
		if got := markedTexts(pr); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("limit %d: markers after %q, want %q", tc.limit, got, tc.want)
		}
		if n := strings.Count(string(pr.Body), "cache_control"); n != len(tc.want) {
			t.Errorf("limit %d: body has %d markers, want %d", tc.limit, n, len(tc.want))
		}
	}
	// Without history, every marker goes to the system.
	pr := project(t, projection.Input{Runbook: gts, Turn: "u1"}, projection.Options{Model: model(projection.Anthropic, 1, 2)})
	if got := markedTexts(pr); strings.Join(got, "|") != "G\n\n|T\n\n" {
		t.Errorf("no history, limit 2: markers after %q", got)
	}
}

func markedTexts(pr *projection.Projection) []string {
	var out []string
	for _, i := range pr.Markers() {
		out = append(out, pr.Parts[i].Text)
	}
	return out
}

// TestMinimum: a segment whose prefix is below the minimum merges into the next, a marker never sits on a prefix
// below the minimum (scaled by the safety factor), and a runbook too short as a whole is one unmarked block.
func TestMinimum(t *testing.T) {
	g := strings.Repeat("Global rule number one applies. ", 40)
	tk := strings.Repeat("Task rule applies here too. ", 40)
	s := "Session."
	rb := runbook(g, blocks.ScopeGlobal, tk, blocks.ScopeTask, s, blocks.ScopeSession)
	segs := rb.Segments()
	gText, tText, sText := rb.Text[segs[0].Start:segs[0].End], rb.Text[segs[1].Start:segs[1].End], rb.Text[segs[2].Start:segs[2].End]
	nG, nT := tokens(gText), tokens(tText)
	if nG < 10 || nT < 10 {
		t.Fatalf("texts too short for the test: %d, %d tokens", nG, nT)
	}
	for _, tc := range []struct {
		name   string
		min    int
		safety float64
		parts  []string // system parts
		marked []bool
	}{
		{"each segment reaches it", nG, 1, []string{gText, tText, sText}, []bool{true, true, true}},
		{"global merges into task", nG + 1, 1, []string{gText + tText, sText}, []bool{true, true}},
		{"exactly global plus task", nG + nT, 1, []string{gText + tText, sText}, []bool{true, true}},
		{"safety scales the minimum", nG, 1.5, []string{gText + tText, sText}, []bool{true, true}},
		{"too short as a whole", 1 << 20, 1, []string{rb.Text}, []bool{false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := model(projection.Anthropic, tc.min, 4)
			m.Safety = tc.safety
			if tc.safety > 1 && nG >= m.Minimum() {
				t.Fatalf("the safety case needs the global segment (%d tokens) below %d", nG, m.Minimum())
			}
			pr := project(t, projection.Input{Runbook: rb, Turn: "u"}, projection.Options{Model: m})
			var parts []string
			var marked []bool
			for _, p := range pr.Parts {
				if p.Kind == projection.SystemPart {
					parts = append(parts, p.Text)
					marked = append(marked, p.Marker)
					if p.Marker && p.Prefix < m.Minimum() {
						t.Errorf("marker on a prefix of %d tokens, below the minimum %d", p.Prefix, m.Minimum())
					}
				}
			}
			if strings.Join(parts, "|") != strings.Join(tc.parts, "|") {
				t.Errorf("system parts %q, want %q", parts, tc.parts)
			}
			if len(marked) != len(tc.marked) {
				t.Fatalf("marked %v, want %v", marked, tc.marked)
			}
			for i := range marked {
				if marked[i] != tc.marked[i] {
					t.Errorf("marked %v, want %v", marked, tc.marked)
				}
			}
		})
	}
	// The history's marker also needs the minimum: here the whole request is far below it.
	pr := project(t, projection.Input{Runbook: gts, History: convo, Turn: "u2"}, projection.Options{Model: model(projection.Anthropic, 1000, 4)})
	if len(pr.Markers()) != 0 {
		t.Errorf("markers %v on a request of %d tokens, minimum 1000", pr.Markers(), pr.Tokens)
	}
}

func TestOpenAIBody(t *testing.T) {
	pr := project(t, projection.Input{Runbook: gts, History: convo, Turn: "u2"}, projection.Options{Model: model(projection.OpenAI, 1024, 0)})
	sum := sha256.Sum256([]byte("G\n\nT\n\n"))
	key := "promptc-" + hex.EncodeToString(sum[:])[:24]
	want := `{
  "model": "m",
  "prompt_cache_key": "` + key + `",
  "messages": [
    {
      "role": "system",
      "content": "G\n\nT\n\nS\n"
    },
    {
      "role": "user",
      "content": "u1"
    },
    {
      "role": "assistant",
      "content": "a1"
    },
    {
      "role": "user",
      "content": "u2"
    }
  ]
}
`
	if string(pr.Body) != want {
		t.Errorf("body:\n%s\nwant:\n%s", pr.Body, want)
	}
	// Another session of the task shares the key; another task does not.
	other := runbook("G", blocks.ScopeGlobal, "T", blocks.ScopeTask, "Other session", blocks.ScopeSession)
	if pr2 := project(t, projection.Input{Runbook: other, Turn: "x"}, projection.Options{Model: model(projection.OpenAI, 1024, 0)}); pr2.CacheKey != key {
		t.Errorf("another session's key %s, want %s", pr2.CacheKey, key)
	}
	task2 := runbook("G", blocks.ScopeGlobal, "T2", blocks.ScopeTask, "S", blocks.ScopeSession)
	if pr3 := project(t, projection.Input{Runbook: task2, Turn: "x"}, projection.Options{Model: model(projection.OpenAI, 1024, 0)}); pr3.CacheKey == key {
		t.Errorf("another task's runbook has the same key %s", key)
	}
}

func TestDashScopeBody(t *testing.T) {
	in := projection.Input{Runbook: gts, History: convo, Turn: "u2"}
	pr := project(t, in, projection.Options{Model: model(projection.DashScope, 1, 4)})
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(pr.Body, &body); err != nil {
		t.Fatal(err)
	}
	mark := func(text string) string {
		b, _ := json.Marshal(text)
		return `[{"type":"text","text":` + string(b) + `,"cache_control":{"type":"ephemeral"}}]`
	}
	want := []string{"system " + mark("G\n\n"), "system " + mark("T\n\n"), "system " + mark("S\n"),
		`user "u1"`, "assistant " + mark("a1"), `user "u2"`}
	var got []string
	for _, m := range body.Messages {
		got = append(got, m.Role+" "+compact(m.Content))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Implicit: the same split, no markers.
	imp := project(t, in, projection.Options{Model: model(projection.DashScope, 1, 4), Implicit: true})
	if strings.Contains(string(imp.Body), "cache_control") || len(imp.Markers()) != 0 {
		t.Errorf("implicit body has markers:\n%s", imp.Body)
	}
	if n := strings.Count(string(imp.Body), `"role": "system"`); n != 3 {
		t.Errorf("implicit body has %d system messages, want the 3 segments", n)
	}
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	_ = json.Compact(&b, raw)
	return b.String()
}

// TestToolHistory: tool calls and results in each provider's shape; for Anthropic the results and the turn that
// follows them are one user message, as the API's alternation of roles asks.
func TestToolHistory(t *testing.T) {
	h, err := projection.ReadHistory(strings.NewReader(`{"role":"user","content":"Look at NW-1."}
{"role":"assistant","content":"","tool_calls":[{"id":"c1","name":"show","arguments":{"z":1,"a":"x"}}]}
{"role":"tool","tool_call_id":"c1","content":{"title":"Bug","fetched_at":"2026-12-01T10:00:00Z","id":"NW-1"}}
`), "h.jsonl", []string{"fetched_at"})
	if err != nil {
		t.Fatal(err)
	}
	in := projection.Input{Runbook: gts, History: h, Turn: "What next?"}
	pr := project(t, in, projection.Options{Model: model(projection.Anthropic, 1<<20, 4)})
	var a struct {
		Messages []struct {
			Role    string
			Content json.RawMessage
		}
	}
	if err := json.Unmarshal(pr.Body, &a); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range a.Messages {
		got = append(got, m.Role+" "+compact(m.Content))
	}
	want := []string{
		`user "Look at NW-1."`,
		`assistant [{"type":"tool_use","id":"c1","name":"show","input":{"a":"x","z":1}}]`,
		`user [{"type":"tool_result","tool_use_id":"c1","content":"{\"id\":\"NW-1\",\"title\":\"Bug\"}"},{"type":"text","text":"What next?"}]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("anthropic messages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	po := project(t, in, projection.Options{Model: model(projection.OpenAI, 1024, 0)})
	for _, frag := range []string{
		`"tool_calls": [` + "\n" + `        {` + "\n" + `          "id": "c1",` + "\n" + `          "type": "function",`,
		`"arguments": "{\"a\":\"x\",\"z\":1}"`,
		`"role": "tool",` + "\n" + `      "content": "{\"id\":\"NW-1\",\"title\":\"Bug\"}",` + "\n" + `      "tool_call_id": "c1"`,
		`"role": "assistant",` + "\n" + `      "content": null,`,
	} {
		if !strings.Contains(string(po.Body), frag) {
			t.Errorf("openai body lacks %q:\n%s", frag, po.Body)
		}
	}
}

func TestProjectDeterministic(t *testing.T) {
	in := projection.Input{Runbook: gts, History: convo, Turn: "u2"}
	for _, p := range []projection.Provider{projection.Anthropic, projection.OpenAI, projection.DashScope} {
		first := project(t, in, projection.Options{Model: model(p, 1, 4)})
		for i := 0; i < 20; i++ {
			if again := project(t, in, projection.Options{Model: model(p, 1, 4)}); string(again.Body) != string(first.Body) {
				t.Fatalf("%s: body changed between runs", p)
			}
		}
	}
}

func TestProjectErrors(t *testing.T) {
	if _, err := projection.New(projection.Input{Turn: "x"}, projection.Options{Model: model(projection.Anthropic, 1, 4)}); err == nil {
		t.Error("no runbook: no error")
	}
	if _, err := projection.New(projection.Input{Runbook: gts, History: convo}, projection.Options{Model: model(projection.Anthropic, 1, 4)}); err == nil {
		t.Error("a request ending with the assistant's reply: no error")
	}
}

// TestHistoryMarkerAtMinimum: the history's marker goes on a prefix of exactly the minimum, and not one token
// below it (a prefix of the minimum is cacheable, as the providers state their minimums).
func TestHistoryMarkerAtMinimum(t *testing.T) {
	in := projection.Input{Runbook: gts, History: convo, Turn: "u2"}
	for _, p := range []projection.Provider{projection.Anthropic, projection.DashScope} {
		probe := project(t, in, projection.Options{Model: model(p, 1<<20, 4)})
		last := -1
		for i, pt := range probe.Parts {
			if pt.History {
				last = i
			}
		}
		at := probe.Parts[last].Prefix
		for _, tc := range []struct {
			min  int
			want []string
		}{{at, []string{"a1"}}, {at + 1, nil}} {
			pr := project(t, in, projection.Options{Model: model(p, tc.min, 4)})
			if got := markedTexts(pr); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("%s, history prefix %d, minimum %d: markers after %q, want %q", p, at, tc.min, got, tc.want)
			}
		}
	}
}

// TestHistoryMarkerSkipsEmptyParts: a history that ends in an empty tool result keeps its marker on the last part
// that holds text (the tool call), never on the empty one: a marked empty block is one the APIs refuse.
func TestHistoryMarkerSkipsEmptyParts(t *testing.T) {
	h := []projection.Message{
		{Role: projection.User, Content: "Look at NW-1."},
		{Role: projection.Assistant, ToolCalls: []projection.ToolCall{{ID: "c1", Name: "show", Arguments: json.RawMessage(`{"id":"NW-1"}`)}}},
		{Role: projection.ToolRole, ToolCallID: "c1", Content: ""},
	}
	in := projection.Input{Runbook: gts, History: h, Turn: "What next?"}
	for _, p := range []projection.Provider{projection.Anthropic, projection.DashScope} {
		pr := project(t, in, projection.Options{Model: model(p, 1, 1)})
		marks := pr.Markers()
		if len(marks) != 1 {
			t.Fatalf("%s: markers %v, want one", p, marks)
		}
		mk := pr.Parts[marks[0]]
		if !mk.History || mk.Text == "" || !strings.Contains(mk.Text, "show") {
			t.Errorf("%s: marker after %+v, want it after the tool call", p, mk)
		}
		if last := pr.Parts[marks[0]+1]; !last.History || last.Text != "" {
			t.Errorf("%s: the part after the marker is %+v, want the empty tool result", p, last)
		}
	}
}
