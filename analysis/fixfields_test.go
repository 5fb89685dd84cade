package analysis

import (
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// nestProject gives records in fixtures in every shape TOML allows: arrays of tables ([[session.resources]]),
// their nested arrays ([[session.resources.ref.tags]], depth 3) and sub-tables ([session.resources.ref]), dotted
// keys (ref.url), inline tables and inline arrays of them, quoted keys (one with an escape), root dotted keys
// (session.resources = […]), and the records of turns, given inline in the first [[turn]] and as [[turn.changed]]
// in the second, whose records the file counts after the first turn's.
var nestProject = fstest.MapFS{
	"promptc.toml": {Data: []byte(`name  = "nest"
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
`)},
	"blocks/main.toml": {Data: []byte(`[[block]]
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
`)},
	"fixtures/one.toml": {Data: []byte(`[session]
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
ref = {url = "https://d", tags = [{label = "md"}, {'label' = "web"}, {"\u006cabel" = "esc"}]}

[[session.resources]]
'name' = "wiki"
[session.resources.ref]
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
`)},
	"fixtures/two.toml": {Data: []byte(`session.owner.login = "bob"
session.resources = [
  {name = "x", ref = {tags = [{label = "t"}]}},
]
turn = [{changed = [{path = "z"}]}, {changed = [{"status" = "M"}]}]
`)},
	// It inherits one's turns: their keys are one's, counted once.
	"fixtures/three.toml": {Data: []byte(`extends = "one"
[session]
owner.login = "cy"
`)},
}

// renders returns every artifact the project renders, by fixture: the runbook, then each turn's message.
func renders(t *testing.T, s *Snapshot) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range s.Project.Fixtures {
		sess, err := s.Program.NewSession("chat", f.Session)
		if err != nil {
			t.Fatalf("fixture %s: %v", f.Name, err)
		}
		var b strings.Builder
		b.WriteString(sess.Runbook().Text)
		for _, turn := range f.Turns {
			art, err := sess.Turn(turn)
			if err != nil {
				t.Fatalf("fixture %s: %v", f.Name, err)
			}
			b.WriteString("\n---\n" + art.Text)
		}
		out[f.Name] = b.String()
	}
	return out
}

