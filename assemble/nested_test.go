package assemble_test

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// nestedProject declares resources (records with a nested record ref, decoded from JSON, and nested records tags)
// and a record variable owner. nestedCase adds a runbook block "rb" whose body starts on line 3, column 9.
const nestedProject = `
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["rb"]

[vars.resources]
scope = "session"
type = "records"

[vars.resources.fields.name]
type = "string"
trim = true

[vars.resources.fields.ref]
type = "record"
decode = "json"

[vars.resources.fields.ref.fields.url]
type = "string"
trust = "trusted"

[vars.resources.fields.ref.fields.git_ref]
type = "string"

[vars.resources.fields.tags]
type = "records"
max_items = 2

[vars.resources.fields.tags.fields.label]
type = "string"

[vars.owner]
scope = "session"
type = "record"

[vars.owner.fields.login]
type = "string"

[vars.owner.fields.team]
type = "record"

[vars.owner.fields.team.fields.name]
type = "string"
-- fixtures/f.toml --
[session]
owner = {login = "ada_l", team = {name = "*core*"}}

[[session.resources]]
name = "  api  "
ref = '{"url": "https://x.example/api", "git_ref": "main"}'
tags = [{label = "a"}, {label = "b_c"}, {label = "d"}]

[[session.resources]]
name = "docs"
`

func nestedCase(body string) string {
	return nestedProject + "-- blocks/x.toml --\n[[block]]\nid = \"rb\"\nbody = '" + body + "'\n"
}

