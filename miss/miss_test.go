package miss_test

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/miss"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/tokens"
)

var counter = tokens.New(tokens.O200k)

func parse(t *testing.T, body, provider string) *miss.Body {
	t.Helper()
	b, err := miss.Parse([]byte(body), provider)
	if err != nil {
		t.Fatalf("Parse %s: %v", body, err)
	}
	return b
}

func compare(t *testing.T, a, b string) *miss.Result {
	t.Helper()
	ba, bb := parse(t, a, ""), parse(t, b, "")
	r, err := miss.Compare(ba, bb, miss.RulesFor(nil, ba), nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDetect(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`{"model":"claude-sonnet-4-5","max_tokens":10,"system":"S","messages":[{"role":"user","content":"hi"}]}`, "anthropic"},
		{`{"model":"claude-sonnet-4-5","max_tokens":10,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]}]}`, "anthropic"},
		{`{"model":"gpt-5","messages":[{"role":"system","content":"S"},{"role":"user","content":"hi"}]}`, "openai"},
		{`{"model":"gpt-5","instructions":"S","input":"hi"}`, "openai"},
		{`{"model":"qwen3-max","messages":[{"role":"system","content":[{"type":"text","text":"S","cache_control":{"type":"ephemeral"}}]}]}`, "dashscope"},
		{`{"model":"deepseek-chat","messages":[{"role":"user","content":"hi"}]}`, "deepseek"},
		{`{"system":[{"text":"S"},{"cachePoint":{"type":"default"}}],"messages":[{"role":"user","content":[{"text":"hi"}]}]}`, "bedrock"},
		{`{"systemInstruction":{"parts":[{"text":"S"}]},"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`, "gemini"},
	} {
		if got := parse(t, c.body, "").Provider.String(); got != c.want {
			t.Errorf("%s: provider %s, want %s", c.body, got, c.want)
		}
	}
}

// The next turn of a session extends the last: the history grows after it, a string content equals one text
// block, and cache markers move without breaking anything.
func TestExtends(t *testing.T) {
	for _, c := range []struct{ name, a, b string }{
		{"anthropic", `{"model":"m","system":[{"type":"text","text":"Rules.","cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user","content":"Turn one."}]}`,
			`{"model":"m","system":"Rules.","messages":[{"role":"user","content":"Turn one."},{"role":"assistant","content":[{"type":"text","text":"Reply.","cache_control":{"type":"ephemeral"}}]},{"role":"user","content":"Turn two."}]}`},
		{"anthropic merged user message", `{"model":"m","system":"S","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}]}`,
			`{"model":"m","system":"S","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok","cache_control":{"type":"ephemeral"}},{"type":"text","text":"Next."}]}]}`},
		{"openai", `{"model":"gpt-5","prompt_cache_key":"k","messages":[{"role":"system","content":"S"},{"role":"user","content":"one"}]}`,
			`{"model":"gpt-5","prompt_cache_key":"k","messages":[{"role":"system","content":"S"},{"role":"user","content":"one"},{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c","content":"r"}]}`},
		{"bedrock", `{"system":[{"text":"S"},{"cachePoint":{"type":"default"}}],"messages":[{"role":"user","content":[{"text":"one"}]}]}`,
			`{"system":[{"text":"S"}],"messages":[{"role":"user","content":[{"text":"one"},{"cachePoint":{"type":"default"}}]},{"role":"assistant","content":[{"text":"r"}]}]}`},
		{"gemini", `{"systemInstruction":{"parts":[{"text":"S"}]},"contents":[{"role":"user","parts":[{"text":"one"}]}]}`,
			`{"systemInstruction":{"parts":[{"text":"S"}]},"contents":[{"role":"user","parts":[{"text":"one"}]},{"role":"model","parts":[{"text":"r"}]}]}`},
		{"responses", `{"model":"gpt-5","instructions":"S","input":[{"role":"user","content":[{"type":"input_text","text":"one"}]}]}`,
			`{"model":"gpt-5","instructions":"S","input":[{"role":"user","content":"one"},{"type":"function_call","call_id":"c","name":"f","arguments":"{}"}]}`},
		{"tool key order", `{"model":"m","tools":[{"name":"f","description":"d","input_schema":{"type":"object"}}],"system":"S","messages":[]}`,
			`{"model":"m","tools":[{"input_schema":{"type":"object"},"description":"d","name":"f","cache_control":{"type":"ephemeral"}}],"system":"S","messages":[{"role":"user","content":"x"}]}`},
	} {
		if r := compare(t, c.a, c.b); !r.Extends {
			t.Errorf("%s: breaks at part %d byte %d (%s)", c.name, r.Part, r.Offset, r.Why)
		}
	}
}

