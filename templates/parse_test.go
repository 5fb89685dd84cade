package templates

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// block returns a block whose body is text, as the loader would make it from a template file named t.md.
func block(text string, raw bool) *blocks.Block {
	f := source.NewFile("templates/t.md", text)
	return &blocks.Block{ID: "b", Body: text, Raw: raw, BodyRange: f.Range(0, len(text))}
}

// TestForbiddenActions: define, template and block are refused where they are actions, and only there: the same
// words inside a string, a raw string or a comment of an action are text.
func TestForbiddenActions(t *testing.T) {
	tests := []struct {
		name, body string
		want       string // the diagnostic, or "" for a body that parses
	}{
		{"define", `x{{define "a"}}y{{end}}`, `templates/t.md:1:2: block "b": the "define" action is not allowed`},
		{"trim marker", "a\n{{- define \"a\"}}{{end}}", `templates/t.md:2:1: block "b": the "define" action is not allowed`},
		{"template", `{{template "a"}}`, `templates/t.md:1:1: block "b": the "template" action is not allowed`},
		{"block", `{{ block "a" . }}x{{end}}`, `templates/t.md:1:1: block "b": the "block" action is not allowed`},
		{"a string holding one", `{{ "{{define" }}`, ""},
		{"a raw string holding one", "{{ `{{template \"x\"}}` }}", ""},
		{"a comment holding one", `{{/* {{define "a"}} */}}ok`, ""},
		{"a closing brace in a string", `{{ "}}{{define" }}`, ""},
		{"a word that only starts like one", `{{ defined }}`, `templates/t.md:1:1: block "b": template syntax error`},
		{"after a string action", `{{ "}}" }}{{define "a"}}{{end}}`, `templates/t.md:1:11: block "b": the "define" action is not allowed`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Parse(block(tt.body, false), Consts{})
			got := diags.String()
			if tt.want == "" && got != "" || tt.want != "" && !strings.HasPrefix(got, tt.want) {
				t.Errorf("Parse(%q):\n got %q\nwant %q", tt.body, got, tt.want)
			}
		})
	}
}

// TestExecErrorColumnInRunes: text/template names the byte column of an execution error; the diagnostic counts runes,
// as every position does.
func TestExecErrorColumnInRunes(t *testing.T) {
	body, diags := Parse(block("ééé {{.missing}}", false), Consts{})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	_, d := body.Execute(map[string]any{}, Env{})
	if d == nil {
		t.Fatal("Execute succeeded, want a missing-key error")
	}
	// text/template names byte 9, where .missing starts; "ééé {{" before it is 9 bytes but 6 runes: column 7.
	if got := d.Range().String(); got != "templates/t.md:1:7" {
		t.Errorf("error at %s, want templates/t.md:1:7 (%s)", got, d)
	}
}

// TestExecErrorOnLaterLine: the byte column text/template names counts from the start of its line, not the body.
func TestExecErrorOnLaterLine(t *testing.T) {
	body, diags := Parse(block("one\nééé {{.missing}}", false), Consts{})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if _, d := body.Execute(map[string]any{}, Env{}); d == nil || d.Range().String() != "templates/t.md:2:7" {
		t.Errorf("error %v, want it at templates/t.md:2:7", d)
	}
}

// TestUsesSeeThroughData: every way of reading a variable from the data is a use of it, so that the scope rule
// (docs/reference.md#the-static-scope-rule) sees it before rendering does.
func TestUsesSeeThroughData(t *testing.T) {
	tests := []struct {
		body string
		want []string // variables used
		data bool     // the data as a whole is used
	}{
		{"{{.c}}", []string{"c"}, false},
		{"{{$.c}}", []string{"c"}, false},
		{"{{(.).c}}", []string{"c"}, false},
		{"{{($).c}}", []string{"c"}, false},
		{"{{((.)).c.d}}", []string{"c"}, false},
		{`{{index . "c"}}`, []string{"c"}, false},
		{`{{index $ "c" 0}}`, []string{"c"}, false},
		{`{{$d := .}}{{index $d "c"}}`, []string{"c"}, true}, // binding . is taken as using it all, conservatively
		{`{{index . .k}}`, []string{"k"}, true},
		{`{{range .items}}{{.c}}{{end}}`, []string{"items"}, false},
		{`{{range .items}}{{(.).c}}{{index . "c"}}{{end}}`, []string{"items"}, false},
		{`{{json .}}`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			body, diags := Parse(block(tt.body, false), Consts{})
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			var got []string
			for _, u := range body.Uses.Vars {
				got = append(got, u.Name)
				if name := tt.body[u.Off:u.End]; !strings.Contains(name, u.Name) {
					t.Errorf("use of %q spans %q", u.Name, name)
				}
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") || body.Uses.Data != tt.data {
				t.Errorf("uses %q, data %v; want %q, %v", got, body.Uses.Data, tt.want, tt.data)
			}
		})
	}
}

