package values_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/values"
)

// keyedVars declares keyed records hosts (session), and records services (turn) whose field ports is keyed too.
const keyedVars = `
[vars.hosts]
scope     = "session"
type      = "records"
key       = "name"
max_items = 10
[vars.hosts.fields.name]
type  = "string"
trust = "trusted"
[vars.hosts.fields.addr]
type     = "string"
required = true
[vars.hosts.fields.tags]
type = "records"
[vars.hosts.fields.tags.fields.label]
type = "string"
[vars.services]
scope  = "turn"
type   = "records"
[vars.services.fields.title]
type = "string"
[vars.services.fields.ports]
type   = "records"
key    = "proto"
decode = "json"
[vars.services.fields.ports.fields.proto]
type = "string"
[vars.services.fields.ports.fields.n]
type = "int"
`

func keyedProject(fixture string) string {
	return strings.Replace(base, "-- blocks/base.toml --", keyedVars+"-- blocks/base.toml --", 1) + fixture
}

// TestKeyedRecords: a keyed records value is a table of records by name (docs/reference.md#keyed-records), checked
// into records in the byte order of the names, each holding its name in the key field; nested keyed records and
// JSON texts (decode) alike.
func TestKeyedRecords(t *testing.T) {
	p, diags := values.Load(archive(keyedProject(`
[session.hosts.web]
addr = "web.internal"
[session.hosts."Db"]
addr = "db.internal"
[[session.hosts.web.tags]]
label = "front"
[session.hosts.b]
addr = "b.internal"
[[turn]]
[[turn.services]]
title = "api"
ports = '{"https": {"n": 443}, "http": {"n": 80}}'
[[turn.services]]
title = "mail"
[turn.services.ports.smtp]
n = 25
`)))
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	f := p.Fixtures[0]
	hosts := []map[string]any{
		{"name": "Db", "addr": "db.internal", "tags": []map[string]any{}},
		{"name": "b", "addr": "b.internal", "tags": []map[string]any{}},
		{"name": "web", "addr": "web.internal", "tags": []map[string]any{{"label": "front"}}},
	}
	if got := f.Session["hosts"]; !reflect.DeepEqual(got, hosts) {
		t.Errorf("hosts = %#v\nwant    %#v", got, hosts)
	}
	services := []map[string]any{
		{"title": "api", "ports": []map[string]any{{"proto": "http", "n": int64(80)}, {"proto": "https", "n": int64(443)}}},
		{"title": "mail", "ports": []map[string]any{{"proto": "smtp", "n": int64(25)}}},
	}
	if got := f.Turns[0]["services"]; !reflect.DeepEqual(got, services) {
		t.Errorf("services = %#v\nwant       %#v", got, services)
	}
	// A checked value checks the same: the array of named records, in name order.
	v := p.Vars["hosts"]
	if again, err := values.TypeCheckIn(v, f.Session["hosts"], values.FormatGo); err != nil || !reflect.DeepEqual(again, hosts) {
		t.Errorf("checked again: %#v, %v", again, err)
	}
	// From Go: a map of structs, and an array of named records in any order.
	type host struct {
		Addr string `json:"addr"`
	}
	got, err := values.TypeCheckIn(v, map[string]host{"web": {"w"}, "Db": {"d"}}, values.FormatGo)
	if err != nil || len(got.([]map[string]any)) != 2 || got.([]map[string]any)[0]["name"] != "Db" {
		t.Errorf("a map of structs: %#v, %v", got, err)
	}
	got, err = values.TypeCheckIn(v, []any{map[string]any{"name": "z", "addr": "1"}, map[string]any{"name": "a", "addr": "2"}}, values.FormatGo)
	if err != nil || got.([]map[string]any)[0]["name"] != "a" {
		t.Errorf("an array of named records: %#v, %v", got, err)
	}
}