func TestBreaks(t *testing.T) {
	for _, c := range []struct {
		name, a, b   string
		part, offset int
		why          string
	}{
		{"system text", `{"model":"m","system":[{"type":"text","text":"Tools first."},{"type":"text","text":"Reply in English."}],"messages":[]}`,
			`{"model":"m","system":[{"type":"text","text":"Tools first."},{"type":"text","text":"Reply in French."}],"messages":[]}`, 1, 9, "text"},
		{"a block split differently", `{"model":"m","system":[{"type":"text","text":"AB"}],"messages":[]}`,
			`{"model":"m","system":[{"type":"text","text":"A"},{"type":"text","text":"B"}],"messages":[]}`, 0, 1, "text"},
		{"model", `{"model":"gpt-5","messages":[{"role":"user","content":"x"}]}`, `{"model":"gpt-5-mini","messages":[{"role":"user","content":"x"}]}`, 0, 0, "model"},
		{"role", `{"model":"gpt-5","messages":[{"role":"system","content":"S"},{"role":"user","content":"x"}]}`,
			`{"model":"gpt-5","messages":[{"role":"system","content":"S"},{"role":"developer","content":"x"}]}`, 1, 0, "kind"},
		{"tool", `{"model":"m","tools":[{"name":"f","input_schema":{"type":"object"}}],"messages":[]}`,
			`{"model":"m","tools":[{"name":"f","input_schema":{"type":"object","required":[]}}],"messages":[]}`, 0, 18, "text"},
		{"shorter", `{"model":"m","system":"S","messages":[{"role":"user","content":"x"}]}`, `{"model":"m","system":"S","messages":[]}`, 1, 0, "end"},
		{"a message continued", `{"model":"gpt-5","messages":[{"role":"user","content":"one"}]}`, `{"model":"gpt-5","messages":[{"role":"user","content":"one more"}]}`, 0, 3, "text"},
	} {
		r := compare(t, c.a, c.b)
		if r.Extends || r.Part != c.part || r.Offset != c.offset || r.Why != c.why {
			t.Errorf("%s: extends %v, part %d byte %d (%s); want part %d byte %d (%s)", c.name, r.Extends, r.Part, r.Offset, r.Why, c.part, c.offset, c.why)
		}
	}
}