// TestOutputLimit: one limit bounds what any block renders, with a message that fits the cause.
func TestOutputLimit(t *testing.T) {
	t.Run("loop", func(t *testing.T) {
		// 300,000 iterations of weight 3 fit the budget; 60 bytes each pass the output limit first.
		b, diags := Parse(block("{{range 300000}}"+strings.Repeat("x", 60)+"{{end}}", false), Consts{})
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		_, d := b.Execute(map[string]any{}, Env{})
		if d == nil || !strings.Contains(d.Summary, "renders more than 16 MiB; a template loop is probably running away") {
			t.Fatalf("Execute = %v, want the runaway-loop error", d)
		}
	})
	t.Run("large value", func(t *testing.T) {
		b, diags := Parse(block(`{{.big}}`, false), Consts{})
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		_, d := b.Execute(map[string]any{"big": strings.Repeat("x", MaxOutput+1)}, Env{})
		if d == nil || !strings.Contains(d.Summary, "it writes one piece of 16.0 MiB (a constant, a value or a function's result)") {
			t.Fatalf("Execute = %v, want the large-piece error", d)
		}
	})
	t.Run("large constant", func(t *testing.T) {
		big := strings.Repeat("x", MaxOutput+1)
		b, diags := Parse(block(`{{const "big"}}`, false), Consts{Text: map[string]string{"big": big}})
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		_, d := b.Execute(map[string]any{}, Env{})
		if d == nil || d.String() != `templates/t.md:1:3: block "b": const: its result would be at least 16.0 MiB, over the 16 MiB a block may render` {
			t.Fatalf("Execute = %v, want the function-result error", d)
		}
	})
	for _, raw := range []bool{true, false} {
		t.Run("literal body", func(t *testing.T) {
			_, diags := Parse(block(strings.Repeat("y", MaxOutput+1), raw), Consts{})
			if len(diags) != 1 || !strings.Contains(diags[0].Summary, "its text is 16.0 MiB, over the 16 MiB a block may render") {
				t.Fatalf("Parse = %v, want the literal-size error", diags)
			}
		})
	}
	t.Run("literal body at the limit", func(t *testing.T) {
		if _, diags := Parse(block(strings.Repeat("y", MaxOutput), true), Consts{}); len(diags) > 0 {
			t.Fatalf("Parse = %v, want no error at exactly the limit", diags)
		}
	})
}

// FuzzParse: no body makes Parse or Execute panic or run away, and every use it reports lies within the body.
func FuzzParse(f *testing.F) {
	for _, body := range []string{
		"{{.diff}}", "a\n{{- if .x -}}\n{{.diff}}{{end}}", "{{range $i, $r := .repos}}{{$r.url}}{{end}}",
		`{{lookup "t" .k "d"}}{{title "x"}}{{dropped "l"}}{{trim .s}}`, "{{range 9223372036854775807}}{{end}}",
		"{{range $i := 100000}}{{if eq $i 3}}{{break}}{{end}}{{end}}", `{{printf "%*d" 999999 1}}`,
		`{{define "x"}}{{end}}`, `{{/* c */}}{{.a.b}}{{(.).c}}{{index . "d"}}`, "{{with $x := .}}{{$x.y}}{{end}}",
		// The arithmetic, set and dict functions (docs/reference.md, "Arithmetic", "Sets and dicts").
		`{{add 9223372036854775807 1}}{{div 1 0}}{{mod -9223372036854775808 -1}}{{max 1 2 3}}{{sub 1 (mul 2 3)}}`,
		`{{$d := dict .k 1 "x" .s}}{{$_ := set $d .k .l}}{{range $k, $v := $d}}{{$k}}{{$v}}{{end}}{{json $d}}{{$d}}`,
		`{{range uniq .l}}{{.}}{{end}}{{has .k .l}}{{hasKey (first .repos) "url"}}{{empty .repos}}`,
		`{{range whereNot "url" "u" .repos}}{{.url}}{{end}}{{range .repos | whereNotEmpty "url"}}{{end}}`,
		`{{if or .x (not (and .l .s))}}{{len .repos}}{{end}}`,
	} {
		f.Add(body)
	}
	data := map[string]any{"diff": "```x```", "x": true, "repos": []map[string]any{{"url": "u"}}, "k": "a",
		"l": []string{"a"}, "s": " s ", "task": "issue"}
	env := Env{
		Ref:     func(id string) (string, error) { return "## " + id, nil },
		Title:   func(id string) (string, error) { return id, nil },
		Dropped: func(string) (int, error) { return 1, nil },
	}
	consts := Consts{Text: map[string]string{"c": "C"}, Tables: map[string]map[string]string{"t": {"a": "A"}}}
	f.Fuzz(func(t *testing.T, body string) {
		b, diags := Parse(block(body, false), consts)
		if b == nil {
			if len(diags) == 0 {
				t.Fatal("Parse failed without a diagnostic")
			}
			return
		}
		u := b.Uses
		all := append(append(append(append(append(append([]Use(nil), u.Vars...), u.Items...), u.Consts...), u.Refs...), u.Titles...), u.Lookups...)
		for _, f := range u.Fields {
			all = append(all, Use{Name: f.Name, Off: f.Off, End: f.End})
		}
		for _, x := range all {
			if x.Off < 0 || x.Off > x.End || x.End > len(body) {
				t.Fatalf("use %+v outside the %d-byte body", x, len(body))
			}
		}
		b.Execute(data, env)
	})
}

// TestParseKnowsBuiltins: the parser checks calls against names it lists once, text/template's predefined
// functions among them, as Template.Parse would: a body may call each of them, and an unknown name is still refused.
func TestParseKnowsBuiltins(t *testing.T) {
	p := NewParser(Consts{})
	for _, name := range []string{"and", "call", "html", "index", "slice", "js", "len", "not", "or", "print", "printf",
		"println", "urlquery", "eq", "ge", "gt", "le", "lt", "ne"} {
		_, diags := p.Parse(block("{{if false}}{{"+name+" 1 2}}{{end}}x", false))
		if strings.Contains(diags.Error(), "not defined") {
			t.Errorf("%s: %v", name, diags)
		}
	}
	_, diags := p.Parse(block("{{nosuchfunction 1}}", false))
	if !strings.Contains(diags.Error(), `function "nosuchfunction" not defined`) {
		t.Errorf("an unknown function: %v, want it refused as not defined", diags)
	}
}
