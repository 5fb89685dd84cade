package analysis

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/source"
)

// tracker loads the reference project with the given documents overlaid.
func tracker(t testing.TB, over map[string]string) *Snapshot {
	t.Helper()
	return LoadDir(filepath.Join("..", "examples", "tracker"), over)
}

// offsetOf returns the byte offset of the n-th (from 0) occurrence of needle in file name of s, plus delta.
func offsetOf(t testing.TB, s *Snapshot, name, needle string, n, delta int) int {
	t.Helper()
	f := s.File(name)
	if f == nil {
		t.Fatalf("no file %s", name)
	}
	off := -1
	for i, from := 0, 0; i <= n; i++ {
		k := strings.Index(f.Text[from:], needle)
		if k < 0 {
			t.Fatalf("%s: %q occurs fewer than %d times", name, needle, n+1)
		}
		off, from = from+k, from+k+1
	}
	return off + delta
}

func rangeStrings(rs []source.Range) []string {
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s:%d:%d-%d", r.Filename, r.Start.Line, r.Start.Column, r.End.Column))
	}
	return out
}

func TestTrackerLoadsClean(t *testing.T) {
	s := tracker(t, nil)
	if d := s.Diagnostics(); len(d) > 0 {
		t.Fatalf("tracker has diagnostics: %v", d)
	}
	if d := s.Lint(); slices.ContainsFunc(d, func(d source.Diagnostic) bool { return d.Severity == source.SeverityError }) {
		t.Fatalf("tracker has lint errors: %v", d)
	}
}

// Every occurrence's range holds exactly the name as written: what a rename replaces.
func TestOccurrenceRangesHoldTheName(t *testing.T) {
	s := tracker(t, nil)
	n := 0
	for sym, occ := range s.index().bySym {
		for _, o := range occ {
			if o.Range.End.Byte == o.Range.Start.Byte {
				continue // a file's definition: the file itself
			}
			f := s.File(o.Range.Filename)
			if got := f.Text[o.Range.Start.Byte:o.Range.End.Byte]; got != shortName(sym) {
				t.Errorf("%s %q at %s holds %q", sym.Kind, sym.Name, o.Range, got)
			}
			if p := f.Pos(o.Range.Start.Byte); p != o.Range.Start {
				t.Errorf("%s %q: start %+v, but the file says %+v", sym.Kind, sym.Name, o.Range.Start, p)
			}
			n++
		}
	}
	if n < 100 {
		t.Errorf("only %d occurrences indexed in the reference project", n)
	}
}

func TestDefinition(t *testing.T) {
	s := tracker(t, nil)
	for _, tc := range []struct {
		name, file, needle string
		delta              int
		want               string
	}{
		{"block id in runbook.order", "promptc.toml", `"identity"`, 2, "blocks/30-session.toml:4:10-18"},
		{"block id in turn.order", "promptc.toml", `"continuity"`, 1, "blocks/40-turn.toml:107:13-23"},
		{"replaces", "blocks/10-commands.toml", `replaces = "commands"`, 13, "blocks/10-commands.toml:4:13-21"},
		{"ref in a template", "templates/commands.md", `ref "cli-output"`, 6, "blocks/00-core.toml:45:10-20"},
		{"const in a TOML body", "blocks/00-core.toml", `const "command_boundary"`, 8, "blocks/consts.toml:5:1-17"},
		{"lookup table", "blocks/40-turn.toml", `lookup "source_names"`, 9, "blocks/consts.toml:28:8-20"},
		{"variable in a body", "blocks/30-session.toml", `.agent_name`, 1, "promptc.toml:59:7-17"},
		{"variable in when", "blocks/30-session.toml", `when  = "repositories"`, 12, "promptc.toml:92:7-19"},
		{"variable in a fixture", "fixtures/basic.toml", "agent_name", 0, "promptc.toml:59:7-17"},
		{"record field in a range", "blocks/30-session.toml", `({{.url}})`, 4, "promptc.toml:102:27-30"},
		{"template file", "blocks/10-commands.toml", `"commands.md"`, 1, "templates/commands.md:1:1-1"},
		{"fixture extends", "fixtures/basic.toml", `"northwind"`, 1, "fixtures/northwind.toml:1:1-1"},
		{"task in a gate", "blocks/10-commands.toml", `tasks    = ["quick_create"]`, 13, "promptc.toml:8:28-40"},
		{"a definition is its own", "blocks/consts.toml", "command_boundary", 3, "blocks/consts.toml:5:1-17"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := rangeStrings(s.Definition(tc.file, offsetOf(t, s, tc.file, tc.needle, 0, tc.delta)))
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("definition = %v, want %s", got, tc.want)
			}
		})
	}
	if got := s.Definition("blocks/00-core.toml", 0); got != nil {
		t.Errorf("definition at a comment = %v, want none", got)
	}
	if got := s.Definition("no/such/file.toml", 10); got != nil {
		t.Errorf("definition in an unknown file = %v", got)
	}
}

