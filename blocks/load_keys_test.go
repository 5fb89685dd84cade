package blocks_test

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/values"
)

// manifestWith is the base manifest with more variable declarations appended.
func manifestWith(vars string) string {
	return "-- promptc.toml --\nname = \"acme\"\ntasks = [\"issue\", \"chat\"]\n\n[runbook]\norder = [\"intro\"]\n\n[turn]\norder = [\"ask\"]\n" + vars
}

// TestLoadValueKeys checks the variable keys of docs/reference.md#varsname beyond types and limits: trim, pattern, invalid,
// required per task, records with fields, and code with lang, each read as written or reported where it is wrong.
func TestLoadValueKeys(t *testing.T) {
	p, diags := values.Load(with(base, manifestWith(`
[vars.email]
scope   = "session"
type    = "string"
trim    = true
pattern = '[^\s<>@]+@[^\s<>@]+'
invalid = "empty"

[vars.run_id]
scope    = "turn"
type     = "string"
required = ["chat"]

[vars.diff]
scope = "turn"
type  = "text"
trust = "code"
lang  = "diff"

[vars.repos]
scope     = "session"
type      = "records"
max_items = 20
pin_first = true
[vars.repos.fields.url]
type     = "string"
trust    = "trusted"
required = true
[vars.repos.fields.description]
type      = "text"
trim      = true
max_runes = 200
[vars.repos.fields.stars]
type = "int"
`)))
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	email := p.Vars["email"]
	if !email.Trim || email.Invalid != blocks.InvalidEmpty || email.Pattern == nil || !email.Pattern.MatchString("a@b") || email.Pattern.MatchString("x a@b") {
		t.Errorf("email = %+v", email)
	}
	if run := p.Vars["run_id"]; run.Required || !reflect.DeepEqual(run.RequiredFor, []string{"chat"}) || !run.RequiredIn("chat") || run.RequiredIn("issue") {
		t.Errorf("run_id required = %v, for %q", run.Required, run.RequiredFor)
	}
	if d := p.Vars["diff"]; d.Trust != blocks.Code || d.Lang != "diff" {
		t.Errorf("diff = %+v", d)
	}
	repos := p.Vars["repos"]
	if repos.Type != blocks.TypeRecords || repos.MaxItems != 20 || !repos.PinFirst || len(repos.Fields) != 3 {
		t.Fatalf("repos = %+v", repos)
	}
	for _, f := range []struct {
		name     string
		typ      blocks.Type
		trust    blocks.Trust
		required bool
	}{{"description", blocks.TypeText, blocks.Untrusted, false}, {"stars", blocks.TypeInt, blocks.Trusted, false}, {"url", blocks.TypeString, blocks.Trusted, true}} {
		got := repos.Field(f.name)
		if got == nil || got.Type != f.typ || got.Trust != f.trust || got.Required != f.required {
			t.Errorf("field %s = %+v", f.name, got)
		}
	}
	if d := repos.Field("description"); !d.Trim || d.MaxRunes != 200 {
		t.Errorf("description = %+v", d)
	}
}

