package values_test

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/values"
)

// nestedVars declares a records variable with nested fields in each scope, and a turn variable diff.
const nestedVars = `
[vars.changed_files]
scope = "turn"
type = "records"
[vars.changed_files.fields.path]
type = "string"
[vars.changed_files.fields.status]
type = "string"
[vars.diff]
scope = "turn"
type = "text"
[vars.status]
scope = "turn"
type = "string"
[vars.repos]
scope = "session"
type = "records"
[vars.repos.fields.url]
type = "string"
[vars.repos.fields.owner]
type = "record"
[vars.repos.fields.owner.fields.login]
type = "string"
`

func nestedProject(fixture string) string {
	return strings.Replace(base, "-- blocks/base.toml --", nestedVars+"-- blocks/base.toml --", 1) + fixture
}

// A key written after a [[turn.NAME]] header belongs to the last record of NAME: when it has the name of a
// variable, the diagnostic says that the key belongs above the header.
func TestSubTableTrap(t *testing.T) {
	tests := []struct{ name, fixture, want string }{
		{"turn", `
[[turn]]
[[turn.changed_files]]
path = "a.go"
[[turn.changed_files]]
path = "b.go"
diff = "+x"
`, `fixtures/basic.toml:8:1: variable "changed_files", record 2 has undeclared field "diff" (declared: path, status); "diff" is a turn variable: in TOML, a key written after a [[turn.changed_files]] header belongs to that record, so move the key above the first [[turn.changed_files]] header, right after its [[turn]]`},
		{"session", `
[session]
[[session.repos]]
url = "u"
agent = "Ada"
`, `fixtures/basic.toml:6:1: variable "repos", record 1 has undeclared field "agent" (declared: owner, url); "agent" is a session variable: in TOML, a key written after a [[session.repos]] header belongs to that record, so move the key above the first [[session.repos]] header, in the [session] table itself`},
		{"no hint for a declared field", `
[[turn]]
[[turn.changed_files]]
status = 1
`, `fixtures/basic.toml:5:1: variable "changed_files", record 1: field "status" is a string, so its value must be a string, not an integer`},
		{"no hint for other names", `
[[turn]]
[[turn.changed_files]]
pth = "a.go"
`, `fixtures/basic.toml:5:1: variable "changed_files", record 1 has undeclared field "pth" (did you mean "path"?) (declared: path, status)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := values.Load(archive(nestedProject(tt.fixture)))
			if got := strings.TrimSpace(diags.String()); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// The same trap in a TOML values file, whose records are top-level arrays of tables.
func TestSubTableTrapValuesFile(t *testing.T) {
	p, diags := values.Load(archive(nestedProject("")))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	_, _, diags = values.ReadFile(p, "turn.toml", []byte("[[changed_files]]\npath = \"a\"\ndiff = \"+x\"\n"), blocks.ScopeTurn)
	want := `turn.toml:3:1: variable "changed_files", record 1 has undeclared field "diff" (declared: path, status); "diff" is a turn variable: in TOML, a key written after a [[changed_files]] header belongs to that record, so move the key above the first [[changed_files]] header`
	if got := strings.TrimSpace(diags.String()); got != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
}

// Values files give nested data as nested JSON objects and arrays.
func TestReadValuesNested(t *testing.T) {
	p, diags := values.Load(archive(nestedProject("")))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	vals, _, diags := values.ReadFile(p, "s.json", []byte(`{"repos": [{"url": "u", "owner": {"login": "ada"}}, {"url": "v"}]}`), blocks.ScopeSession)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	b, _ := blocks.CanonicalJSON(vals, "")
	if got, want := string(b), `{"repos":[{"owner":{"login":"ada"},"url":"u"},{"owner":{"login":""},"url":"v"}]}`; got != want {
		t.Errorf("values = %s, want %s", got, want)
	}
	_, _, diags = values.ReadFile(p, "s.json", []byte("{\"repos\": [{\"url\": \"u\",\n \"owner\": {\"name\": \"ada\"}}]}"), blocks.ScopeSession)
	want := `s.json:2:2: variable "repos", record 1, field "owner" has undeclared field "name" (declared: login)`
	if got := strings.TrimSpace(diags.String()); got != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
}

// Declarations of nested data: depth, fields, trust, decode and invalid.
func TestNestedDeclarations(t *testing.T) {
	deep := `
[vars.a]
scope = "session"
type = "record"
[vars.a.fields.b]
type = "record"
[vars.a.fields.b.fields.c]
type = "records"
[vars.a.fields.b.fields.c.fields.d]
type = "record"
[vars.a.fields.b.fields.c.fields.d.fields.e]
type = "record"
[vars.a.fields.b.fields.c.fields.d.fields.e.fields.f]
type = "string"
`
	tests := []struct{ name, vars, want string }{
		{"too deep", deep, `promptc.toml:31:1: field "e" of "a.b.c.d" nests records 5 levels deep, more than the 4 a value may have: flatten it, or give the innermost part as a text`},
		{"no fields", "[vars.a]\nscope = \"session\"\ntype = \"record\"\n",
			`promptc.toml:21:1: record variable "a" needs its fields: add a [vars.a.fields.NAME] table with a type for each`},
		{"nested no fields", "[vars.a]\nscope = \"session\"\ntype = \"record\"\n[vars.a.fields.b]\ntype = \"records\"\n",
			`promptc.toml:24:1: field "b" of "a" needs its fields: add a [vars.a.fields.b.fields.NAME] table with a type for each`},
		{"trust on a record", "[vars.a]\nscope = \"session\"\ntype = \"record\"\ntrust = \"trusted\"\n[vars.a.fields.b]\ntype = \"string\"\n",
			`promptc.toml:24:1: trust of record variable "a" is set per field: move it to [vars.a.fields.NAME]`},
		{"invalid without decode", "[vars.a]\nscope = \"session\"\ntype = \"record\"\ninvalid = \"empty\"\n[vars.a.fields.b]\ntype = \"string\"\n",
			`promptc.toml:24:1: invalid says what to do with a JSON text that does not fit, but record variable "a" has no decode: add decode = "json", or remove invalid`},
		{"decode on a string", "[vars.a]\nscope = \"session\"\ntype = \"string\"\ndecode = \"json\"\n",
			`promptc.toml:24:1: decode applies only to record and records variables; "a" is of type string`},
		{"decode yaml", "[vars.a]\nscope = \"session\"\ntype = \"record\"\ndecode = \"yaml\"\n[vars.a.fields.b]\ntype = \"string\"\n",
			`promptc.toml:24:1: decode of record variable "a" must be "json" (a string value is read as a JSON text), not "yaml"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(base, "-- blocks/base.toml --", tt.vars+"-- blocks/base.toml --", 1)
			_, diags := values.Load(archive(src))
			if got := strings.TrimSpace(diags.String()); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// FuzzNestedJSON feeds any text to a records variable whose nested field is decoded from JSON, and to a record
// variable decoded from JSON: no input may panic, and a value that passes has every declared field at every level.
func FuzzNestedJSON(f *testing.F) {
	for _, s := range []string{
		`{"url": "u", "git_ref": "main"}`, `{"url": 1}`, `[{"name": "a"}]`, `{"tags": [{"label": "x"}, 3]}`, `{`, `null`,
		`{"url": "u"} {"url": "v"}`, `{"tags": [{"label": "x", "deep": {"a": [[[[1]]]]}}]}`, "\"\\ud800\"",
	} {
		f.Add(s)
	}
	ref := &blocks.Var{Name: "ref", Type: blocks.TypeRecord, Decode: blocks.DecodeJSON, Fields: []*blocks.Var{
		{Name: "git_ref", Type: blocks.TypeString},
		{Name: "tags", Type: blocks.TypeRecords, Decode: blocks.DecodeJSON, Fields: []*blocks.Var{{Name: "label", Type: blocks.TypeString}}},
		{Name: "url", Type: blocks.TypeString, Required: true},
	}}
	resources := &blocks.Var{Name: "resources", Type: blocks.TypeRecords, Fields: []*blocks.Var{{Name: "name", Type: blocks.TypeString}, ref}}
	empty := *ref
	empty.Invalid = blocks.InvalidEmpty
	f.Fuzz(func(t *testing.T, text string) {
		if val, err := values.TypeCheckIn(ref, text, values.FormatJSON); err == nil {
			m := val.(map[string]any)
			if _, ok := m["url"].(string); !ok || len(m) != 3 {
				t.Fatalf("CheckIn(%q) = %v", text, val)
			}
		} else if err.Summary == "" {
			t.Fatalf("CheckIn(%q): error without a message", text)
		}
		if _, err := values.TypeCheckIn(&empty, text, values.FormatGo); err != nil {
			t.Fatalf("invalid = empty: CheckIn(%q) = %v", text, err)
		}
		_, _ = values.TypeCheckIn(resources, []any{map[string]any{"name": text, "ref": text}}, values.FormatGo)
	})
}

// A JSON text given for a decode = "json" value is read as a values file is: a key twice in one object, which
// encoding/json would settle silently by keeping the last, is an error placed in the text, as is a character that
// prints as nothing (named by its code point), and a number out of range.
func TestDecodeJSONText(t *testing.T) {
	ref := &blocks.Var{Name: "ref", Type: blocks.TypeRecord, Decode: blocks.DecodeJSON, Fields: []*blocks.Var{
		{Name: "n", Type: blocks.TypeInt},
		{Name: "url", Type: blocks.TypeString},
	}}
	repos := &blocks.Var{Name: "repos", Type: blocks.TypeRecords, Fields: []*blocks.Var{{Name: "ref", Type: blocks.TypeRecord, Decode: blocks.DecodeJSON, Fields: ref.Fields}}}
	tests := []struct {
		name string
		v    *blocks.Var
		raw  any
		want string
	}{
		{"duplicate key", ref, `{"url":"https://docs.example","url":"https://evil.io"}`,
			`variable "ref" is a record with decode = "json", but its JSON text is refused at 1:31 of the text: duplicate key "url" (first at 1:2): a JSON object may hold each key once`},
		{"duplicate key in a record's field", repos, []any{map[string]any{"ref": "{\"n\": 1,\n \"n\": 2}"}},
			`variable "repos", record 1, field "ref" is a record with decode = "json", but its JSON text is refused at 2:2 of the text: duplicate key "n" (first at 1:2): a JSON object may hold each key once`},
		{"byte order mark", ref, "{\"url\": \ufeff\"u\"}",
			`variable "ref" is a record with decode = "json", but its text is not valid JSON at 1:9 of the text: invalid character U+FEFF (ZERO WIDTH NO-BREAK SPACE, a byte order mark) looking for beginning of value`},
		{"leading byte order mark", ref, "\ufeff{}",
			`variable "ref" is a record with decode = "json", but its text is not valid JSON at 1:1 of the text: invalid character U+FEFF (ZERO WIDTH NO-BREAK SPACE, a byte order mark) looking for beginning of value`},
		{"int of 401 digits", ref, `{"n": 1` + strings.Repeat("0", 400) + `}`,
			`variable "ref" is a record with decode = "json", but its JSON text is refused at 1:7 of the text: number 1000000000000000000000000000000000000000… is out of range: a JSON number must fit a 64-bit float (at most about ±1.8e308)`},
		{"int of 30 digits", ref, `{"n": 1` + strings.Repeat("0", 29) + `}`,
			`variable "ref": field "n" is an int, but 100000000000000000000000000000 is out of range: whole numbers must lie within ±2⁶³ (±2⁵³ for JSON numbers, which are not exact beyond), in the JSON text it was given`},
		{"number beyond every float", ref, `{"n": 1e400}`,
			`variable "ref" is a record with decode = "json", but its JSON text is refused at 1:7 of the text: number 1e400 is out of range: a JSON number must fit a 64-bit float (at most about ±1.8e308)`},
		{"empty text", ref, ``,
			`variable "ref" is a record with decode = "json", but its text is not valid JSON at 1:1 of the text: the text is empty`},
		{"two values", ref, `{} {}`,
			`variable "ref" is a record with decode = "json", but its text is not valid JSON at 1:4 of the text: unexpected data after the JSON value`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := values.TypeCheckIn(tt.v, tt.raw, values.FormatTOML); err == nil || err.Summary != tt.want {
				t.Errorf("CheckIn: %v\nwant: %s", err, tt.want)
			}
		})
	}
	empty := *ref
	empty.Invalid = blocks.InvalidEmpty
	val, err := values.TypeCheckIn(&empty, `{"url":"a","url":"b"}`, values.FormatTOML)
	if err != nil || val.(map[string]any)["url"] != "" {
		t.Errorf("invalid = empty: CheckIn = %v, %v; want the zero record", val, err)
	}
}