func TestNestedData(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"decoded JSON field", `{{range .resources}}{{.name}}: {{.ref.url}} @ {{.ref.git_ref}};{{end}}`,
			"api: https://x.example/api @ main;docs:  @ ;\n"},
		{"nested records with their own limits, escaped by their trust", `{{range .resources}}{{range .tags}}[{{.label}}]{{end}}/{{end}}`,
			"[a][b\\_c]//\n"},
		{"record variable", `{{.owner.login}} of {{.owner.team.name}}{{with .owner}} ({{.login}}){{end}}`,
			"ada\\_l of \\*core\\* (ada\\_l)\n"},
		{"item variables", `{{range $r := .resources}}{{range $t := $r.tags}}{{$r.name}}/{{$t.label}} {{end}}{{end}}`,
			"api/a api/b\\_c\n"},
		{"a missing nested record is its zero value", `{{range .resources}}{{if .ref.url}}{{.ref.url}}{{else}}none{{end}} {{end}}`,
			"https://x.example/api none\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arts := mustBuild(t, archive(nestedCase(tt.body)))
			if got := arts[0].Text; got != tt.want {
				t.Errorf("runbook = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNestedDataErrors(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"undeclared nested field", `{{range .resources}}{{.ref.uri}}{{end}}`,
			`blocks/x.toml:3:35: block "rb" reads undeclared field "uri" of record "resources.ref" (did you mean "url"?); its fields are: git_ref, url`},
		{"undeclared field of a record variable", `{{.owner.name}}`,
			`blocks/x.toml:3:17: block "rb" reads undeclared field "name" of record "owner"; its fields are: login, team`},
		{"two levels down", `{{.owner.team.lead}}`,
			`blocks/x.toml:3:22: block "rb" reads undeclared field "lead" of record "owner.team"; its fields are: name`},
		{"nested records read without a range", `{{range .resources}}{{.tags.label}}{{end}}`,
			`blocks/x.toml:3:36: block "rb" reads field "label" of records "resources.tags" without ranging over them: read it for each record, {{range .resources.tags}}{{.label}}{{end}}`},
		{"range over a record", `{{range .owner}}{{.login}}{{end}}`,
			`blocks/x.toml:3:27: block "rb" ranges over record "owner" to read its field "login", but a record is one table, not a list: read {{.owner.login}} without range`},
		{"field of a string field", `{{range .resources}}{{.name.first}}{{end}}`,
			`blocks/x.toml:3:36: block "rb" reads field "first" of "resources.name", but "resources.name" is a string field: only record and records values have fields`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := assemble.Load(archive(nestedCase(tt.body)))
			if got := strings.TrimSpace(diags.String()); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// Values that do not fit their nested shape are value errors naming the path; a JSON text that is not valid JSON or
// does not fit follows invalid.
func TestNestedValueErrors(t *testing.T) {
	body := `{{range .resources}}{{.ref.url}}{{end}}`
	tests := []struct{ name, fixture, want string }{
		{"not valid JSON", "[[session.resources]]\nname = \"a\"\nref = '{\"url\": '\n",
			`fixtures/f.toml:4:1: variable "resources", record 1, field "ref" is a record with decode = "json", but its text is not valid JSON at 1:9 of the text: unexpected EOF`},
		{"a key twice in a JSON text", "[[session.resources]]\nname = \"a\"\nref = '{\"url\":\"https://docs.example\",\"url\":\"https://evil.io\"}'\n",
			`fixtures/f.toml:4:1: variable "resources", record 1, field "ref" is a record with decode = "json", but its JSON text is refused at 1:31 of the text: duplicate key "url" (first at 1:2): a JSON object may hold each key once`},
		{"JSON that does not fit", "[[session.resources]]\nname = \"a\"\nref = '{\"uri\": \"x\"}'\n",
			`fixtures/f.toml:4:1: variable "resources", record 1, field "ref" has undeclared field "uri" (did you mean "url"?) (declared: git_ref, url), in the JSON text it was given`},
		{"nested field of the wrong type", "[[session.resources]]\nname = \"a\"\nref = {url = 1}\n",
			`fixtures/f.toml:4:8: variable "resources", record 1, field "ref": field "url" is a string, so its value must be a string, not an integer`},
		{"nested records item of the wrong type", "[[session.resources]]\nname = \"a\"\ntags = [\"x\"]\n",
			`fixtures/f.toml:4:1: variable "resources", record 1, field "tags" is records, but record 1 is a string, not a table`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(nestedCase(body), nestedFixture, "[session]\n"+tt.fixture, 1)
			_, diags := assemble.Load(archive(src))
			if got := strings.TrimSpace(diags.String()); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

const nestedFixture = `[session]
owner = {login = "ada_l", team = {name = "*core*"}}

[[session.resources]]
name = "  api  "
ref = '{"url": "https://x.example/api", "git_ref": "main"}'
tags = [{label = "a"}, {label = "b_c"}, {label = "d"}]

[[session.resources]]
name = "docs"
`

// invalid = "empty" turns a JSON text that does not fit into the zero record.
func TestNestedDecodeInvalidEmpty(t *testing.T) {
	src := strings.Replace(nestedCase(`{{range .resources}}[{{.ref.url}}]{{end}}`), "decode = \"json\"\n", "decode = \"json\"\ninvalid = \"empty\"\n", 1)
	src = strings.Replace(src, `ref = '{"url": "https://x.example/api", "git_ref": "main"}'`, `ref = '{"url": 7}'`, 1)
	arts := mustBuild(t, archive(src))
	if got, want := arts[0].Text, "[][]\n"; got != want {
		t.Errorf("runbook = %q, want %q", got, want)
	}
}

// The Go API takes nested data as maps and slices, and as structs with json tags.
func TestNestedGoValues(t *testing.T) {
	prog := mustLoad(t, archive(nestedCase(`{{range .resources}}{{.name}}={{.ref.url}}{{range .tags}}+{{.label}}{{end}};{{end}}{{.owner.team.name}}`)))
	type tag struct {
		Label string `json:"label"`
	}
	type ref struct {
		URL    string `json:"url"`
		GitRef string `json:"git_ref,omitempty"`
	}
	type resource struct {
		Name string  `json:"name"`
		Ref  *ref    `json:"ref"`
		Tags []tag   `json:"tags"`
		Skip float64 `json:"-"`
	}
	type team struct {
		Name string `json:"name"`
	}
	type owner struct {
		Login string `json:"login"`
		Team  team   `json:"team"`
	}
	want := "a=u+x;b=;T\n"
	for _, vals := range []blocks.Values{
		{"resources": []resource{{Name: "a", Ref: &ref{URL: "u"}, Tags: []tag{{"x"}}}, {Name: "b"}}, "owner": owner{Team: team{"T"}}},
		{"resources": []*resource{{Name: "a", Ref: &ref{URL: "u"}, Tags: []tag{{"x"}}}, {Name: "b"}}, "owner": &owner{Team: team{"T"}}},
		{"resources": []any{map[string]any{"name": "a", "ref": map[string]string{"url": "u"}, "tags": []map[string]string{{"label": "x"}}}, map[string]string{"name": "b"}},
			"owner": map[string]any{"team": map[string]any{"name": "T"}}},
	} {
		a, err := prog.Runbook("t", vals)
		if err != nil {
			t.Fatal(err)
		}
		if a.Text != want {
			t.Errorf("runbook = %q, want %q", a.Text, want)
		}
	}
	_, err := prog.Runbook("t", blocks.Values{"resources": resource{Name: "a"}})
	if want := `variable "resources" is records, so its value must be a slice of maps or structs ([]map[string]any, []map[string]string, []any, []T or []*T of a struct T), not an assemble_test.resource`; err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

// A nested code field is printed alone on its line, as a top-level one must be; a trusted nested field that holds
// a target's marker is blamed at its path.
func TestNestedCodeAndMarkers(t *testing.T) {
	code := strings.Replace(nestedProject, "[vars.resources.fields.ref.fields.git_ref]\ntype = \"string\"\n",
		"[vars.resources.fields.ref.fields.git_ref]\ntype = \"string\"\n[vars.resources.fields.ref.fields.patch]\ntype = \"text\"\ntrust = \"code\"\n", 1)
	_, diags := assemble.Load(archive(code + "-- blocks/x.toml --\n[[block]]\nid = \"rb\"\nbody = '{{range .resources}}x {{.ref.patch}}{{end}}'\n"))
	if got, want := strings.TrimSpace(diags.String()), `blocks/x.toml:3:37: block "rb" prints code field of "resources.ref" "patch" beside other text on its line`; !strings.HasPrefix(got, want) {
		t.Errorf("diagnostics:\n%s\nwant a line starting with:\n%s", got, want)
	}
	marked := strings.Replace(nestedProject, "[runbook]\norder = [\"rb\"]\n", "[runbook]\norder = [\"rb\"]\n\n[[target]]\nname = \"claude\"\nfile = \"CLAUDE.md\"\nbegin = \"<!-- BEGIN X -->\"\nend = \"<!-- END X -->\"\n", 1)
	marked = strings.Replace(marked, `"https://x.example/api"`, `"<!-- END X -->"`, 1)
	prog := mustLoad(t, archive(marked+"-- blocks/x.toml --\n[[block]]\nid = \"rb\"\nbody = '{{range .resources}}{{.ref.url}}{{end}}'\n"))
	_, diags = prog.Build()
	if got := diags.String(); !strings.Contains(got, `trusted variable "resources" holds the end marker of target "claude"`) || !strings.HasPrefix(got, "fixtures/f.toml:") {
		t.Errorf("diagnostics:\n%s", got)
	}
}

// TestRecordTruthRendered: a record is true only when one of its fields is (docs/reference.md, "Nested data"), for
// when, if, with, not and default alike: a missing record, one whose fields are all empty and a missing nested
// record are false, so a section about them is left out instead of printed empty.
func TestRecordTruthRendered(t *testing.T) {
	body := `{{with .owner}}<OWNER {{.login}}>{{end}}{{if not .owner.team}}[no team]{{end}}` +
		`{{range .resources}}{{if .ref}}({{.name}} at {{.ref.url}}){{end}}{{end}}`
	src := nestedCase(body) + `
[[block]]
id   = "owned"
when = "owner"
body = "owned"

[[block]]
id   = "unowned"
when = "!owner"
body = "unowned"
`
	src = strings.Replace(src, `order = ["rb"]`, `order = ["rb", "owned", "unowned"]`, 1)
	tests := []struct{ name, session, want string }{
		{"a record with fields", "owner = {login = \"ada\", team = {name = \"core\"}}\n[[session.resources]]\nname = \"api\"\nref = '{\"url\": \"u\"}'\n",
			"<OWNER ada>(api at u)\n\nowned\n"},
		{"a missing record", "[[session.resources]]\nname = \"api\"\n", "[no team]\n\nunowned\n"},
		{"a record whose fields are all empty", "owner = {login = \"\", team = {name = \"\"}}\n[[session.resources]]\nname = \"api\"\nref = '{\"url\": \"\"}'\n",
			"[no team]\n\nunowned\n"},
		{"a missing nested record", "owner = {login = \"ada\"}\n", "<OWNER ada>[no team]\n\nowned\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := strings.Replace(src, nestedFixture, "[session]\n"+tt.session, 1)
			if s == src {
				t.Fatal("the fixture was not replaced")
			}
			arts := mustBuild(t, archive(s))
			if got := arts[0].Text; got != tt.want {
				t.Errorf("runbook = %q, want %q", got, tt.want)
			}
		})
	}
}