func TestReferences(t *testing.T) {
	s := tracker(t, nil)
	off := offsetOf(t, s, "blocks/consts.toml", "command_boundary", 0, 0)
	got := rangeStrings(s.References("blocks/consts.toml", off, false))
	want := []string{"blocks/00-core.toml:19:12-28", "blocks/10-commands.toml:15:55-71", "templates/commands.md:1:107-123"}
	if !slices.Equal(got, want) {
		t.Errorf("references without the declaration = %v, want %v", got, want)
	}
	if got := s.References("blocks/consts.toml", off, true); len(got) != 4 {
		t.Errorf("references with the declaration = %v, want 4", rangeStrings(got))
	}
	// A block's references: the order list, its definition, refs in bodies and templates.
	off = offsetOf(t, s, "promptc.toml", `"cli-output"`, 0, 1)
	got = rangeStrings(s.References("promptc.toml", off, true))
	for _, w := range []string{"promptc.toml:18:4-14", "blocks/00-core.toml:45:10-20", "templates/commands.md:3:96-106"} {
		if !slices.Contains(got, w) {
			t.Errorf("references of cli-output miss %s: %v", w, got)
		}
	}
}

func TestRename(t *testing.T) {
	s := tracker(t, nil)
	at := offsetOf(t, s, "promptc.toml", "[vars.agent_name]", 0, 7)
	edits, err := s.Rename("promptc.toml", at, "agent_display_name")
	if err != nil {
		t.Fatal(err)
	}
	over := map[string]string{}
	for name, es := range edits {
		text := s.File(name).Text
		slices.SortFunc(es, func(a, b Edit) int { return b.Range.Start.Byte - a.Range.Start.Byte })
		for _, e := range es {
			text = text[:e.Range.Start.Byte] + e.NewText + text[e.Range.End.Byte:]
		}
		over[name] = text
	}
	renamed := tracker(t, over)
	if d := renamed.Diagnostics(); len(d) > 0 {
		t.Fatalf("after the rename: %v", d)
	}
	if renamed.Project.Vars["agent_display_name"] == nil || renamed.Project.Vars["agent_name"] != nil {
		t.Errorf("variable not renamed")
	}
	if !slices.ContainsFunc(slices.Collect(mapsKeys(edits)), func(n string) bool { return strings.HasPrefix(n, "fixtures/") }) {
		t.Errorf("the rename did not edit the fixtures: %v", slices.Collect(mapsKeys(edits)))
	}

	// A records variable is declared by its table and its fields' tables: renaming it renames them all, and
	// renaming a field renames its table, its uses in ranges and the keys of the records the fixtures give
	// ([[session.repositories]] in northwind.toml, an inline array of tables in oversized.toml).
	for _, tc := range []struct{ needle, newName string }{
		{"[vars.repositories]", "repos"},
		{"[vars.repositories.fields.url]", "link"},
	} {
		off := offsetOf(t, s, "promptc.toml", tc.needle, 0, len(tc.needle)-2)
		edits, err := s.Rename("promptc.toml", off, tc.newName)
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]string{}
		for name, es := range edits {
			text := s.File(name).Text
			slices.SortFunc(es, func(a, b Edit) int { return b.Range.Start.Byte - a.Range.Start.Byte })
			for _, e := range es {
				text = text[:e.Range.Start.Byte] + e.NewText + text[e.Range.End.Byte:]
			}
			files[name] = text
		}
		for _, f := range []string{"fixtures/northwind.toml", "fixtures/oversized.toml"} {
			if _, ok := files[f]; !ok {
				t.Errorf("renaming %s did not edit %s", tc.needle, f)
			}
		}
		renamed := tracker(t, files)
		if d := renamed.Diagnostics(); len(d) > 0 {
			t.Errorf("after renaming %s to %s: %v", tc.needle, tc.newName, d)
		}
	}

	if _, err := s.Rename("promptc.toml", offsetOf(t, s, "promptc.toml", "[vars.repositories.fields.url]", 0, 27), "name"); err == nil || !strings.Contains(err.Error(), `already has a field "name"`) {
		t.Errorf("renaming a field to a taken name: %v", err)
	}

	for _, tc := range []struct {
		name, file, needle string
		delta              int
		newName, want      string
	}{
		{"taken block id", "promptc.toml", `"safety"`, 1, "header", `block id "header" is taken`},
		{"invalid block id", "promptc.toml", `"safety"`, 1, "Safety Rules", `"Safety Rules" is not a valid block id`},
		{"taken constant", "blocks/consts.toml", "command_boundary", 0, "record_of_truth", `constant "record_of_truth" is taken`},
		{"constant name with a dot", "blocks/consts.toml", "command_boundary", 0, "a.b", "not a valid constant name"},
		{"reserved variable", "promptc.toml", "[vars.agent_name]", 7, "task", "reserved"},
		{"template", "blocks/10-commands.toml", `"commands.md"`, 1, "x.md", "rename the file instead"},
		{"task", "promptc.toml", `"chat"`, 1, "talk", "rename it by hand"},
		{"nothing there", "promptc.toml", "name  =", 0, "x", "nothing to rename here"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Rename(tc.file, offsetOf(t, s, tc.file, tc.needle, 0, tc.delta), tc.newName)
			var re *RenameError
			if !errors.As(err, &re) || !strings.Contains(re.Msg, tc.want) {
				t.Errorf("err = %v, want a RenameError with %q", err, tc.want)
			}
		})
	}

	// A body that does not compile hides its uses: a rename would miss them, so it is refused.
	broken := tracker(t, map[string]string{"templates/commands.md": "{{if}}\n"})
	_, err = broken.Rename("blocks/consts.toml", offsetOf(t, broken, "blocks/consts.toml", "command_boundary", 0, 0), "x")
	if err == nil || !strings.Contains(err.Error(), "does not compile") {
		t.Errorf("rename with a broken body: %v", err)
	}
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for _, k := range sortedKeys(m) {
			if !yield(k) {
				return
			}
		}
	}
}