// applyEdits returns fsys with the edits applied.
func applyEdits(t *testing.T, s *Snapshot, fsys fstest.MapFS, edits map[string][]Edit) fstest.MapFS {
	t.Helper()
	out := maps.Clone(fsys)
	for name, es := range edits {
		text := s.File(name).Text
		es = slices.Clone(es)
		slices.SortFunc(es, func(a, b Edit) int { return b.Range.Start.Byte - a.Range.Start.Byte })
		for i, e := range es {
			if i > 0 && e.Range.End.Byte > es[i-1].Range.Start.Byte {
				t.Fatalf("%s: edits overlap at %s", name, e.Range)
			}
			text = text[:e.Range.Start.Byte] + e.NewText + text[e.Range.End.Byte:]
		}
		out[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return out
}

// editStrings lists edits as file:line:col-col=new, in file and position order.
func editStrings(edits map[string][]Edit) []string {
	var out []string
	for _, name := range sortedKeys(edits) {
		es := slices.Clone(edits[name])
		slices.SortFunc(es, func(a, b Edit) int { return a.Range.Start.Byte - b.Range.Start.Byte })
		for _, e := range es {
			out = append(out, fmt.Sprintf("%s:%d:%d-%d=%s", name, e.Range.Start.Line, e.Range.Start.Column, e.Range.End.Column, e.NewText))
		}
	}
	return out
}

func TestFixtureFieldReferences(t *testing.T) {
	s := Load(nestProject)
	if d := s.Diagnostics(); len(d) > 0 {
		t.Fatalf("diagnostics: %v", d)
	}
	for _, tc := range []struct {
		name, file, needle string
		n                  int // occurrence of needle
		want               []string
	}{
		{"a field of records, from its declaration", "promptc.toml", "[vars.resources.fields.name]", 0, []string{
			"blocks/main.toml:4:26-30",
			"fixtures/one.toml:5:1-5", "fixtures/one.toml:13:1-5", "fixtures/one.toml:17:2-6",
			"fixtures/two.toml:3:4-8",
		}},
		{"a field at depth 3, from a fixture's key", "fixtures/one.toml", "label", 0, []string{
			"blocks/main.toml:4:68-73",
			"fixtures/one.toml:8:1-6", "fixtures/one.toml:10:2-7", "fixtures/one.toml:14:36-41",
			"fixtures/one.toml:14:53-58", "fixtures/one.toml:14:71-83",
			"fixtures/two.toml:3:32-37",
		}},
		{"a field of a nested record, from an inline table", "fixtures/one.toml", "url =", 0, []string{
			"blocks/main.toml:4:40-43",
			"fixtures/one.toml:6:5-8", "fixtures/one.toml:14:8-11", "fixtures/one.toml:19:1-4",
		}},
		{"a turn variable's field, in both turns and both files", "fixtures/one.toml", "path", 1, []string{
			"blocks/main.toml:11:22-26",
			"fixtures/one.toml:22:13-17", "fixtures/one.toml:26:1-5", "fixtures/one.toml:29:1-5",
			"fixtures/two.toml:5:22-26",
		}},
		{"a record variable's field, in inline tables and dotted keys", "fixtures/three.toml", "login", 0, []string{
			"blocks/main.toml:5:17-22", "fixtures/one.toml:2:10-15", "fixtures/three.toml:3:7-12", "fixtures/two.toml:1:15-20",
		}},
		{"a records variable, in headers and root dotted keys", "fixtures/two.toml", "resources", 0, []string{
			"blocks/main.toml:4:10-19",
			"fixtures/one.toml:4:11-20", "fixtures/one.toml:7:11-20", "fixtures/one.toml:9:11-20",
			"fixtures/one.toml:12:11-20", "fixtures/one.toml:16:11-20", "fixtures/one.toml:18:10-19",
			"fixtures/two.toml:2:9-18",
			"promptc.toml:13:7-16", "promptc.toml:15:7-16", "promptc.toml:17:7-16", "promptc.toml:19:7-16", "promptc.toml:21:7-16",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			off := offsetOf(t, s, tc.file, tc.needle, tc.n, 0)
			if strings.HasPrefix(tc.needle, "[") {
				off += len(tc.needle) - 2
			}
			got := rangeStrings(s.References(tc.file, off, false))
			if !slices.Equal(got, tc.want) {
				t.Errorf("references:\n got %q\nwant %q", got, tc.want)
			}
			all := s.References(tc.file, off, true)
			if len(all) != len(tc.want)+1 {
				t.Errorf("with the declaration: %d, want %d", len(all), len(tc.want)+1)
			}
			defs := s.Definition(tc.file, off)
			if len(defs) != 1 || !strings.HasPrefix(defs[0].Filename, "promptc.toml") {
				t.Errorf("definition = %v", rangeStrings(defs))
			}
		})
	}

	// The definition of a fixture's key at depth 3 is the field's table, and its hover the field's declaration.
	off := offsetOf(t, s, "fixtures/one.toml", `{'label'`, 0, 2)
	if got := rangeStrings(s.Definition("fixtures/one.toml", off)); !slices.Equal(got, []string{"promptc.toml:21:47-52"}) {
		t.Errorf("definition of a quoted key = %v", got)
	}
	h, ok := s.Hover("fixtures/one.toml", off)
	if !ok || !strings.Contains(h.Text, `**field "ref.tags.label" of records variable "resources"**`) || !strings.Contains(h.Text, "type string") {
		t.Errorf("hover on a fixture's key: %v %q", ok, h.Text)
	}
	if h, ok := s.Hover("fixtures/one.toml", offsetOf(t, s, "fixtures/one.toml", "login", 0, 1)); !ok || !strings.Contains(h.Text, `field "login" of record variable "owner"`) {
		t.Errorf("hover on a record's key: %v %q", ok, h.Text)
	}
}

func TestRenameFixtureFields(t *testing.T) {
	s := Load(nestProject)
	before := renders(t, s)
	for _, tc := range []struct {
		name, file, needle string
		n                  int
		newName            string
		// want lists the edits in the fixtures, exactly; 0 checks only that some were made.
		want []string
	}{
		{"a field at depth 1", "promptc.toml", "[vars.resources.fields.name]", 0, "title", []string{
			"fixtures/one.toml:5:1-5=title", "fixtures/one.toml:13:1-5=title", "fixtures/one.toml:17:2-6=title",
			"fixtures/two.toml:3:4-8=title",
		}},
		{"a field at depth 3, quoted keys kept quoted and an escaped one rewritten bare", "blocks/main.toml", ".label", 0, "text", []string{
			"fixtures/one.toml:8:1-6=text", "fixtures/one.toml:10:2-7=text", "fixtures/one.toml:14:36-41=text",
			"fixtures/one.toml:14:53-58=text", "fixtures/one.toml:14:71-83=text",
			"fixtures/two.toml:3:32-37=text",
		}},
		{"a turn variable's field, in an inline array and in a second turn's array of tables", "fixtures/two.toml", `"status"`, 0, "state", []string{
			"fixtures/one.toml:22:28-34=state", "fixtures/one.toml:27:1-7=state", "fixtures/one.toml:30:1-7=state",
			"fixtures/two.toml:5:51-57=state",
		}},
		{"a field of a record in an inline table", "fixtures/one.toml", "login", 0, "handle", nil},
		{"a nested record field, in a sub-table header", "fixtures/one.toml", "ref]", 0, "reference", nil},
		{"a field in the middle of a path, in headers of both kinds", "fixtures/one.toml", "tags", 0, "labels", nil},
		{"a records variable, in every header", "fixtures/one.toml", "[[session.resources]]", 0, "items", nil},
		{"a turn variable of records, in [[turn.changed]]", "fixtures/one.toml", "[[turn.changed]]", 0, "diffs", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			off := offsetOf(t, s, tc.file, tc.needle, tc.n, 0)
			switch {
			case strings.HasPrefix(tc.needle, "[["):
				off += len(tc.needle) - 3
			case strings.HasPrefix(tc.needle, "["):
				off += len(tc.needle) - 2
			case strings.HasPrefix(tc.needle, ".") || strings.HasPrefix(tc.needle, `"`):
				off++
			}
			o, err := s.PrepareRename(tc.file, off)
			if err != nil {
				t.Fatal(err)
			}
			refs := len(s.Occurrences(o.Symbol))
			edits, err := s.Rename(tc.file, off, tc.newName)
			if err != nil {
				t.Fatal(err)
			}
			var inFixtures []string
			for _, e := range editStrings(edits) {
				if strings.HasPrefix(e, "fixtures/") {
					inFixtures = append(inFixtures, e)
				}
			}
			if tc.want != nil && !slices.Equal(inFixtures, tc.want) {
				t.Errorf("edits in fixtures:\n got %q\nwant %q", inFixtures, tc.want)
			}
			if len(inFixtures) == 0 {
				t.Errorf("no edit in the fixtures: %q", editStrings(edits))
			}
			renamed := Load(applyEdits(t, s, nestProject, edits))
			if d := renamed.Diagnostics(); len(d) > 0 {
				t.Fatalf("after the rename: %v", d)
			}
			// Every byte each fixture renders is the same, and the renamed symbol has as many occurrences.
			if after := renders(t, renamed); !maps.Equal(after, before) {
				t.Errorf("the rename changed what renders:\n%q\nwas\n%q", after, before)
			}
			sym := o.Symbol
			sym.Name = sym.Name[:len(sym.Name)-len(shortName(sym))] + tc.newName
			if n := len(renamed.Occurrences(sym)); n != refs {
				t.Errorf("%s has %d occurrences after the rename, %d before", sym.Name, n, refs)
			}
		})
	}

	// A nested field's new name is checked against its siblings, not the variable's fields.
	off := offsetOf(t, s, "promptc.toml", "[vars.resources.fields.ref.fields.url]", 0, 36)
	if _, err := s.Rename("promptc.toml", off, "tags"); err == nil || !strings.Contains(err.Error(), `field "ref" already has a field "tags"`) {
		t.Errorf("renaming a nested field to a sibling's name: %v", err)
	}
	if _, err := s.Rename("promptc.toml", off, "name"); err != nil {
		t.Errorf("renaming a nested field to the name of a field of its variable: %v", err)
	}
	if _, err := s.Rename("fixtures/one.toml", offsetOf(t, s, "fixtures/one.toml", "path", 1, 0), "needs quotes"); err == nil || !strings.Contains(err.Error(), "not a valid field name") {
		t.Errorf("a field name that would need quotes in a fixture: %v", err)
	}
}

var _ fs.FS = nestProject

// In a fixture, the keys of [session] and [[turn]] are the variables of their scope, and those of a record's table
// the fields declared for that part of the value, at any depth.
func TestCompleteFixtureKeys(t *testing.T) {
	s := Load(nestProject)
	for _, tc := range []struct {
		name, needle string
		n            int
		want         []string
	}{
		{"[session]", "owner = {", 0, []string{"owner", "resources"}},
		{"[[session.resources]]", `name = "api"`, 0, []string{"name", "ref"}},
		{"[[session.resources.ref.tags]]", `label = "go"`, 0, []string{"label"}},
		{"[session.resources.ref]", `url = "https://w"`, 0, []string{"tags", "url"}},
		{"[[turn]]", "changed = [", 0, []string{"changed", "after", "assistant"}},
		{"[[turn.changed]] of the second turn", `path = "b.go"`, 0, []string{"path", "status"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			off := offsetOf(t, s, "fixtures/one.toml", tc.needle, tc.n, 1)
			var got []string
			for _, c := range s.Complete("fixtures/one.toml", off) {
				got = append(got, c.Label)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("completions = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestCompleteKeyedFixtureKeys: in a record of keyed records ([session.hosts.web]) the fields are offered, but
// for the one holding the record's name, which is its key in the table; in the table of records by name
// ([session.hosts]) nothing is, since the keys there are names.
func TestCompleteKeyedFixtureKeys(t *testing.T) {
	s := Load(fstest.MapFS{
		"promptc.toml": {Data: []byte(`name = "k"
tasks = ["t"]
[runbook]
order = ["a"]
[vars.hosts]
scope = "session"
type = "records"
key = "name"
[vars.hosts.fields.name]
type = "string"
[vars.hosts.fields.addr]
type = "string"
`)},
		"blocks/a.toml":     {Data: []byte("[[block]]\nid = \"a\"\nbody = \"{{range .hosts}}{{.name}}{{.addr}}{{end}}\"\n")},
		"fixtures/one.toml": {Data: []byte("[session.hosts.web]\naddr = \"w\"\n[session.hosts]\nweb2 = {addr = \"v\"}\n")},
	})
	for _, tc := range []struct {
		name, needle string
		want         []string
	}{
		{"[session.hosts.web]", `addr = "w"`, []string{"addr"}},
		{"[session.hosts]", `web2 = {`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			off := offsetOf(t, s, "fixtures/one.toml", tc.needle, 0, 1)
			var got []string
			for _, c := range s.Complete("fixtures/one.toml", off) {
				got = append(got, c.Label)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("completions = %q, want %q", got, tc.want)
			}
		})
	}
}