// TestKeyedRecordErrors: each mistake in a keyed records value is reported at its line and column, naming the
// record by its name.
func TestKeyedRecordErrors(t *testing.T) {
	tests := []struct{ name, fixture, want string }{
		{"a bad field", "[session.hosts.web]\naddr = 1\n",
			`fixtures/basic.toml:3:1: variable "hosts", record "web": field "addr" is a string, so its value must be a string, not an integer`},
		{"a missing required field", "[session.hosts.web]\naddr = \"w\"\n[session.hosts.db]\n",
			`fixtures/basic.toml:4:16: variable "hosts", record "db" lacks required field "addr"`},
		{"an undeclared field", "[session.hosts.web]\naddr = \"w\"\nport = 1\n",
			`fixtures/basic.toml:4:1: variable "hosts", record "web" has undeclared field "port" (declared: addr, name, tags)`},
		{"the name given as a field", "[session.hosts.web]\naddr = \"w\"\nname = \"x\"\n",
			`fixtures/basic.toml:4:1: variable "hosts", record "web" gives field "name", which holds the record's name (key = "name"): remove it; the record is named by its key in the table`},
		{"an array of tables", "[[session.hosts]]\naddr = \"w\"\n",
			`fixtures/basic.toml:2:1: variable "hosts", record 1 has no name: as an array, keyed records hold their names in field "name" (key = "name"), a string; or give them as a table of tables, one record per name`},
		{"one name twice in an array", "[[session.hosts]]\nname = \"a\"\naddr = \"w\"\n[[session.hosts]]\nname = \"a\"\naddr = \"v\"\n",
			`fixtures/basic.toml:6:1: variable "hosts", record 2 has the name "a" of record 1: the names of keyed records are unique`},
		{"not a table", "[session]\nhosts = \"web\"\n",
			`fixtures/basic.toml:3:1: variable "hosts" is keyed records (key = "name"), so its value must be a table of tables, one record per name, not a string`},
		{"a record that is not a table", "[session.hosts]\nweb = 1\n",
			`fixtures/basic.toml:3:1: variable "hosts" is keyed records, but record "web" is an integer, not a table`},
		{"a nested field of a record", "[session.hosts.web]\naddr = \"w\"\n[[session.hosts.web.tags]]\nlabel = 2\n",
			`fixtures/basic.toml:5:1: variable "hosts", record "web", field "tags", record 1: field "label" is a string, so its value must be a string, not an integer`},
		{"a nested keyed field's JSON text", "[[turn]]\n[[turn.services]]\nports = '{\"http\": {\"n\": \"80\"}}'\n",
			`fixtures/basic.toml:4:1: variable "services", record 1, field "ports", record "http": field "n" is an int, so its value must be a whole number, not a JSON string, in the JSON text it was given`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := values.Load(archive(keyedProject("-- fixtures/basic.toml --\ntasks = [\"*\"]\n" + tt.fixture)))
			if got := strings.TrimSpace(diags.String()); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestKeyedValuesFiles: values files give keyed records as a JSON object of objects or a TOML table of tables, and
// their mistakes are placed at the key of the record or field.
func TestKeyedValuesFiles(t *testing.T) {
	p, diags := values.Load(archive(keyedProject("")))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	tests := []struct{ name, file, in, want, diags string }{
		{"json", "v.json", `{"hosts": {"web": {"addr": "w"}, "db": {"addr": "d"}}}`, "db web", ""},
		{"toml", "v.toml", "[hosts.web]\naddr = \"w\"\n[hosts.db]\naddr = \"d\"\n", "db web", ""},
		{"json mistakes, a record that is no object", "v.json", "{\"hosts\": {\n  \"web\": {\"addr\": 1},\n  \"db\": {\"addr\": \"d\", \"x\": 2},\n  \"c\": 3}}", "",
			"v.json:2:11: variable \"hosts\", record \"web\": field \"addr\" is a string, so its value must be a JSON string, not a JSON number\n" +
				"v.json:3:23: variable \"hosts\", record \"db\" has undeclared field \"x\" (declared: addr, name, tags)\n" +
				"v.json:4:3: variable \"hosts\" is keyed records, but record \"c\" is a JSON number, not a JSON object\n"},
		{"json field mistakes", "v.json", "{\"hosts\": {\n  \"web\": {\"addr\": 1},\n  \"db\": {\"addr\": \"d\", \"x\": 2}}}", "",
			"v.json:2:11: variable \"hosts\", record \"web\": field \"addr\" is a string, so its value must be a JSON string, not a JSON number\n" +
				"v.json:3:23: variable \"hosts\", record \"db\" has undeclared field \"x\" (declared: addr, name, tags)\n"},
		{"toml mistakes", "v.toml", "[hosts.web]\naddr = 1\n[hosts.db]\naddr = \"d\"\nx = 2\n", "",
			"v.toml:2:1: variable \"hosts\", record \"web\": field \"addr\" is a string, so its value must be a string, not an integer\n" +
				"v.toml:5:1: variable \"hosts\", record \"db\" has undeclared field \"x\" (declared: addr, name, tags)\n"},
		{"an array", "v.json", `{"hosts": [{"addr": "w"}]}`, "",
			"v.json:1:12: variable \"hosts\", record 1 has no name: as an array, keyed records hold their names in field \"name\" (key = \"name\"), a string; or give them as a JSON object of objects, one record per name\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vals, _, diags := values.ReadFile(p, tt.file, []byte(tt.in), blocks.ScopeSession)
			if got := diags.String(); got != tt.diags {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.diags)
			}
			var names []string
			if recs, ok := vals["hosts"].([]map[string]any); ok {
				for _, r := range recs {
					names = append(names, fmt.Sprint(r["name"]))
				}
			}
			if got := strings.Join(names, " "); got != tt.want {
				t.Errorf("names = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestKeyedValueKeys: the editor's value keys of a keyed records value name the variable and its fields, not the
// records' names, which are the value's own.
func TestKeyedValueKeys(t *testing.T) {
	p, diags := values.Load(archive(keyedProject("-- fixtures/basic.toml --\n[session.hosts.web]\naddr = \"w\"\n[[session.hosts.web.tags]]\nlabel = \"x\"\n[session]\nhosts.db.addr = \"d\"\n")))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var got []string
	for _, k := range p.Fixtures[0].SessionTable.ValueKeys {
		got = append(got, fmt.Sprintf("%s %s %d:%d", k.Var, k.Field, k.Range.Start.Line, k.Range.Start.Column))
	}
	want := []string{"hosts  1:10", "hosts addr 2:1", "hosts  3:11", "hosts tags 3:21", "hosts tags.label 4:1", "hosts  6:1", "hosts addr 6:10"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("value keys:\n%q\nwant\n%q", got, want)
	}
}

// FuzzReadKeyedValues feeds any values file, in either format, to a project with keyed records: no input may
// panic, every diagnostic is placed in the file, and a value that passes is records in strictly increasing name
// order, each holding its name.
func FuzzReadKeyedValues(f *testing.F) {
	for _, s := range []string{
		`{"hosts": {"web": {"addr": "w"}, "db": {"addr": "d"}}}`, "[hosts.web]\naddr = \"w\"\n[hosts.db]\naddr = \"d\"\n",
		`{"hosts": {"web": {"addr": 1}, "db": {"addr": "d", "x": 2}, "c": 3}}`, `{"hosts": [{"addr": "w"}]}`,
		`{"hosts": [{"name": "b", "addr": "w"}, {"name": "a", "addr": "v"}, {"name": "a"}]}`,
		"hosts = {web = {addr = \"w\", name = \"x\"}}", `{"hosts": {"": {"addr": ""}, "a.b": {"addr": "[1]"}}}`,
		"[hosts.'a.b'.tags]\nlabel = 1\n",
	} {
		f.Add("v.json", s)
		f.Add("v.toml", s)
	}
	p, diags := values.Load(archive(keyedProject("")))
	if len(diags) > 0 {
		f.Fatal(diags)
	}
	f.Fuzz(func(t *testing.T, name, in string) {
		vals, _, diags := values.ReadFile(p, name+"v", []byte(in), blocks.ScopeSession)
		for _, d := range diags {
			if d.Subject == nil || d.Subject.Filename != name+"v" {
				t.Fatalf("%q: diagnostic not placed in the file: %s", in, d)
			}
		}
		recs, _ := vals["hosts"].([]map[string]any)
		for i, r := range recs {
			n, ok := r["name"].(string)
			if !ok || i > 0 && recs[i-1]["name"].(string) >= n {
				t.Fatalf("%q: records not in strictly increasing name order: %#v", in, recs)
			}
		}
	})
}
