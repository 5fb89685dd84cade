package blocks_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/values"
)

// fixtureShapes declares records nested three deep (resources → ref → tags → label), a record variable and a turn
// variable of records, and gives them in every shape a fixture may write them.
const fixtureShapes = `
-- promptc.toml --
name  = "nest"
tasks = ["chat"]

[runbook]
order = ["res"]

[turn]
order = ["files"]

[vars.resources]
scope = "session"
type  = "records"
[vars.resources.fields.name]
type = "string"
[vars.resources.fields.ref]
type = "record"
[vars.resources.fields.ref.fields.url]
type = "string"
[vars.resources.fields.ref.fields.tags]
type = "records"
[vars.resources.fields.ref.fields.tags.fields.label]
type = "string"

[vars.owner]
scope = "session"
type  = "record"
[vars.owner.fields.login]
type = "string"

[vars.changed]
scope = "turn"
type  = "records"
[vars.changed.fields.path]
type = "string"
[vars.changed.fields.status]
type = "string"
-- blocks/main.toml --
[[block]]
id   = "res"
body = '''
{{range .resources}}- {{.name}} {{.ref.url}}{{range .ref.tags}} {{.label}}{{end}}
{{end}}{{.owner.login}}
'''

[[block]]
id   = "files"
body = '''
{{range .changed}}{{.path}} {{.status}}
{{end}}
'''
-- fixtures/one.toml --
# Every shape of a records value.
[session]
owner = {login = "ada"}

[[session.resources]]
name = "api"
ref.url = "https://x"
[[session.resources.ref.tags]]
label = "go"
[[session.resources.ref.tags]]
"label" = "svc"

[[session.resources]]
name = "docs"
ref = {url = "https://d", tags = [{label = "md"}, {'label' = "web"}]}

[[session.resources]]
  name = 'wiki'
[ session . resources . "ref" ]
url = "https://w"

[[turn]]
changed = [{path = "a.go", status = "M"}]

[[turn]]
[[turn.changed]]
path = "b.go"
status = "A"
[[turn.changed]]
path   = "c.go"
status = "D"
-- fixtures/two.toml --
session.owner.login = "bob"
session.resources = [
  {name = "x", ref = {tags = [{label = "t"}]}},   # one record
]
turn = [{changed = [{path = "z"}]}, {changed = [{"status" = "M"}]}]
`

func TestFixtureValueKeys(t *testing.T) {
	p, diags := values.Load(archive(fixtureShapes))
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	files := archive(fixtureShapes)
	list := func(tb *blocks.Table) []string {
		var out []string
		for _, k := range tb.ValueKeys {
			text := string(files[k.Range.Filename].Data)
			f := source.NewFile(k.Range.Filename, text)
			if f.Pos(k.Range.Start.Byte) != k.Range.Start || f.Pos(k.Range.End.Byte) != k.Range.End {
				t.Errorf("%s %s: positions %+v-%+v disagree with the byte offsets", k.Var, k.Field, k.Range.Start, k.Range.End)
			}
			out = append(out, fmt.Sprintf("%s %s %s %d:%d", k.Var, k.Field, text[k.Range.Start.Byte:k.Range.End.Byte], k.Range.Start.Line, k.Range.Start.Column))
		}
		return out
	}
	one, two := p.Fixture("one"), p.Fixture("two")
	for _, tc := range []struct {
		name  string
		table *blocks.Table
		want  []string
	}{
		{"one session", one.SessionTable, []string{
			"owner  owner 3:1", "owner login login 3:10",
			"resources  resources 5:11", "resources name name 6:1", "resources ref ref 7:1", "resources ref.url url 7:5",
			"resources  resources 8:11", "resources ref ref 8:21", "resources ref.tags tags 8:25", "resources ref.tags.label label 9:1",
			"resources  resources 10:11", "resources ref ref 10:21", "resources ref.tags tags 10:25", `resources ref.tags.label "label" 11:1`,
			"resources  resources 13:11", "resources name name 14:1", "resources ref ref 15:1", "resources ref.url url 15:8",
			"resources ref.tags tags 15:27", "resources ref.tags.label label 15:36", "resources ref.tags.label 'label' 15:52",
			"resources  resources 17:11", "resources name name 18:3", "resources  resources 19:13", `resources ref "ref" 19:25`, "resources ref.url url 20:1",
		}},
		{"one turn 1", one.TurnTables[0], []string{
			"changed  changed 23:1", "changed path path 23:13", "changed status status 23:28",
		}},
		{"one turn 2: its records count from its own first", one.TurnTables[1], []string{
			"changed  changed 26:8", "changed path path 27:1", "changed status status 28:1",
			"changed  changed 29:8", "changed path path 30:1", "changed status status 31:1",
		}},
		{"two session: root dotted keys and inline arrays", two.SessionTable, []string{
			"owner  owner 1:9", "owner login login 1:15",
			"resources  resources 2:9", "resources name name 3:4", "resources ref ref 3:16", "resources ref.tags tags 3:23", "resources ref.tags.label label 3:32",
		}},
		{"two turn 1", two.TurnTables[0], []string{"changed  changed 5:10", "changed path path 5:22"}},
		{"two turn 2", two.TurnTables[1], []string{"changed  changed 5:38", `changed status "status" 5:50`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := list(tc.table); !slices.Equal(got, tc.want) {
				t.Errorf("value keys:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// A mistake in a record is reported at the key that holds it, at any depth, or at the record's own header: in the
// second [[turn]], the records count from that turn's first [[turn.changed]], not from the file's.
func TestRecordMistakePlaces(t *testing.T) {
	manifest := fixtureShapes[:strings.Index(fixtureShapes, "-- fixtures/one.toml --")]
	for _, tc := range []struct{ name, fixture, want string }{
		{"an undeclared field in the second turn's second record", `[[turn]]
[[turn.changed]]
path = "a"
[[turn.changed]]
path = "b"

[[turn]]
[[turn.changed]]
path = "c"
[[turn.changed]]
pth = "d"
`, `fixtures/one.toml:11:1: variable "changed", record 2 has undeclared field "pth" (did you mean "path"?) (declared: path, status)`},
		{"a field of the wrong type in the second turn's first record", `[[turn]]
[[turn.changed]]
status = "M"

[[turn]]
[[turn.changed]]
path = "c"
status = 4
`, `fixtures/one.toml:8:1: variable "changed", record 1: field "status" is a string, so its value must be a string, not an integer`},
		{"a field at depth 3 in an inline table", `[session]
resources = [{name = "a"}, {name = "b", ref = {tags = [{label = "x"}, {lable = "y"}]}}]
`, `fixtures/one.toml:2:72: variable "resources", record 2, field "ref", field "tags", record 2 has undeclared field "lable" (did you mean "label"?) (declared: label)`},
		{"a field at depth 3 under nested headers", `[[session.resources]]
name = "a"
[[session.resources]]
name = "b"
[[session.resources.ref.tags]]
label = 1
`, `fixtures/one.toml:6:1: variable "resources", record 2, field "ref", field "tags", record 1: field "label" is a string, so its value must be a string, not an integer`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := values.Load(archive(manifest + "-- fixtures/one.toml --\n" + tc.fixture))
			if got := strings.TrimSpace(diags.String()); got != tc.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}
