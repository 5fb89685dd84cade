package templates

import (
	"fmt"
	"strings"
	"testing"
)

// sprigData holds values of every trust, as Prepare makes them, for the text and collection function tests.
func sprigData() map[string]any {
	issues := []map[string]any{
		{"id": Untrusted("B-2"), "status": Untrusted("open"), "prio": 2},
		{"id": Untrusted("A-1"), "status": Untrusted("done"), "prio": 10},
		{"id": Untrusted("C-3"), "status": Untrusted("open"), "prio": 1},
	}
	none := withZero(nil, []map[string]any{{"id": Untrusted(""), "status": Untrusted(""), "prio": 0}}[:0])
	return map[string]any{
		"slug":    "google_drive",
		"name":    Untrusted("ada_*lovelace*"),
		"hash":    Untrusted("# System"),
		"bs":      Untrusted(`a\b`),
		"empty":   Untrusted(""),
		"note":    Markdown("# Setup\n\nRun it."),
		"ctx":     Background("line one\nline two"),
		"labels":  []any{Untrusted("x*"), Untrusted("y")},
		"plain":   []string{"p", "q"},
		"issues":  issues,
		"none":    none,
		"n":       0,
		"task":    "issue",
		"untrust": Untrusted("Mixed Case"),
		"tasks": []map[string]any{
			{"id": "t1", "note": Untrusted("read me"), "prio": 0, "done": false},
			{"id": "t2", "note": Untrusted(""), "prio": 3, "done": false},
			{"id": "t3", "note": Untrusted("x"), "prio": 1, "done": true},
		},
	}
}