// Tokens re-billed, worked out by hand with a tiny minimum: each "word " of these texts is one o200k token.
func TestRebilled(t *testing.T) {
	words := func(w string, n int) string { return strings.Repeat(" "+w, n) }
	g, task, sess := words("global", 100), words("task", 50), words("session", 30)
	body := func(sessText string) *miss.Body {
		return parse(t, `{"model":"m","system":[`+
			`{"type":"text","text":"`+g+`","cache_control":{"type":"ephemeral"}},`+
			`{"type":"text","text":"`+task+`","cache_control":{"type":"ephemeral"}},`+
			`{"type":"text","text":"`+sessText+`","cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user","content":"hi"}]}`, "")
	}
	a, b := body(sess), body(words("session", 29)+" changed")
	rules := miss.Rules{Explicit: true, MinCacheTokens: 1, Step: 1}
	r, err := miss.Compare(a, b, rules, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A's entries: 100, 150 and 180 tokens; the change is in the third block: B reads 150, pays 30 again.
	if r.Cached != 180 || r.Reused != 150 || r.Rebilled != 30 || r.Behind != 2 || r.Before != 1 {
		t.Errorf("cached %d reused %d rebilled %d behind %d before %d; want 180 150 30 2 1", r.Cached, r.Reused, r.Rebilled, r.Behind, r.Before)
	}
	if r.SystemOffset != len(g)+len(task)+29*len(" session")+1 /* the space of " changed" */ {
		t.Errorf("system offset %d", r.SystemOffset)
	}
	// Automatic caching in 128-token steps from 1,024: the entry is A's whole prompt stepped down.
	long := func(tail string) *miss.Body {
		return parse(t, `{"model":"gpt-5","messages":[{"role":"system","content":"`+words("global", 1500)+tail+`"},{"role":"user","content":"hi"}]}`, "")
	}
	a, b = long(words("same", 200)), long(words("same", 100)+" changed")
	r, err = miss.Compare(a, b, miss.RulesFor(nil, a), nil)
	if err != nil {
		t.Fatal(err)
	}
	// A: 1,700 system tokens + "hi" = 1,701; stepped: 1,024 + 5 × 128 = 1,664. The difference is 1,601 tokens
	// in (1,600 words and the space " changed" shares with " same"): 1,024 + 4 × 128 = 1,536 read, 128 paid
	// again.
	if r.Tokens != 1601 || r.Cached != 1664 || r.Reused != 1536 || r.Rebilled != 128 {
		t.Errorf("tokens %d cached %d reused %d rebilled %d; want 1601 1664 1536 128", r.Tokens, r.Cached, r.Reused, r.Rebilled)
	}
}

// Consecutive turns that promptc project builds extend each other for every provider; an edit of a constant
// breaks the prefix, and Attribute names the constant.
func TestProjectedTurns(t *testing.T) {
	prog, diags := assemble.LoadDir("../examples/tracker")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	f := prog.Project.Fixture("conversation")
	s, err := projection.FixtureReplay(prog, "chat", f)
	if err != nil {
		t.Fatal(err)
	}
	cat, _ := projection.NewCatalog(nil)
	for _, p := range []projection.Provider{projection.Anthropic, projection.OpenAI, projection.DashScope} {
		m, _ := cat.Model(p, "")
		var prev *miss.Body
		for k := 1; k <= len(s.Turns); k++ {
			pr, err := projection.New(s.Input(k), projection.Options{Model: m, Tools: prog.Project.ToolsFor("chat")})
			if err != nil {
				t.Fatal(err)
			}
			b, err := miss.Parse(pr.Body, "")
			if err != nil {
				t.Fatal(err)
			}
			if b.Provider != p {
				t.Errorf("turn %d of %s parsed as %s", k, p, b.Provider)
			}
			if prev != nil {
				r, err := miss.Compare(prev, b, miss.RulesFor(cat, prev), nil)
				if err != nil {
					t.Fatal(err)
				}
				if !r.Extends || r.Rebilled != 0 {
					t.Errorf("%s turn %d does not extend turn %d: part %d byte %d (%s)", p, k, k-1, r.Part, r.Offset, r.Why)
				}
			}
			prev = b
		}
	}
}

func TestAttributeConstant(t *testing.T) {
	prog, diags := assemble.LoadDir("../examples/tracker")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	s, err := projection.FixtureReplay(prog, "chat", prog.Project.Fixture("conversation"))
	if err != nil {
		t.Fatal(err)
	}
	cat, _ := projection.NewCatalog(nil)
	m, _ := cat.Model(projection.Anthropic, "")
	pr, err := projection.New(s.Input(1), projection.Options{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	c := prog.Project.Consts["never_post_secrets"]
	edited := strings.Replace(string(pr.Body), "Never put a secret", "Never put any secret", 1)
	if edited == string(pr.Body) || !strings.Contains(c.Value, "Never put a secret") {
		t.Fatal("the constant's text is not in the body")
	}
	a, _ := miss.Parse(pr.Body, "")
	b, _ := miss.Parse([]byte(edited), "")
	r, err := miss.Compare(a, b, miss.RulesFor(cat, a), nil)
	if err != nil {
		t.Fatal(err)
	}
	src := miss.Attribute(prog, r)
	if src == nil || src.Origin == nil {
		t.Fatalf("no source: %+v", src)
	}
	if src.Origin.Kind != assemble.OriginConstant || src.Origin.Name != "never_post_secrets" || src.Side != "A" || !src.Exact || src.Block.ID != "safety" {
		t.Errorf("source %+v, origin %v", src, src.Origin)
	}
	if rb := s.Runbook.Text; rb[r.SystemOffset-len("Never put a"):r.SystemOffset] != "Never put a" {
		t.Errorf("system offset %d points at %q", r.SystemOffset, rb[r.SystemOffset:r.SystemOffset+10])
	}
}

// A byte written by a template file's text is named by its line in templates/.
func TestAttributeTemplate(t *testing.T) {
	prog, diags := assemble.Load(fstest.MapFS{
		"promptc.toml":       {Data: []byte("name = \"t\"\ntasks = [\"chat\"]\n\n[runbook]\norder = [\"a\", \"b\"]\n")},
		"blocks/all.toml":    {Data: []byte("[[block]]\nid = \"a\"\nbody = \"First.\"\n\n[[block]]\nid = \"b\"\ntemplate = \"b.md\"\n")},
		"templates/b.md":     {Data: []byte("Line one.\nLine two of the template.\n")},
		"fixtures/none.toml": {Data: []byte("")},
	})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	rb, err := prog.Render(assemble.RenderRequest{Task: "chat", Fixture: prog.Project.Fixture("none")})
	if err != nil {
		t.Fatal(err)
	}
	body := func(sys string) []byte {
		js, _ := json.Marshal(map[string]any{"model": "gpt-5", "messages": []any{
			map[string]any{"role": "system", "content": sys}, map[string]any{"role": "user", "content": "x"}}})
		return js
	}
	edited := strings.Replace(rb.Text, "two of", "2 of", 1)
	r, src, err := miss.Between(body(rb.Text), body(edited), miss.Options{Program: prog})
	if err != nil {
		t.Fatal(err)
	}
	if src == nil || src.Origin == nil || src.Origin.Kind != assemble.OriginTemplate || src.Origin.Name != "b.md" ||
		src.Origin.At.Start.Line != 2 || src.Block.ID != "b" || src.Side != "A" {
		t.Fatalf("source %+v (origin %v), offset %d", src, src.Origin, r.SystemOffset)
	}
}

// Only the leading system and developer messages are the system prompt: a system message later in the
// conversation is a message like the others.
func TestSystemIsLeading(t *testing.T) {
	b := parse(t, `{"model":"gpt-5","messages":[{"role":"developer","content":"A"},{"role":"system","content":[{"type":"text","text":"B"}]},{"role":"user","content":"u"},{"role":"system","content":"late"}]}`, "")
	if got := b.System(); got != "AB" {
		t.Errorf("system %q, want AB", got)
	}
	if k := b.Parts[3].Kind; k != miss.Message {
		t.Errorf("the late system message is a %s part", k)
	}
}

// TestBedrockToolCachePoint: a cachePoint closing toolConfig.tools is an entry at the tools' end, so a change in
// the system prompt still reads the tools back: Reused is the tools' tokens, the breakpoint fallen behind is the
// system's.
func TestBedrockToolCachePoint(t *testing.T) {
	const tools = `"toolConfig":{"tools":[{"toolSpec":{"name":"f","description":"d","inputSchema":{"json":{"type":"object"}}}},{"cachePoint":{"type":"default"}}]}`
	a := parse(t, `{`+tools+`,"system":[{"text":"Rules one."},{"cachePoint":{"type":"default"}}],"messages":[{"role":"user","content":[{"text":"hi"}]}]}`, "")
	b := parse(t, `{`+tools+`,"system":[{"text":"Rules two."},{"cachePoint":{"type":"default"}}],"messages":[{"role":"user","content":[{"text":"hi"}]}]}`, "")
	if a.Provider.String() != "bedrock" || len(a.Parts) != 3 || a.Parts[0].Kind != miss.Tool || !a.Parts[0].Marker {
		t.Fatalf("parts %+v: want the tool marked, then the system, then the message", a.Parts)
	}
	r, err := miss.Compare(a, b, miss.Rules{Explicit: true, MinCacheTokens: 1, Step: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tool := counter.Count(`{"toolSpec":{"description":"d","inputSchema":{"json":{"type":"object"}},"name":"f"}}`)
	if r.Part != 1 || r.Before != 0 || r.Behind != 1 || r.Reused != tool {
		t.Errorf("part %d, before %d, behind %d, reused %d; want part 1, before 0 (the tools), behind 1, reused %d", r.Part, r.Before, r.Behind, r.Reused, tool)
	}
	if want := tool + counter.Count("Rules one."); r.Cached != want || r.Rebilled != want-tool {
		t.Errorf("cached %d, rebilled %d; want %d and %d", r.Cached, r.Rebilled, want, want-tool)
	}
}

// TestCacheLimit: with a model that caches at most MaxCacheTokens tokens of a prompt (Amazon Nova), an entry holds
// no more than that, and a difference after the limit re-bills nothing.
func TestCacheLimit(t *testing.T) {
	a := parse(t, `{"system":[{"text":"Rules one."},{"cachePoint":{"type":"default"}}],"messages":[{"role":"user","content":[{"text":"Turn one."},{"cachePoint":{"type":"default"}}]}]}`, "")
	b := parse(t, `{"system":[{"text":"Rules one."},{"cachePoint":{"type":"default"}}],"messages":[{"role":"user","content":[{"text":"Turn two."},{"cachePoint":{"type":"default"}}]}]}`, "")
	sys := counter.Count("Rules one.")
	for _, tc := range []struct {
		limit, cached, reused int
	}{
		{0, sys + counter.Count("Turn one."), sys},
		{sys, sys, sys}, // the limit at the system's end: the message's entry holds nothing more, nothing is lost
		{sys - 1, sys - 1, sys - 1},
	} {
		r, err := miss.Compare(a, b, miss.Rules{Explicit: true, MinCacheTokens: 1, Step: 1, MaxCacheTokens: tc.limit}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Cached != tc.cached || r.Reused != tc.reused || r.Rebilled != tc.cached-tc.reused {
			t.Errorf("limit %d: cached %d reused %d rebilled %d, want %d, %d, %d", tc.limit, r.Cached, r.Reused, r.Rebilled, tc.cached, tc.reused, tc.cached-tc.reused)
		}
	}
	cat, _ := projection.NewCatalog(nil)
	nova := parse(t, `{"modelId":"amazon.nova-pro-v1:0","system":[{"text":"S"}],"messages":[]}`, "bedrock")
	if r := miss.RulesFor(cat, nova); r.MaxCacheTokens != 20000 || r.MinCacheTokens != 1000 {
		t.Errorf("Nova's rules %+v: want at most 20,000 cached from 1,000 on", r)
	}
}

// TestDeepSeekStorageUnits: DeepSeek's entry is A's whole prompt in whole 64-token storage units (the model table's
// row), read only whole.
func TestDeepSeekStorageUnits(t *testing.T) {
	prompt := strings.Repeat("Check the invoice. ", 20) // 81 tokens as a message's content (the trailing space its own)
	if n := counter.Count(prompt); n != 81 {
		t.Fatalf("the prompt counts %d tokens; the figures below need 81", n)
	}
	a := parse(t, `{"model":"deepseek-chat","messages":[{"role":"system","content":"`+prompt+`"}]}`, "")
	b := parse(t, `{"model":"deepseek-chat","messages":[{"role":"system","content":"`+prompt+`"},{"role":"user","content":"Why?"}]}`, "")
	r, err := miss.Compare(a, b, miss.RulesFor(nil, a), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Extends || r.Cached != 64 || r.Reused != 64 || r.Rebilled != 0 {
		t.Errorf("extends %v, cached %d, reused %d, rebilled %d; want an extension reading 64 of the 81 tokens", r.Extends, r.Cached, r.Reused, r.Rebilled)
	}
}