func TestHover(t *testing.T) {
	s := tracker(t, nil)
	for _, tc := range []struct {
		name, file, needle string
		delta              int
		want               []string
	}{
		{"session block", "promptc.toml", `"identity"`, 2, []string{"scope: **session**", `reads session variable "agent_name"`, `in task "issue", fixture "basic"`, "## Identity", "You are Ada"}},
		{"task block", "promptc.toml", `"commands"`, 2, []string{"scope: **task**", "replaced by \"commands-quick\""}},
		{"turn block", "promptc.toml", `"continuity"`, 2, []string{"scope: **turn**", "it is in turn.order"}},
		{"constant", "blocks/00-core.toml", `const "command_boundary"`, 8, []string{`**constant "command_boundary"**`, "To act on Tracker", "used 3 times", "templates/commands.md:1:107"}},
		{"variable", "blocks/30-session.toml", `.agent_name`, 2, []string{`**variable "agent_name"**`, "scope session", "type string", "trust untrusted", "required", "max_runes 64", "trim"}},
		{"field", "blocks/30-session.toml", `({{.url}})`, 5, []string{`field "url" of records variable "repositories"`, "trust trusted"}},
		{"task", "promptc.toml", `"autopilot"]`, 2, []string{`**task "autopilot"**`, `rendered by fixtures ["basic", "squad-leader", "untrusted-name"]`, `"autopilot-workflow"`}},
		{"function", "templates/commands.md", `ref "cli-output"`, 1, []string{"```\nref \"id\"\n```", "heading line"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, ok := s.Hover(tc.file, offsetOf(t, s, tc.file, tc.needle, 0, tc.delta))
			if !ok {
				t.Fatal("no hover")
			}
			for _, w := range tc.want {
				if !strings.Contains(h.Text, w) {
					t.Errorf("hover lacks %q:\n%s", w, h.Text)
				}
			}
		})
	}
	if _, ok := s.Hover("blocks/00-core.toml", 0); ok {
		t.Error("hover on a comment")
	}
}