// TestTextFunctions: each text and collection function, with its exact output; a result computed from a value is
// escaped as the value is (an untrusted value's * stays escaped however a function moves it).
func TestTextFunctions(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"lower", `{{lower .untrust}}`, "mixed case"},
		{"upper", `{{upper "abc"}}`, "ABC"},
		{"upper value escaped", `{{upper .name}}`, `ADA\_\*LOVELACE\*`},
		{"title text", `{{.slug | replace "_" " " | title}}`, "Google Drive"},
		{"title keeps separators", `{{"a-b_c d\tx" | title}}`, "A-B_C D\tX"},
		{"title of a value", `{{.name | title}}`, `Ada\_\*lovelace\*`},
		{"replace", `{{replace "o" "0" "foo boo"}}`, "f00 b00"},
		{"replace cannot strip escapes", `{{.bs | replace "\\" ""}}`, `ab`},
		{"replace cannot strip escapes of *", `{{.name | replace "\\" ""}}`, `ada\_\*lovelace\*`},
		{"trimPrefix", `{{.hash | trimPrefix "# "}}`, "System"},
		{"trimPrefix once", `{{trimPrefix "a" "aab"}}`, "ab"},
		{"trimSuffix", `{{trimSuffix ".go" "main.go"}}`, "main"},
		{"hasPrefix sees the value", `{{if hasPrefix "#" .hash}}yes{{else}}no{{end}}`, "yes"},
		{"hasSuffix", `{{if hasSuffix "*" .name}}yes{{end}}`, "yes"},
		{"contains", `{{if contains "_" .name}}yes{{end}}`, "yes"},
		{"eq sees the value", `{{if eq .name "ada_*lovelace*"}}yes{{end}}`, "yes"},
		{"matches", `{{if matches "^ada_" .name}}yes{{end}}`, "yes"},
		{"matches unanchored", `{{if matches "love" .name}}yes{{end}}`, "yes"},
		{"matches false", `{{if matches "^love" .name}}yes{{else}}no{{end}}`, "no"},
		{"regexReplaceAll groups", `{{regexReplaceAll "(\\w+)@(\\w+)" "$2 at $1" "ada@acme"}}`, "acme at ada"},
		{"regexReplaceAll value escaped", `{{.hash | regexReplaceAll "System" "*x*"}}`, `\# \*x\*`},
		{"default empty", `{{.empty | default "none"}}`, "none"},
		{"default zero int", `{{default 5 .n}}`, "5"},
		{"default kept", `{{.name | default "none"}}`, `ada\_\*lovelace\*`},
		{"first", `{{first .labels}}`, `x\*`},
		{"last", `{{last .plain}}`, "q"},
		{"first of empty", `[{{first .none | json}}]`, `[{"id":"","prio":0,"status":""}]`},
		{"first of empty records field", `[{{(first .none).id}}]`, "[]"},
		{"last of nil", `[{{last .missing_is_error_so_none}}]`, ""},
		{"where", `{{range where "status" "open" .issues}}{{.id}} {{end}}`, "B-2 C-3 "},
		{"where int", `{{range where "prio" 10 .issues}}{{.id}}{{end}}`, "A-1"},
		{"where none", `{{with where "status" "gone" .issues}}some{{else}}none{{end}}`, "none"},
		{"whereNot", `{{range whereNot "status" "open" .issues}}{{.id}} {{end}}`, "A-1 "},
		{"whereNot int", `{{range whereNot "prio" 10 .issues}}{{.id}} {{end}}`, "B-2 C-3 "},
		{"whereNot compares before escaping", `{{range .issues | whereNot "id" "B-2"}}{{.id}} {{end}}`, "A-1 C-3 "},
		{"whereNot of a type that never matches keeps all", `{{len (whereNot "prio" "10" .issues)}}`, "3"},
		{"whereNot none left", `{{with whereNot "status" "" .none}}some{{else}}none{{end}}`, "none"},
		{"whereNot then first", `{{(first (whereNot "status" "open" .issues)).id}}`, "A-1"},
		{"whereNotEmpty", `{{range whereNotEmpty "note" .tasks}}{{.id}} {{end}}`, "t1 t3 "},
		{"whereNotEmpty int", `{{range whereNotEmpty "prio" .tasks}}{{.id}} {{end}}`, "t2 t3 "},
		{"whereNotEmpty bool", `{{range .tasks | whereNotEmpty "done"}}{{.id}} {{end}}`, "t3 "},
		{"whereNotEmpty of none", `[{{range whereNotEmpty "id" .none}}x{{end}}]`, "[]"},
		{"whereNotEmpty then first of none", `[{{(first (whereNotEmpty "id" .none)).id}}]`, "[]"},
		{"sortBy bytes", `{{range sortBy "id" .issues}}{{.id}} {{end}}`, "A-1 B-2 C-3 "},
		{"sortBy int", `{{range sortBy "prio" .issues}}{{.prio}} {{end}}`, "1 2 10 "},
		{"sortBy stable", `{{range sortBy "status" .issues}}{{.id}} {{end}}`, "A-1 B-2 C-3 "},
		{"where then first", `{{(first (where "status" "open" .issues)).id}}`, "B-2"},
		{"join escapes items only", `{{join .labels "*"}}`, `x\**y`},
		{"join then upper", `{{join .labels "-" | upper}}`, `X\*-Y`},
		{"markdown nests", `{{.note}}`, "### Setup\n\nRun it."},
		{"markdown through a function", `{{.note | replace "Setup" "Install"}}`, "### Install\n\nRun it."},
		{"background through a function", `{{.ctx | upper}}`, "> LINE ONE\n> LINE TWO"},
		{"printf escapes each value", `{{printf "**%s**" .name}}`, `**ada\_\*lovelace\***`},
		{"printf precision cannot cut an escape", `{{printf "%.5s|" .name}}`, `ada\_\*|`},
		{"print", `{{print .name "!"}}`, `ada\_\*lovelace\*!`},
		{"lookup default keeps trust", `{{lookup "channel_names" .name .name}}`, `ada\_\*lovelace\*`},
		{"slice keeps trust", `{{slice .name 4}}`, `\*lovelace\*`},
		{"quote value", `{{quote .hash}}`, `> \# System`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, diags := Parse(block(tt.body, false), testConsts)
			if len(diags) > 0 {
				if tt.want == "" {
					return // a body the test only wants refused
				}
				t.Fatal(diags)
			}
			got, diag := b.Execute(sprigData(), testEnv)
			if diag != nil || got != tt.want {
				if tt.want == "" && diag != nil {
					return
				}
				t.Errorf("Execute(%q) = %q, %v; want %q", tt.body, got, diag, tt.want)
			}
		})
	}
}

