package assemble_test

import (
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// recordsProject declares records in both scopes, a list and a code field; recordsCase adds one runbook block "rb"
// (one line, on line 3 of blocks/x.toml from column 9) and one turn block "tb" (from line 8, column 1).
const recordsProject = `
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["rb"]

[turn]
order = ["tb"]

[vars.repos]
scope = "session"
type = "records"

[vars.repos.fields.url]
type = "string"
trust = "trusted"

[vars.repos.fields.name]
type = "string"

[vars.changes]
scope = "turn"
type = "records"

[vars.changes.fields.path]
type = "string"

[vars.changes.fields.diff]
type = "text"
trust = "code"

[vars.items]
scope = "session"
type = "list"
-- fixtures/f.toml --
[session]
repos = [{url = "https://x.example/a", name = "a"}, {url = "https://x.example/b", name = "b"}]
items = ["i"]

[[turn]]
changes = [{path = "main.go", diff = "+x"}]
`

func recordsCase(runbook, turn string) string {
	return recordsProject + "-- blocks/x.toml --\n[[block]]\nid = \"rb\"\nbody = '" + runbook + "'\n\n[[block]]\nid = \"tb\"\nbody = '''\n" + turn + "'''\n"
}

// TestRecordsStatic: fields of records are checked when the project compiles (docs/reference.md#varsname): an undeclared field is an
// error naming it and listing the declared ones, a field of a plain list is an error, the scope rule sees through
// a range over records, and code fields keep the code rule.
func TestRecordsStatic(t *testing.T) {
	const okTurn = "{{range .changes}}\n{{.diff}}\n{{end}}"
	tests := []struct {
		name, runbook, turn, want string
	}{
		{name: "declared fields", runbook: "{{range .repos}}{{.name}}: {{.url}}; {{end}}", turn: okTurn},
		{name: "undeclared field", runbook: "{{range .repos}}{{.nope}}{{end}}", turn: okTurn,
			want: "blocks/x.toml:3:27: block \"rb\" reads undeclared field \"nope\" of records \"repos\" (did you mean \"name\"?); its fields are: name, url\n"},
		{name: "misspelt field", runbook: "{{range $r := .repos}}{{$r.nmae}}{{end}}", turn: okTurn,
			want: "blocks/x.toml:3:35: block \"rb\" reads undeclared field \"nmae\" of records \"repos\" (did you mean \"name\"?); its fields are: name, url\n"},
		{name: "field of a list", runbook: "{{range .items}}{{.x}}{{end}}", turn: okTurn,
			want: "blocks/x.toml:3:27: block \"rb\" reads field \"x\" of the items of \"items\", but \"items\" is a list variable: only records have fields\n"},
		{name: "turn records in a runbook block", runbook: "{{range .changes}}{{.path}}{{end}}", turn: okTurn,
			want: "blocks/x.toml:3:17: runbook block \"rb\" uses turn variable \"changes\": runbook bytes must not depend on the turn; move this text into a turn block\n"},
		{name: "code field beside text", runbook: "", turn: "{{range .changes}}diff: {{.diff}}{{end}}",
			want: "blocks/x.toml:8:27: block \"tb\" prints code field of \"changes\" \"diff\" beside other text on its line: a code value must be printed by an action alone on its line ({{.name}}, with only white space and if, else, end, range, with or comments beside it, and no trim markers there), never through a function, a template variable or beside other text, since its fence works only on lines of its own\n"},
		{name: "records with a code field printed whole", runbook: "", turn: "{{range .changes}}\n{{.}}\n{{end}}",
			want: "blocks/x.toml:9:3: block \"tb\" uses a record of \"changes\" whole, which would print its code fields without their fence: read its fields one by one ({{.field}})\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := problems(archive(recordsCase(tt.runbook, tt.turn))); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestRecordsRender: records render field by field from a fixture and from the Go API ([]map[string]any), each
// field escaped by its own trust.
func TestRecordsRender(t *testing.T) {
	prog, diags := assemble.Load(archive(recordsCase("{{range .repos}}- [{{.name}}]({{.url}}) {{end}}", "{{range .changes}}{{.path}}:\n{{.diff}}\n{{end}}")))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	a, err := prog.Runbook("t", blocks.Values{"repos": []map[string]any{{"url": "https://x.example/*a*", "name": "*a*"}}})
	if err != nil {
		t.Fatal(err)
	}
	// name is untrusted (the default): its asterisks are escaped; url is trusted and kept. The space the body leaves
	// at the end of the line goes, as every trailing space does.
	if want := "- [\\*a\\*](https://x.example/*a*)\n"; a.Text != want {
		t.Errorf("runbook = %q, want %q", a.Text, want)
	}
	s, err := prog.NewSession("t", blocks.Values{"repos": []map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	turn, err := s.Turn(blocks.Values{"changes": []map[string]any{{"path": "a.go", "diff": "```\n+x"}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "a.go:\n````\n```\n+x\n````\n"; turn.Text != want {
		t.Errorf("turn = %q, want %q", turn.Text, want)
	}
}