// TestHoverMissingTemplate checks that the hover of a template that is not there names it as the loader does: a
// name that could be misread (here a no-break space, which looks like a space) is quoted.
func TestHoverMissingTemplate(t *testing.T) {
	for name, want := range map[string]string{
		"nosuch.md":       "no file templates/nosuch.md\n",
		"no\u00a0such.md": `no file "templates/no\u00a0such.md"` + "\n",
	} {
		s := tracker(t, map[string]string{"blocks/zz.toml": "[[block]]\nid = \"zz\"\ntasks = [\"*\"]\ntemplate = \"" + name + "\"\n"})
		h, ok := s.Hover("blocks/zz.toml", offsetOf(t, s, "blocks/zz.toml", "template = ", 0, len("template = ")+2))
		if !ok || h.Text != want {
			t.Errorf("hover of template %q: %v %q, want %q", name, ok, h.Text, want)
		}
	}
}

func TestComplete(t *testing.T) {
	s := tracker(t, nil)
	labels := func(cs []Completion) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Label)
		}
		return out
	}
	for _, tc := range []struct {
		name, file, text string
		kind             CompletionKind
		want, not        []string
	}{
		{"const argument", "templates/commands.md", `{{const "com`, CompleteConst, []string{"command_boundary", "comment_reply_rule"}, []string{"source_names"}},
		{"lookup argument", "templates/commands.md", `{{lookup "`, CompleteLookup, []string{"source_names"}, []string{"command_boundary"}},
		{"ref argument", "templates/commands.md", `{{ref "`, CompleteBlock, []string{"cli-output", "safety"}, nil},
		{"variable", "templates/commands.md", `{{.ag`, CompleteVar, []string{"agent_name", "task"}, nil},
		{"function", "templates/commands.md", `{{bul`, CompleteFunction, []string{"bullets", "const", "ref"}, nil},
		{"order entry", "promptc.toml", "[runbook]\norder = [\n  \"", CompleteBlock, []string{"header", "identity"}, nil},
		{"replaces", "blocks/x.toml", "[[block]]\nreplaces = \"", CompleteBlock, []string{"commands"}, nil},
		{"tasks", "blocks/x.toml", "[[block]]\ntasks = [\"", CompleteTask, []string{"*", "issue", "autopilot"}, nil},
		{"when", "blocks/x.toml", "[[block]]\nwhen = \"", CompleteVar, []string{"repositories", "!repositories"}, nil},
		{"template", "blocks/x.toml", "[[block]]\ntemplate = \"", CompleteTemplate, []string{"commands.md"}, nil},
		{"extends", "fixtures/x.toml", "extends = \"", CompleteFixture, []string{"northwind"}, nil},
		{"block keys", "blocks/x.toml", "[[block]]\nid = \"x\"\nti", CompleteKey, []string{"title", "template", "tasks", "when", "replaces"}, []string{"scope"}},
		{"variable keys", "promptc.toml", "name = \"x\"\n[vars.x]\n", CompleteKey, []string{"scope", "type", "trust", "max_runes"}, []string{"title"}},
		{"field keys", "promptc.toml", "[vars.x.fields.y]\n", CompleteKey, []string{"type", "trust"}, []string{"scope"}},
		{"manifest keys", "promptc.toml", "", CompleteKey, []string{"name", "tasks", "runbook", "vars"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			over := map[string]string{tc.file: tc.text}
			if tc.file == "promptc.toml" {
				over = nil
			}
			snap := s
			if over != nil {
				snap = tracker(t, over)
			} else {
				// Complete against an edited manifest without breaking the project: a file of its own name.
				snap = tracker(t, map[string]string{"blocks/zz.toml": ""})
				snap.Files["promptc.toml"] = source.NewFile("promptc.toml", tc.text)
			}
			cs := snap.Complete(tc.file, len(tc.text))
			got := labels(cs)
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("completions lack %q: %v", w, got)
				}
			}
			for _, n := range tc.not {
				if slices.Contains(got, n) {
					t.Errorf("completions hold %q: %v", n, got)
				}
			}
			for _, c := range cs {
				if c.Kind != tc.kind && !(tc.kind == CompleteVar && c.Kind == CompleteField) {
					t.Errorf("%q has kind %d, want %d", c.Label, c.Kind, tc.kind)
				}
				if c.Range.End.Byte != len(tc.text) {
					t.Errorf("%q replaces %v, which does not end at the cursor", c.Label, c.Range)
				}
			}
		})
	}
}