func TestLoadValueKeyErrors(t *testing.T) {
	tests := []struct {
		name, vars, want string
	}{
		{
			name: "pattern that is not RE2",
			vars: "[vars.a]\nscope = \"session\"\ntype = \"string\"\npattern = \"(?<=x)y\"\n",
			want: "promptc.toml:12:11: pattern of variable \"a\" is not a valid RE2 regular expression: invalid named capture: `(?<=x)y`\n",
		},
		{
			name: "invalid without pattern, and of a bad kind",
			vars: "[vars.a]\nscope = \"session\"\ntype = \"string\"\ninvalid = \"empty\"\n\n[vars.b]\nscope = \"session\"\ntype = \"string\"\npattern = \"x\"\ninvalid = \"drop\"\n",
			want: "promptc.toml:12:1: invalid says what to do with a value that does not match pattern, but variable \"a\" has no pattern: add pattern = \"…\", or remove invalid\n" +
				"promptc.toml:18:1: invalid must be \"error\" (a value that does not match pattern is an error) or \"empty\" (it is dropped), not \"drop\"\n",
		},
		{
			name: "required for an undeclared task, or of the wrong type",
			vars: "[vars.a]\nscope = \"session\"\ntype = \"string\"\nrequired = [\"issue\", \"cat\"]\n\n[vars.b]\nscope = \"session\"\ntype = \"string\"\nrequired = \"yes\"\n",
			want: "promptc.toml:12:22: required names undeclared task \"cat\" (did you mean \"chat\"?)\n" +
				"promptc.toml:17:1: required must be true or false, or a list of the tasks that need the value, not a string\n",
		},
		{
			name: "lang without code, and lang with a space",
			vars: "[vars.a]\nscope = \"turn\"\ntype = \"text\"\nlang = \"go\"\n\n[vars.b]\nscope = \"turn\"\ntype = \"text\"\ntrust = \"code\"\nlang = \"go mod\"\n",
			want: "promptc.toml:12:1: lang applies only to code values (trust = \"code\"); variable \"a\" has trust untrusted\n" +
				"promptc.toml:18:1: lang \"go mod\" of variable \"b\" may hold only letters, digits and _ + . - (it is the info string of a code fence)\n",
		},
		{
			name: "records without fields, with a trust, with list-only keys",
			vars: "[vars.a]\nscope = \"session\"\ntype = \"records\"\ntrust = \"trusted\"\nomitted = \"x\"\n",
			want: "promptc.toml:9:1: records variable \"a\" needs its fields: add a [vars.a.fields.NAME] table with a type for each\n" +
				"promptc.toml:12:1: trust of records variable \"a\" is set per field: move it to [vars.a.fields.NAME]\n" +
				"promptc.toml:13:1: omitted applies only to list variables; \"a\" is of type records\n",
		},
		{
			name: "fields of the wrong kind",
			vars: "[vars.a]\nscope = \"session\"\ntype = \"records\"\n[vars.a.fields.x]\ntype = \"list\"\n[vars.a.fields.Y]\ntype = \"string\"\nitem_max_runes = 3\n[vars.b]\nscope = \"session\"\ntype = \"string\"\n[vars.b.fields.x]\ntype = \"string\"\n",
			want: "promptc.toml:13:1: type of field \"x\" of \"a\" must be one of string, text, bool, int, records, record, not \"list\" (did you mean \"int\"?)\n" +
				"promptc.toml:14:1: field name \"Y\" is not valid: field names match [a-z][a-z0-9_]*\n" +
				"promptc.toml:16:1: unknown key \"item_max_runes\" in [vars.a.fields.Y] (known keys: type, trust, required, trim, pattern, invalid, max_runes, overflow, notice, max_items, max_bytes, pin_first, verbatim, keep_newlines, quote_empty, decode, unknown, raw, lang, fields, key)\n" +
				"promptc.toml:20:1: fields applies only to record and records variables; \"b\" is of type string\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := values.Load(with(base, manifestWith(tt.vars)))
			if got := diags.String(); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestLoadLookupTables: a constant whose value is a table of strings is a lookup table (docs/reference.md#blockstoml).
func TestLoadLookupTables(t *testing.T) {
	p, diags := values.Load(with(base, "-- blocks/consts.toml --\n[const]\nrule = \"x\"\n\n[const.channel_names]\nslack   = \"Slack\"\ndiscord = \"Discord\"\n"))
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	c := p.Consts["channel_names"]
	if c == nil || !reflect.DeepEqual(c.Lookup, map[string]string{"slack": "Slack", "discord": "Discord"}) || c.Range.String() != "blocks/consts.toml:4:1" {
		t.Errorf("channel_names = %+v", c)
	}
	if got := c.LookupTable.Key("discord").String(); got != "blocks/consts.toml:6:1" {
		t.Errorf("discord entry at %s", got)
	}
	if p.Consts["rule"].Lookup != nil {
		t.Error("a text constant has entries")
	}
	_, diags = values.Load(with(base, "-- blocks/consts.toml --\n[const.t]\na = 1\n"))
	if want := "blocks/consts.toml:2:1: entry \"a\" of lookup table \"t\" must be a string, not an integer\n"; diags.String() != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", diags, want)
	}
}

// TestLoadExtends checks docs/reference.md#fixturestoml: a fixture starts from the one it extends, overriding session values key by key,
// keeping its tasks unless it sets tasks, and its turns unless it has turns of its own; chains work; cycles and
// unknown names are errors naming the fixture file.
func TestLoadExtends(t *testing.T) {
	vars := "[vars.agent]\nscope = \"session\"\ntype = \"string\"\nrequired = true\n\n[vars.leader]\nscope = \"session\"\ntype = \"bool\"\n\n[vars.issue_id]\nscope = \"turn\"\ntype = \"string\"\n"
	p, diags := values.Load(with(base, manifestWith(vars), `
-- fixtures/basic.toml --
tasks = []
[session]
agent = "Ada"
leader = true
[[turn]]
issue_id = "ISS-1"
-- fixtures/child.toml --
extends = "basic"
tasks = ["issue"]
[session]
leader = false
-- fixtures/grandchild.toml --
extends = "child"
[[turn]]
issue_id = "ISS-2"
`))
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	child, grand := p.Fixture("child"), p.Fixture("grandchild")
	if !reflect.DeepEqual(child.Session, blocks.Values{"agent": "Ada", "leader": false}) || !reflect.DeepEqual(child.Tasks, []string{"issue"}) ||
		len(child.Turns) != 1 || child.Turns[0]["issue_id"] != "ISS-1" {
		t.Errorf("child = %+v", child)
	}
	if !reflect.DeepEqual(grand.Session, child.Session) || !reflect.DeepEqual(grand.Tasks, []string{"issue"}) ||
		len(grand.Turns) != 1 || grand.Turns[0]["issue_id"] != "ISS-2" {
		t.Errorf("grandchild = %+v", grand)
	}
	if basic := p.Fixture("basic"); len(basic.Tasks) != 0 {
		t.Errorf("basic tasks = %q", basic.Tasks)
	}

	_, diags = values.Load(with(base, manifestWith(vars), `
-- fixtures/basic.toml --
extends = "loop"
[session]
agent = "Ada"
-- fixtures/loop.toml --
extends = "basic"
-- fixtures/orphan.toml --
extends = "basik"
-- fixtures/bare.toml --
-- fixtures/abstract.toml --
tasks = []
-- fixtures/nothing.toml --
extends = "abstract"
[session]
agent = "Ada"
`))
	want := "fixtures/bare.toml:1:1: required session variable \"agent\" is missing from [session]\n" +
		"fixtures/basic.toml:1:11: fixture \"basic\" extends itself through basic → loop → basic: fixtures may extend each other in chains, not in cycles\n" +
		"fixtures/nothing.toml:1:11: fixture \"nothing\" inherits tasks = [] from \"abstract\", so it renders nothing: set its own tasks (tasks = [\"*\"] for every task)\n" +
		"fixtures/orphan.toml:1:11: fixture \"orphan\" extends unknown fixture \"basik\" (did you mean \"basic\"?): extends names a file of fixtures/ without .toml\n"
	if got := diags.String(); got != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
}

// TestLoadRecordValues: fixtures give records as arrays of tables; a malformed record is reported at the record
// (or its field), naming the variable, the record's index from 1 and the field.
func TestLoadRecordValues(t *testing.T) {
	vars := "[vars.repos]\nscope = \"session\"\ntype = \"records\"\n[vars.repos.fields.url]\ntype = \"string\"\nrequired = true\n[vars.repos.fields.stars]\ntype = \"int\"\n"
	p, diags := values.Load(with(base, manifestWith(vars), `
-- fixtures/basic.toml --
[[session.repos]]
url = "https://example.com/a"
stars = 3
[[session.repos]]
url = "https://example.com/b"
`))
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	want := []map[string]any{{"url": "https://example.com/a", "stars": int64(3)}, {"url": "https://example.com/b", "stars": int64(0)}}
	if got := p.Fixtures[0].Session["repos"]; !reflect.DeepEqual(got, want) {
		t.Errorf("repos = %#v, want %#v", got, want)
	}
	for _, tt := range []struct{ fixture, want string }{
		{"[[session.repos]]\nurl = \"a\"\n[[session.repos]]\nurl = \"b\"\nstars = \"many\"\n",
			"fixtures/basic.toml:5:1: variable \"repos\", record 2: field \"stars\" is an int, so its value must be a whole number, not a string\n"},
		{"[[session.repos]]\nurl = \"a\"\n[[session.repos]]\nstars = 1\n",
			"fixtures/basic.toml:3:1: variable \"repos\", record 2 lacks required field \"url\"\n"},
		{"[session]\nrepos = [{url = \"a\"}, {url = \"b\", owner = \"me\"}]\n",
			"fixtures/basic.toml:2:35: variable \"repos\", record 2 has undeclared field \"owner\" (declared: stars, url)\n"},
	} {
		_, diags := values.Load(with(base, manifestWith(vars), "-- fixtures/basic.toml --\n"+tt.fixture))
		if got := diags.String(); got != tt.want {
			t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
		}
	}
}

// TestLoadSourceSize: a source file over MaxSourceBytes is refused without being decoded (or read whole); one at
// the limit is read.
func TestLoadSourceSize(t *testing.T) {
	fsys := with(base, "-- blocks/base.toml --\n[[block]]\nid = \"intro\"\ntemplate = \"big.md\"\n\n[[block]]\nid = \"ask\"\nbody = \"Go.\"\n")
	fsys["templates/big.md"] = &fstest.MapFile{Data: []byte(strings.Repeat("x", blocks.MaxSourceBytes+1))}
	_, diags := values.Load(fsys)
	if want := "templates/big.md:?:?: source file too large: promptc reads files of at most 8 MiB (8388608 bytes); split it, or move long text into several templates\n"; !strings.HasPrefix(diags.String(), want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", diags, want)
	}
	fsys["templates/big.md"] = &fstest.MapFile{Data: []byte(strings.Repeat("x", blocks.MaxSourceBytes))}
	if _, diags := values.Load(fsys); len(diags) > 0 {
		t.Errorf("a file at the limit: %s", diags)
	}
}
