package miss_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/miss"
)

// write is r's report for a person.
func write(t *testing.T, r *miss.Result, src *miss.Source) string {
	t.Helper()
	var b bytes.Buffer
	if err := r.Write(&b, src); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Each way two bodies part has its own words; the figures are o200k tokens of these short texts.
func TestWrite(t *testing.T) {
	explicit := miss.Rules{Explicit: true, MinCacheTokens: 1, Step: 1}
	long := strings.Repeat("Rules of the house. ", 10)
	for _, tc := range []struct {
		name, a, b string
		rules      *miss.Rules // nil: RulesFor
		want       string
	}{
		{"extends, with a cache", `{"model":"m","system":[{"type":"text","text":"Rules.","cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user","content":"hi"}]}`,
			`{"model":"m","system":[{"type":"text","text":"Rules."}],"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"ok"}]}`, &explicit,
			"B extends A: A's 2 parts (8 bytes, 3 tokens) are B's first, byte for byte.\nB can read A's cache up to the breakpoint after system block 1: 2 tokens.\n"},
		{"another model", `{"model":"gpt-5","messages":[{"role":"user","content":"x"}]}`, `{"model":"gpt-5-mini","messages":[{"role":"user","content":"x"}]}`, nil,
			"B breaks A's prefix at byte 0: A is for model \"gpt-5\" and B for \"gpt-5-mini\"; caches are per model.\n" +
				"A wrote no cache entry (its prefixes stay under the minimum of 1,024 tokens): nothing is re-billed.\n"},
		{"no model named", `{"messages":[{"role":"user","content":[{"text":"x"}]}]}`, `{"modelId":"amazon.nova-pro-v1:0","messages":[{"role":"user","content":[{"text":"x"}]}]}`, nil,
			"B breaks A's prefix at byte 0: A is for model (none named) and B for \"amazon.nova-pro-v1:0\"; caches are per model.\n" +
				"A wrote no cache entry (its prefixes stay under the minimum of 4,096 tokens): nothing is re-billed.\n"},
		{"another kind of part", `{"model":"gpt-5","messages":[{"role":"system","content":"S"},{"role":"user","content":"x"}]}`,
			`{"model":"gpt-5","messages":[{"role":"system","content":"S"},{"role":"system","content":"x"}]}`, &explicit,
			"B breaks A's prefix at message 2 (user), byte 0 of it (byte 1 of the cached order, 1 token in):\n" +
				"  A has a message part there, B a system part.\n" +
				"A wrote no cache entry (its prefixes stay under the minimum of 1 token): nothing is re-billed.\n"},
		{"another head", `{"model":"gpt-5","messages":[{"role":"user","content":"x"},{"role":"tool","tool_call_id":"c1","content":"r"}]}`,
			`{"model":"gpt-5","messages":[{"role":"user","content":"x"},{"role":"tool","tool_call_id":"c2\u001b","content":"r"}]}`, &explicit,
			"B breaks A's prefix at message 2 (tool), byte 0 of it (byte 1 of the cached order, 1 token in):\n" +
				"  A's message opens as \"tool c1\", B's as \"tool c2\\x1b\".\n" +
				"A wrote no cache entry (its prefixes stay under the minimum of 1 token): nothing is re-billed.\n"},
		{"a hostile role", `{"model":"gpt-5","messages":[{"role":"user","content":"x"},{"role":"user\u001b]0;t\u0007","content":"a"}]}`,
			`{"model":"gpt-5","messages":[{"role":"user","content":"x"}]}`, &explicit,
			"", // checked below: refused
		},
		{"long texts, cut on runes", `{"model":"m","system":[{"type":"text","text":"` + long + `é` + long + `","cache_control":{"type":"ephemeral"}}],"messages":[]}`,
			`{"model":"m","system":[{"type":"text","text":"` + long + `è` + long + `","cache_control":{"type":"ephemeral"}}],"messages":[]}`, &explicit,
			// é and è share their first byte: the difference is the second, and the excerpts start and end on whole runes.
			"B breaks A's prefix at system block 1, byte 201 of it (byte 201 of the cached order, 51 tokens in):\n" +
				"  A: …\"e house. Rules of the house. éRules of the house. Rules of \"…\n" +
				"  B: …\"e house. Rules of the house. èRules of the house. Rules of \"…\n" +
				"It falls behind the breakpoint after system block 1: of the 102 tokens A cached, B reads none and pays for 102 tokens again.\n"},
		{"after the last breakpoint", `{"model":"m","system":[{"type":"text","text":"Rules.","cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user","content":"one"}]}`,
			`{"model":"m","system":[{"type":"text","text":"Rules."}],"messages":[{"role":"user","content":"two"}]}`, &explicit,
			"B breaks A's prefix at message 1 (user), byte 0 of it (byte 6 of the cached order, 2 tokens in):\n" +
				"  A: \"one\"\n  B: \"two\"\n" +
				"That is after A's last cache breakpoint: B still reads 2 tokens; nothing is re-billed.\n"},
		{"automatic caching", `{"model":"m","messages":[{"role":"user","content":"` + long + `one more time, please"}]}`,
			`{"model":"m","messages":[{"role":"user","content":"` + long + `two"}]}`, &miss.Rules{MinCacheTokens: 1, Step: 1},
			"B breaks A's prefix at message 1 (user), byte 200 of it (byte 200 of the cached order, 51 tokens in):\n" +
				"  A: …\"he house. Rules of the house. one more time, please\"\n  B: …\"he house. Rules of the house. two\"\n" +
				"It falls behind its automatic cache entry (A's whole prompt): of the 55 tokens A cached, B reads 51 and pays for 4 tokens again.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := miss.Parse([]byte(tc.a), "")
			if err != nil {
				if tc.want == "" {
					return
				}
				t.Fatal(err)
			}
			b, err := miss.Parse([]byte(tc.b), "")
			if err != nil {
				t.Fatal(err)
			}
			rules := miss.RulesFor(nil, a)
			if tc.rules != nil {
				rules = *tc.rules
			}
			r, err := miss.Compare(a, b, rules, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := write(t, r, nil); got != tc.want {
				t.Errorf("report:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// A role that is no role of the API is refused before it can reach a label; one the API has is printed as it is.
func TestRoleInLabel(t *testing.T) {
	_, err := miss.Parse([]byte(`{"model":"gpt-5","messages":[{"role":"user\u001b]0;t\u0007","content":"a"}]}`), "")
	if err == nil || !strings.Contains(err.Error(), `role is "user\x1b]0;t\a"`) {
		t.Errorf("Parse: %v", err)
	}
	b, err := miss.Parse([]byte(`{"model":"gpt-5","messages":[{"role":"developer","content":"a"}]}`), "")
	if err != nil || b.Parts[0].Label != "message 1 (developer)" {
		t.Errorf("Parse: %+v, %v", b, err)
	}
}

// Region names the part of the cached order, and says what it is when it is none.
func TestKindString(t *testing.T) {
	for k, want := range map[miss.Region]string{miss.Cached: "cached content", miss.Tool: "tool", miss.System: "system", miss.Message: "message", 9: "Kind(9)"} {
		if got := k.String(); got != want {
			t.Errorf("%d: %q, want %q", k, got, want)
		}
	}
}

// With the project that rendered the bodies, the report names the source behind the byte: here a template line of
// block b, in A's runbook as the project renders it now; then a render that only agrees with B past the byte.
func TestWriteSource(t *testing.T) {
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
	r, src, err := miss.Between(body(rb.Text), body(strings.Replace(rb.Text, "two of", "2 of", 1)), miss.Options{Program: prog})
	if err != nil {
		t.Fatal(err)
	}
	want := "B breaks A's prefix at message 1 (system), byte 23 of it (byte 23 of the cached order, 7 tokens in); runbook line 4, column 6:\n" +
		"  A: \"First.\\n\\nLine one.\\nLine two of the template.\\n\"\n" +
		"  B: \"First.\\n\\nLine one.\\nLine 2 of the template.\\n\"\n" +
		"A wrote no cache entry (its prefixes stay under the minimum of 1,024 tokens): nothing is re-billed.\n" +
		"Behind that byte: template b.md (templates/b.md:2:6), block b (blocks/all.toml:6:1), global scope; A's runbook, task chat, fixture none, as the project renders it now.\n"
	if got := write(t, r, src); got != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
	// B's system text with more after the runbook: no render is B's or A's whole text, one agrees past the byte.
	r, src, err = miss.Between(body(rb.Text+"Extra A."), body(strings.Replace(rb.Text, "two of", "2 of", 1)+"Extra B."), miss.Options{Program: prog})
	if err != nil {
		t.Fatal(err)
	}
	if got := write(t, r, src); !strings.HasSuffix(got, "; A's runbook, task chat, fixture none, which the project renders alike up to that byte.\n") {
		t.Errorf("report:\n%s", got)
	}
}

// Bodies for two providers share no cache.
func TestWriteProvider(t *testing.T) {
	a := parse(t, `{"model":"m","system":"S","messages":[{"role":"user","content":"x"}]}`, "")
	b := parse(t, `{"model":"m","messages":[{"role":"user","content":"x"}]}`, "")
	r, err := miss.Compare(a, b, miss.RulesFor(nil, a), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := write(t, r, nil), "B breaks A's prefix at byte 0: A is for anthropic and B for openai; caches are per provider.\n"+
		"A wrote no cache entry (its prefixes stay under the minimum of 1,024 tokens): nothing is re-billed.\n"; got != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
}

// What the shape check lets through and the reader still refuses is said, naming the field.
func TestBodyErrors(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"model":"m","tools":{},"messages":[]}`, `"tools" is not an array`},
		{`{"model":"gpt-5","input":5}`, `"input" is neither a string nor an array`},
	} {
		if _, err := miss.Parse([]byte(tc.body), ""); err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %s", tc.body, err, tc.want)
		}
	}
}