func TestSymbols(t *testing.T) {
	s := tracker(t, nil)
	var got []string
	for _, d := range s.Symbols("blocks/00-core.toml") {
		got = append(got, d.Kind.String()+" "+d.Name)
		if d.Selection.Start.Byte < d.Range.Start.Byte || d.Selection.End.Byte > d.Range.End.Byte {
			t.Errorf("%s: selection %v outside range %v", d.Name, d.Selection, d.Range)
		}
	}
	if len(got) < 3 || got[0] != "block header" {
		t.Errorf("symbols of 00-core.toml = %v", got)
	}
	vars := s.Symbols("promptc.toml")
	i := slices.IndexFunc(vars, func(d DocSymbol) bool { return d.Name == "repositories" })
	if i < 0 || len(vars[i].Children) != 5 {
		t.Errorf("promptc.toml symbols: repositories with its fields missing: %+v", vars)
	}
}

// lintProject has a session block before a global one (scope-inversion) and a constant's text pasted into a body
// (pasted-constant).
var lintProject = fstest.MapFS{
	"promptc.toml": {Data: []byte(`name  = "lint"
tasks = ["chat"]

[runbook]
order = [
  "who",    # session
  "rules",
  "more",
]

[vars.agent]
scope = "session"
type  = "string"
`)},
	"blocks/a.toml": {Data: []byte(`[const]
boundary = "Run only the commands listed in this runbook and nothing else."

[[block]]
id = "who"
body = "You are {{.agent}}."

[[block]]
id = "rules"
body = "Run only the commands listed in this runbook and nothing else."

[[block]]
id = "more"
body = "{{const \"boundary\"}} Más reglas."
`)},
	"fixtures/f.toml": {Data: []byte("[session]\nagent = \"Ada\"\n")},
}

