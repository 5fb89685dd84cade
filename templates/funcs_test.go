package templates

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

var testConsts = Consts{
	Text: map[string]string{"rule": "Run only listed commands.", "channel": "not a table"},
	Tables: map[string]map[string]string{
		"channel_names": {"slack": "Slack", "discord": "Discord"},
		"empty":         {},
	},
}

var testEnv = Env{
	Ref: func(id string) (string, error) {
		if id == "fmt" {
			return "## Comment Formatting", nil
		}
		return "", fmt.Errorf("ref %q: no block has this id", id)
	},
	Title: func(id string) (string, error) {
		if id == "fmt" {
			return "Comment Formatting", nil
		}
		return "", fmt.Errorf("title %q: block %q has no title", id, id)
	},
	Dropped: func(name string) (int, error) {
		if name == "comments" {
			return 3, nil
		}
		return 0, fmt.Errorf("dropped %q: not a list variable", name)
	},
	Tools: func() ([]*blocks.Tool, error) {
		return []*blocks.Tool{{Name: "t", Description: "Does t.", Parameters: map[string]any{"type": "object"}}}, nil
	},
}

// TestFuncs: every promptc function, with its exact output or its exact diagnostic.
func TestFuncs(t *testing.T) {
	data := map[string]any{"padded": " \t a b \n", "n": 3, "kind": "slack", "other": "teams", "task": "issue"}
	tests := []struct {
		name, body string
		env        *Env // testEnv when nil
		want       string
		wantErr    string
	}{
		{name: "trim", body: `[{{trim .padded}}]`, want: "[a b]"},
		{name: "trim unicode space", body: "[{{trim \"\u3000x\u00a0\"}}]", want: "[x]"},
		{name: "trim not a string", body: `{{trim .n}}`, wantErr: `templates/t.md:1:3: block "b": trim takes text, not an int`},
		{name: "const", body: `{{const "rule"}}`, want: "Run only listed commands."},
		{name: "const of a table", body: `{{const "channel_names"}}`,
			wantErr: `templates/t.md:1:3: block "b": const "channel_names": "channel_names" is a lookup table, not a text constant; read an entry with lookup "channel_names" KEY`},
		{name: "const unknown", body: `{{const "rules"}}`, wantErr: `templates/t.md:1:3: block "b": const "rules": no such constant (did you mean "rule"?)`},
		{name: "lookup", body: `{{lookup "channel_names" .kind}}`, want: "Slack"},
		{name: "lookup default unused", body: `{{lookup "channel_names" "discord" "?"}}`, want: "Discord"},
		{name: "lookup default", body: `{{lookup "channel_names" .other "a channel"}}`, want: "a channel"},
		{name: "lookup empty default", body: `[{{lookup "channel_names" .other ""}}]`, want: "[]"},
		{name: "lookup missing, close", body: `{{lookup "channel_names" "slak"}}`,
			wantErr: `templates/t.md:1:3: block "b": lookup "channel_names": no entry "slak" (did you mean "slack"?)`},
		{name: "lookup missing, far", body: `{{lookup "channel_names" .other}}`,
			wantErr: `templates/t.md:1:3: block "b": lookup "channel_names": no entry "teams" (the closest entry is "slack")`},
		{name: "lookup in an empty table", body: `{{lookup "empty" "x"}}`,
			wantErr: `templates/t.md:1:3: block "b": lookup "empty": no entry "x" (the table is empty)`},
		{name: "lookup unknown table", body: `{{lookup "channel_name" "x"}}`,
			wantErr: `templates/t.md:1:3: block "b": lookup "channel_name": no such lookup table (did you mean "channel_names"?)`},
		{name: "lookup on a text constant", body: `{{lookup "channel" "x"}}`,
			wantErr: `templates/t.md:1:3: block "b": lookup "channel": "channel" is a text constant, not a lookup table; read it with const "channel"`},
		{name: "lookup two defaults", body: `{{lookup "channel_names" "x" "a" "b"}}`,
			wantErr: `templates/t.md:1:3: block "b": lookup "channel_names": takes a table, a key and at most one default, not 2 defaults`},
		{name: "ref", body: `see {{ref "fmt"}}`, want: "see ## Comment Formatting"},
		{name: "ref error", body: `{{ref "nope"}}`, wantErr: `templates/t.md:1:3: block "b": ref "nope": no block has this id`},
		{name: "title", body: "see `{{title \"fmt\"}}`", want: "see `Comment Formatting`"},
		{name: "title error", body: `{{title "x"}}`, wantErr: `templates/t.md:1:3: block "b": title "x": block "x" has no title`},
		{name: "title without env", body: `{{title "fmt"}}`, env: &Env{},
			wantErr: `templates/t.md:1:3: block "b": title "fmt": titles are resolved only while a runbook is assembled`},
		{name: "ref without env", body: `{{ref "fmt"}}`, env: &Env{},
			wantErr: `templates/t.md:1:3: block "b": ref "fmt": references are resolved only while a runbook is assembled`},
		{name: "dropped", body: `{{with dropped "comments"}}({{.}} more comments){{end}}`, want: "(3 more comments)"},
		{name: "dropped compares as an int", body: `{{if gt (dropped "comments") 2}}many{{end}}`, want: "many"},
		{name: "dropped error", body: `{{dropped "x"}}`, wantErr: `templates/t.md:1:3: block "b": dropped "x": not a list variable`},
		{name: "dropped without env", body: `{{dropped "x"}}`, env: &Env{},
			wantErr: `templates/t.md:1:3: block "b": dropped "x": known only while values are rendered`},
		{name: "tools", body: "Tools:\n\n{{tools}}", want: "Tools:\n\n### t\n\nDoes t.\n\n```json\n{\n  \"type\": \"object\"\n}\n```"},
		{name: "tools, none", body: "[{{tools}}]", env: &Env{Tools: func() ([]*blocks.Tool, error) { return nil, nil }}, want: "[]"},
		{name: "tools without env", body: `{{tools}}`, env: &Env{},
			wantErr: `templates/t.md:1:3: block "b": tools: the task's tools are known only while a runbook is assembled`},
		{name: "quote", body: `{{quote "a\n\nb"}}`, want: "> a\n>\n> b"},
		{name: "bullets", body: `{{bullets .l}}`, want: "- x\n- y"},
		{name: "join", body: `{{join .l ", "}}`, want: "x, y"},
		{name: "json", body: `{{json .l}}`, want: `["x","y"]`},
		{name: "printf", body: `{{printf "%s-%03d" .kind .n}}`, want: "slack-003"},
		{name: "print", body: `{{print "a" 1}}`, want: "a1"},
		{name: "html", body: `{{html "<a>"}}`, want: "&lt;a&gt;"},
		{name: "urlquery", body: `{{urlquery "a b"}}`, want: "a+b"},
		{name: "index", body: `{{index .l 1}}`, want: "y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, diags := Parse(block(tt.body, false), testConsts)
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			env := testEnv
			if tt.env != nil {
				env = *tt.env
			}
			d := map[string]any{"l": []string{"x", "y"}}
			for k, v := range data {
				d[k] = v
			}
			got, diag := b.Execute(d, env)
			switch {
			case tt.wantErr != "" && (diag == nil || diag.String() != tt.wantErr):
				t.Errorf("Execute(%q) = %q, %v\nwant error %s", tt.body, got, diag, tt.wantErr)
			case tt.wantErr == "" && (diag != nil || got != tt.want):
				t.Errorf("Execute(%q) = %q, %v; want %q", tt.body, got, diag, tt.want)
			}
		})
	}
}