// TestTextFunctionErrors: what a regular expression that does not compile, a regular expression or field name that
// is not a literal, and arguments in the wrong order give: compile errors at their position.
func TestTextFunctionErrors(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"invalid regex", `{{if matches "a(" .x}}{{end}}`,
			"templates/t.md:1:14: block \"b\": matches: invalid regular expression \"a(\": error parsing regexp: missing closing ): `a(`"},
		{"invalid regex replace", `x {{regexReplaceAll "[" "" .x}}`,
			"templates/t.md:1:21: block \"b\": regexReplaceAll: invalid regular expression \"[\": error parsing regexp: missing closing ]: `[`"},
		{"regex not a literal", `{{if matches .re .x}}{{end}}`,
			`templates/t.md:1:6: block "b": matches takes its regular expression first, as a string literal: {{matches "RE" S}}`},
		{"where field not a literal", `{{range where .f "open" .issues}}{{end}}`,
			`templates/t.md:1:9: block "b": where takes the field's name first, as a string literal: {{where "FIELD" VALUE LIST}}`},
		{"whereNot field not a literal", `{{range whereNot .f "open" .issues}}{{end}}`,
			`templates/t.md:1:9: block "b": whereNot takes the field's name first, as a string literal: {{whereNot "FIELD" VALUE LIST}}`},
		{"whereNotEmpty field not a literal", `{{range whereNotEmpty .f .issues}}{{end}}`,
			`templates/t.md:1:9: block "b": whereNotEmpty takes the field's name first, as a string literal: {{whereNotEmpty "FIELD" LIST}}`},
		{"replace wrong order", `{{replace .x "a" "b"}}`,
			`templates/t.md:1:3: block "b": replace takes its arguments in sprig's order, the text last (replace OLD NEW S): here a literal comes last and a value before it; write {{.x | replace …}}`},
		{"hasPrefix wrong order", `{{if hasPrefix .x "#"}}{{end}}`,
			`templates/t.md:1:6: block "b": hasPrefix takes its arguments in sprig's order, the text last (hasPrefix PREFIX S): here a literal comes last and a value before it; write {{.x | hasPrefix …}}`},
		{"default wrong order", `{{default .x "none"}}`,
			`templates/t.md:1:3: block "b": default takes its arguments in sprig's order, the text last (default D V): here a literal comes last and a value before it; write {{.x | default …}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Parse(block(tt.body, false), testConsts)
			if got := diags.Error(); got != tt.want {
				t.Errorf("Parse(%q):\n got %s\nwant %s", tt.body, got, tt.want)
			}
		})
	}
}

// TestTitleForms: title "id" with a string literal is a block's title; title with any other argument, or piped,
// is the text function.
func TestTitleForms(t *testing.T) {
	b, diags := Parse(block(`{{title "fmt"}}|{{"fmt" | title}}|{{title .slug}}`, false), testConsts)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if len(b.Uses.Titles) != 1 || b.Uses.Titles[0].Name != "fmt" || b.Uses.DynamicTitle {
		t.Errorf("Uses.Titles = %+v, DynamicTitle %v; want the literal only", b.Uses.Titles, b.Uses.DynamicTitle)
	}
	got, diag := b.Execute(sprigData(), testEnv)
	if want := "Comment Formatting|Fmt|Google_Drive"; diag != nil || got != want {
		t.Errorf("got %q, %v; want %q", got, diag, want)
	}
}

// TestFunctionMarks: the printer reports the bytes escaped values wrote, and only those.
func TestFunctionMarks(t *testing.T) {
	b, diags := Parse(block(`a {{.name}} b {{join .labels "-"}} {{"lit"}}`, false), testConsts)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var marks []string
	env := testEnv
	var out string
	env.Mark = func(s, e int) { marks = append(marks, fmt.Sprintf("[%d,%d)", s, e)) }
	out, diag := b.Execute(sprigData(), env)
	if diag != nil {
		t.Fatal(diag)
	}
	if want := `a ada\_\*lovelace\* b x\*-y lit`; out != want {
		t.Fatalf("out = %q, want %q", out, want)
	}
	// ada\_\*lovelace\* is bytes 2..19; x\* is 22..25 and y 26..27.
	if got, want := strings.Join(marks, ""), "[2,19)[22,25)[26,27)"; got != want {
		t.Errorf("marks = %s, want %s", got, want)
	}
}

// TestCollectionUses: where and sortBy read their field of the records they are given, and what they, first and
// last give is followed, so that the compiler checks every field read from it.
func TestCollectionUses(t *testing.T) {
	b, diags := Parse(block(`{{range where "status" "open" .issues}}{{.id}}{{end}}{{range .issues | sortBy "prio"}}{{.title}}{{end}}{{(first .issues).url}}{{with last (sortBy "x" .issues)}}{{.y}}{{end}}{{range whereNot "a" 1 .issues}}{{.b}}{{end}}{{range .issues | whereNotEmpty "c"}}{{.d}}{{end}}`, false), testConsts)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var got []string
	for _, f := range b.Uses.Fields {
		got = append(got, f.Var+"."+f.Name)
	}
	if want := "issues.status issues.id issues.prio issues.title issues.url issues.x issues.y issues.a issues.b issues.c issues.d"; strings.Join(got, " ") != want {
		t.Errorf("fields = %q, want %q", strings.Join(got, " "), want)
	}
}