func TestCodeActions(t *testing.T) {
	s := Load(lintProject)
	if d := s.Diagnostics(); len(d) > 0 {
		t.Fatal(d)
	}
	apply := func(a Action) fstest.MapFS {
		out := fstest.MapFS{}
		for k, v := range lintProject {
			out[k] = v
		}
		for name, es := range a.Edits {
			text := s.File(name).Text
			slices.SortFunc(es, func(a, b Edit) int { return b.Range.Start.Byte - a.Range.Start.Byte })
			for _, e := range es {
				text = text[:e.Range.Start.Byte] + e.NewText + text[e.Range.End.Byte:]
			}
			out[name] = &fstest.MapFile{Data: []byte(text)}
		}
		return out
	}
	lints := func(s *Snapshot) []string {
		var out []string
		for _, f := range s.Findings() {
			out = append(out, string(f.Lint))
		}
		return out
	}
	if got := lints(s); !slices.Contains(got, "scope-inversion") || !slices.Contains(got, "pasted-constant") {
		t.Fatalf("findings = %v, want scope-inversion and pasted-constant", got)
	}
	actions := s.CodeActions("promptc.toml", 0, len(s.File("promptc.toml").Text))
	if len(actions) != 1 || !strings.Contains(actions[0].Title, `Move "who"`) {
		t.Fatalf("actions in promptc.toml = %+v", actions)
	}
	fixed := Load(apply(actions[0]))
	if got := fixed.Project.Runbook.Order; !slices.Equal(got, []string{"rules", "more", "who"}) {
		t.Errorf("order after the move = %v", got)
	}
	if !strings.Contains(fixed.File("promptc.toml").Text, `"rules",    # session`) {
		t.Errorf("the move did not keep the list's comments in place:\n%s", fixed.File("promptc.toml").Text)
	}
	if slices.Contains(lints(fixed), "scope-inversion") {
		t.Errorf("scope-inversion after the move: %v", fixed.Findings())
	}

	actions = s.CodeActions("blocks/a.toml", 0, len(s.File("blocks/a.toml").Text))
	i := slices.IndexFunc(actions, func(a Action) bool { return strings.Contains(a.Title, "Replace the pasted text") })
	if i < 0 {
		t.Fatalf("no paste fix in %+v", actions)
	}
	fixed = Load(apply(actions[i]))
	if got := fixed.Project.ByID["rules"].Body; got != `{{const "boundary"}}` {
		t.Errorf("body after the fix = %q", got)
	}
	if slices.Contains(lints(fixed), "pasted-constant") {
		t.Errorf("pasted-constant after the fix")
	}

	// A misspelt name: the fix is the name the diagnostic suggests.
	over := map[string]string{"blocks/a.toml": strings.Replace(s.File("blocks/a.toml").Text, `const \"boundary\"`, `const \"boundry\"`, 1)}
	typo := Load(Overlay(lintProject, over))
	actions = typo.CodeActions("blocks/a.toml", 0, len(over["blocks/a.toml"]))
	if len(actions) != 1 || actions[0].Title != `Change "boundry" to "boundary"` {
		t.Fatalf("actions for a typo = %+v", actions)
	}
}

func TestOverlay(t *testing.T) {
	base := fstest.MapFS{}
	for k, v := range lintProject {
		base[k] = v
	}
	// A file that exists only in the editor is loaded; a file deleted on disk but open is read from its buffer.
	over := map[string]string{
		"blocks/new/b.toml": "[[block]]\nid = \"extra\"\nbody = \"x\"\n",
		"blocks/a.toml":     string(lintProject["blocks/a.toml"].Data),
	}
	delete(base, "blocks/a.toml")
	s := Load(Overlay(base, over))
	if s.Project.ByID["extra"] == nil || s.Project.ByID["who"] == nil {
		t.Errorf("blocks = %v, want the unsaved and the deleted file's blocks", sortedKeys(s.Project.ByID))
	}
	if d := s.Diagnostics(); len(d) != 1 || !strings.Contains(d[0].Summary, `"extra"`) {
		t.Errorf("diagnostics = %v, want only the unplaced block", d)
	}
	// A project that does not load answers with what it has, never panics.
	bad := Load(Overlay(fstest.MapFS{}, map[string]string{"promptc.toml": "name = [", "blocks/x.toml": "[[block]]\nid = 3\n"}))
	if len(bad.Diagnostics()) == 0 {
		t.Error("no diagnostics for a broken manifest")
	}
	bad.Hover("promptc.toml", 3)
	bad.Complete("promptc.toml", 8)
	bad.Symbols("blocks/x.toml")
	bad.CodeActions("promptc.toml", 0, 8)
	if bad.Lint() != nil {
		t.Error("lint of a project that does not load")
	}
}