// allocated runs f and returns how many bytes it allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestFunctionBounds: no function builds a result over MaxOutput, and where the size is known in advance none
// builds anything before failing.
func TestFunctionBounds(t *testing.T) {
	mb := strings.Repeat("x", 1<<20)
	big := strings.Repeat("y", MaxOutput-100)
	tests := []struct {
		name, body string
		data       map[string]any
		want       string // the diagnostic's message, after `block "b": `
		maxAlloc   uint64 // bytes the failing execution may allocate; 0: not measured
	}{
		{name: "join of 3,000 items with a 1 MB separator", body: `{{join .l .sep}}`,
			data: map[string]any{"l": make([]string, 3000), "sep": mb},
			want: "join: its result would be more than 16.0 MiB, over the 16 MiB a block may render", maxAlloc: 1 << 20},
		{name: "join of large items", body: `{{join .l ""}}`, data: map[string]any{"l": []string{big, big}},
			want: "join: its result would be at least 32.0 MiB, over the 16 MiB a block may render", maxAlloc: 1 << 20},
		{name: "printf doubling", body: `{{$x := .mb}}{{range 10}}{{$x = printf "%s%s" $x $x}}{{end}}{{$x}}`,
			data: map[string]any{"mb": mb}, want: "printf: its result would be at least 32.0 MiB, over the 16 MiB a block may render"},
		{name: "printf doubling written out", body: `{{$x := .mb}}` + strings.Repeat(`{{$x = printf "%s%s" $x $x}}`, 6),
			data: map[string]any{"mb": mb}, want: "printf: its result would be at least 32.0 MiB, over the 16 MiB a block may render"},
		{name: "printf widths", body: `{{printf "` + strings.Repeat("%999999d", 20) + `" 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20}}`,
			want: "printf: its result would be at least 16.2 MiB, over the 16 MiB a block may render", maxAlloc: 1 << 20},
		{name: "printf star widths", body: `{{printf "%*d%*d%*d%*d%*d%*d%*d%*d%*d%*d%*d%*d%*d%*d%*d%*d%*d%*d" ` +
			strings.Repeat(`999999 1 `, 18) + `}}`,
			want: "printf: its result would be at least 16.2 MiB, over the 16 MiB a block may render", maxAlloc: 1 << 20},
		{name: "printf precision", body: `{{printf "` + strings.Repeat("%.999999f", 17) + `" ` + strings.Repeat("1.0 ", 17) + `}}`,
			want: "printf: its result would be at least 16.2 MiB, over the 16 MiB a block may render", maxAlloc: 1 << 20},
		{name: "print", body: `{{print .big .big}}`, data: map[string]any{"big": big},
			want: "print: its result would be at least 32.0 MiB, over the 16 MiB a block may render", maxAlloc: 1 << 20},
		{name: "println", body: `{{println .big .big}}`, data: map[string]any{"big": big},
			want: "println: its result would be at least 32.0 MiB, over the 16 MiB a block may render", maxAlloc: 1 << 20},
		{name: "bullets", body: `{{bullets .l}}`, data: map[string]any{"l": []string{big, big}},
			want: "bullets: its result would be at least 32.0 MiB, over the 16 MiB a block may render", maxAlloc: 1 << 20},
		{name: "quote", body: `{{quote (printf "%s\n%s" .half .half)}}`, data: map[string]any{"half": strings.Repeat("\n", MaxOutput/2-1)},
			want: "quote: its result would be at least 32.0 MiB, over the 16 MiB a block may render"},
		{name: "json", body: `{{json .l}}`, data: map[string]any{"l": []string{big, big}},
			want: "json: its result would be at least 32.0 MiB, over the 16 MiB a block may render", maxAlloc: 1 << 20},
		{name: "html", body: `{{html .big .big}}`, data: map[string]any{"big": big},
			want: "html: its result would be at least 32.0 MiB, over the 16 MiB a block may render", maxAlloc: 1 << 20},
		{name: "js grows past the limit", body: `{{js .lt}}`, data: map[string]any{"lt": strings.Repeat("<", MaxOutput/4)},
			want: "js: its result would be at least 24.0 MiB, over the 16 MiB a block may render"},
		{name: "urlquery", body: `{{urlquery .over}}`, data: map[string]any{"over": strings.Repeat("a", MaxOutput+1)},
			want: "urlquery: its result would be at least 16.0 MiB, over the 16 MiB a block may render", maxAlloc: 1 << 20},
		{name: "trim of a huge value", body: `{{trim .over}}`, data: map[string]any{"over": strings.Repeat("a", MaxOutput+1)},
			want: "trim: its result would be at least 16.0 MiB, over the 16 MiB a block may render", maxAlloc: 1 << 20},
		{name: "work budget", body: `{{range 40}}{{$x := printf "%s" $.big}}{{end}}`, data: map[string]any{"big": big},
			want: "the body's functions produce more than 256 MiB in all; a template loop is probably running away"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, diags := Parse(block(tt.body, false), Consts{})
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			var d *source.Diagnostic
			start := time.Now()
			n := allocated(func() { _, d = b.Execute(tt.data, Env{}) })
			if d == nil {
				t.Fatal("Execute succeeded")
			}
			if _, msg, _ := strings.Cut(d.Summary, `block "b": `); msg != tt.want {
				t.Errorf("error %q, want %q", d.Summary, tt.want)
			}
			if tt.maxAlloc > 0 && n > tt.maxAlloc {
				t.Errorf("allocated %d bytes before failing, want at most %d", n, tt.maxAlloc)
			}
			if el := time.Since(start); el > 5*time.Second {
				t.Errorf("took %v", el)
			}
		})
	}
}