// title, dropped and [[lint.allow]] block name what they name, for definition and rename alike.
func TestOtherUses(t *testing.T) {
	fsys := fstest.MapFS{
		"promptc.toml":  {Data: []byte("name = \"x\"\ntasks = [\"chat\"]\n[runbook]\norder = [\"a\", \"b\"]\n[vars.items]\nscope = \"session\"\ntype = \"list\"\nmax_items = 2\n[[lint.allow]]\nlint = \"volatile-text\"\nblock = \"b\"\nreason = \"r\"\n")},
		"blocks/x.toml": {Data: []byte("[[block]]\nid = \"a\"\ntitle = \"A\"\nbody = \"x\"\n\n[[block]]\nid = \"b\"\nbody = \"See {{title \\\"a\\\"}}; {{dropped \\\"items\\\"}} {{bullets .items}}\"\n")},
	}
	s := Load(fsys)
	if d := s.Diagnostics(); len(d) > 0 {
		t.Fatal(d)
	}
	text := s.File("blocks/x.toml").Text
	for _, tc := range []struct{ needle, want string }{
		{`title \"a`, "blocks/x.toml:2:7-8"},
		{`dropped \"items`, "promptc.toml:5:7-12"},
	} {
		off := strings.Index(text, tc.needle) + len(tc.needle) - 1
		if got := rangeStrings(s.Definition("blocks/x.toml", off)); len(got) != 1 || got[0] != tc.want {
			t.Errorf("definition at %s = %v, want %s", tc.needle, got, tc.want)
		}
	}
	edits, err := s.Rename("blocks/x.toml", strings.Index(text, `id = "b"`)+6, "c")
	if err != nil {
		t.Fatal(err)
	}
	if got := rangeStrings(func() []source.Range {
		var rs []source.Range
		for _, e := range edits["promptc.toml"] {
			rs = append(rs, e.Range)
		}
		return rs
	}()); !slices.Equal(got, []string{"promptc.toml:4:16-17", "promptc.toml:11:10-11"}) {
		t.Errorf("rename of b in promptc.toml edits %v, want the order entry and the [[lint.allow]] block", got)
	}
}

// TestWhenConditionSymbols: every variable a compound when condition names is an occurrence of that variable, at
// its name: go to definition from it, find its references, and rename it in place, leaving the rest of the
// condition as written.
func TestWhenConditionSymbols(t *testing.T) {
	base := tracker(t, nil)
	file := "blocks/30-session.toml"
	text := strings.Replace(base.File(file).Text, `when  = "repositories"`, `when  = "agent_name && !(repositories || !agent_name)"`, 1)
	s := tracker(t, map[string]string{file: text})
	if d := s.Diagnostics(); len(d) > 0 {
		t.Fatalf("diagnostics: %v", d)
	}
	at := offsetOf(t, s, file, `repositories || `, 0, 1)
	if got := rangeStrings(s.Definition(file, at)); len(got) != 1 || got[0] != "promptc.toml:92:7-19" {
		t.Errorf("definition of repositories in the condition = %v", got)
	}
	refs := rangeStrings(s.References("promptc.toml", offsetOf(t, s, "promptc.toml", "[vars.agent_name]", 0, 7), false))
	for _, want := range []string{file + ":19:10-20", file + ":19:43-53"} {
		if !slices.Contains(refs, want) {
			t.Errorf("references of agent_name miss %s: %v", want, refs)
		}
	}
	edits, err := s.Rename(file, offsetOf(t, s, file, `agent_name && `, 0, 2), "agent")
	if err != nil {
		t.Fatal(err)
	}
	es := edits[file]
	slices.SortFunc(es, func(a, b Edit) int { return b.Range.Start.Byte - a.Range.Start.Byte })
	out := s.File(file).Text
	for _, e := range es {
		out = out[:e.Range.Start.Byte] + e.NewText + out[e.Range.End.Byte:]
	}
	if !strings.Contains(out, `when  = "agent && !(repositories || !agent)"`) {
		t.Errorf("after the rename, the condition reads:\n%s", out[strings.Index(out, "when  = "):][:60])
	}
}

// TestCompleteInCondition: inside a when condition, a completion replaces the variable being typed (with its "!"),
// not the condition before it.
func TestCompleteInCondition(t *testing.T) {
	for _, tc := range []struct{ typed, part, want string }{
		{`agent_name && !re`, "!re", "!repositories"},
		{`(agent_name || re`, "re", "repositories"},
		{`!`, "!", "!repositories"},
	} {
		text := "[[block]]\nwhen = \"" + tc.typed
		s := tracker(t, map[string]string{"blocks/x.toml": text})
		var found bool
		for _, c := range s.Complete("blocks/x.toml", len(text)) {
			if got := text[c.Range.Start.Byte:c.Range.End.Byte]; got != tc.part {
				t.Errorf("%s: %q replaces %q, want %q", tc.typed, c.Label, got, tc.part)
				break
			}
			found = found || c.Label == tc.want
		}
		if !found {
			t.Errorf("%s: no completion %q", tc.typed, tc.want)
		}
	}
}
