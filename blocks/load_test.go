package blocks_test

import (
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/internal/testenv"

	"golang.org/x/tools/txtar"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/values"
)

// archive and with build in-memory projects from txtar-like texts (internal/testenv).
var archive, with = testenv.Archive, testenv.With

// base is testenv.Base, a valid project the cases below break in one place each.
const base = testenv.Base

func TestBaseProjectIsValid(t *testing.T) {
	p, diags := values.Load(archive(base))
	if len(diags) > 0 {
		t.Fatalf("base project has diagnostics:\n%s", diags)
	}
	if p.Name != "acme" || !reflect.DeepEqual(p.Tasks, []string{"issue", "chat"}) {
		t.Errorf("name %q, tasks %q", p.Name, p.Tasks)
	}
	if p.Runbook.Separator != "\n\n" || p.Turn.Separator != "\n\n" {
		t.Errorf("default separators: runbook %q, turn %q; want %q", p.Runbook.Separator, p.Turn.Separator, "\n\n")
	}
	intro, ask := p.ByID["intro"], p.ByID["ask"]
	if intro == nil || ask == nil {
		t.Fatalf("blocks: %v", p.ByID)
	}
	if intro.Section != blocks.Runbook || ask.Section != blocks.Turn {
		t.Errorf("sections: intro %q, ask %q", intro.Section, ask.Section)
	}
	if intro.Level != 2 || !reflect.DeepEqual(intro.Tasks, []string{"*"}) {
		t.Errorf("defaults of intro: level %d, tasks %q", intro.Level, intro.Tasks)
	}
	if v := p.Vars["agent"]; v == nil || v.Trust != blocks.Untrusted || v.Required {
		t.Errorf("defaults of agent: %+v", v)
	}
	if v := p.Vars["leader"]; v == nil || v.Trust != blocks.Trusted {
		t.Errorf("a bool variable is trusted (escaping does not apply): %+v", v)
	}
}

// TestLoadDiagnostics checks one loader rule of docs/reference.md#promptctoml per case: every diagnostic the project produces, as the
// exact text `promptc` would print.
func TestLoadDiagnostics(t *testing.T) {
	tests := []struct {
		name  string
		files fstest.MapFS
		want  string
	}{
		{
			name:  "no manifest",
			files: archive("-- blocks/a.toml --\n"),
			want:  "promptc.toml:?:?: no promptc.toml: this is not a promptc project (create promptc.toml or pass -C DIR)\n",
		},
		{
			name: "TOML syntax error with position",
			files: with(base, `
-- blocks/more.toml --
[const]
a = "x"
b = "unterminated
`),
			want: "blocks/more.toml:3:18: TOML syntax error: strings cannot contain newlines\n",
		},
		{
			name: "manifest needs name and tasks",
			files: with(base, `
-- promptc.toml --
[runbook]
order = ["intro"]

[turn]
order = ["ask"]
`),
			want: "promptc.toml:1:1: promptc.toml needs a project name: add name = \"…\"\n" +
				"promptc.toml:1:1: promptc.toml needs its task kinds: add tasks = [\"…\"]\n",
		},
		{
			name: "empty task list and empty name",
			files: with(base, `
-- promptc.toml --
name = " "
tasks = []

[runbook]
order = ["intro"]

[turn]
order = ["ask"]
`),
			want: "promptc.toml:1:1: name must not be empty\n" +
				"promptc.toml:2:1: tasks must list at least one task kind\n",
		},
		{
			name: "unknown keys in blocks files and fixtures",
			files: with(base, `
-- blocks/base.toml --
[consts]
rule = "x"

[[block]]
id = "intro"
titel = "Intro"
body = "Hello."

[[block]]
id = "ask"
body = "Go."
  tasks_except = ["chat"]
-- fixtures/basic.toml --
taks = ["issue"]

[sesion]
agent = "Ada"
`),
			want: "blocks/base.toml:1:1: unknown key \"consts\" in blocks/base.toml (did you mean \"const\"?)\n" +
				"blocks/base.toml:6:1: unknown key \"titel\" in block \"intro\" (did you mean \"title\"?)\n" +
				"blocks/base.toml:12:3: unknown key \"tasks_except\" in block \"ask\" (known keys: id, title, level, tasks, except, when, body, template, raw, replaces, reason, priority)\n" +
				"fixtures/basic.toml:1:1: unknown key \"taks\" in fixtures/basic.toml (did you mean \"tasks\"?)\n" +
				"fixtures/basic.toml:3:1: unknown key \"sesion\" in fixtures/basic.toml (did you mean \"session\"?)\n",
		},
		{
			// A subtable of the n-th [[block]] is reported at its own header, not at the first block's.
			name: "unknown subtables of blocks",
			files: with(base, `
-- blocks/base.toml --
[[block]]
id = "intro"
body = "Hello."
[block.meta]
x = 1

[[block]]
id = "ask"
body = "Go."
[block.meta]
y = 2
`),
			want: "blocks/base.toml:4:1: unknown key \"meta\" in block \"intro\" (known keys: id, title, level, tasks, except, when, body, template, raw, replaces, reason, priority)\n" +
				"blocks/base.toml:10:1: unknown key \"meta\" in block \"ask\" (known keys: id, title, level, tasks, except, when, body, template, raw, replaces, reason, priority)\n",
		},
		{
			name: "overflow notice needs its notice and max_runes",
			files: with(base, `
-- promptc.toml --
name = "acme"
tasks = ["issue", "chat"]

[runbook]
order = ["intro"]

[turn]
order = ["ask"]

[vars.comment]
scope = "turn"
type = "text"
overflow = "notice"

[vars.other]
scope = "turn"
type = "text"
max_runes = 5
overflow = "truncate"
`),
			want: "promptc.toml:13:1: overflow = \"notice\" needs max_runes: the notice replaces values longer than max_runes\n" +
				"promptc.toml:13:1: overflow = \"notice\" needs the notice text: add notice = \"…\"\n" +
				"promptc.toml:19:1: overflow must be \"notice\" (replace a too long value by notice) or \"cut\", not \"truncate\"\n",
		},
		{
			name: "wrong types in the manifest",
			files: with(base, `
-- promptc.toml --
name = 1
tasks = ["issue", 2]

[runbook]
order = ["intro"]
separator = 2

[turn]
order = "ask"

[vars.agent]
scope = "session"
type = "string"
required = "yes"
max_runes = -1
`),
			// turn.order is not a list: its blocks are not also "not placed" (one problem, one diagnostic).
			want: "" +
				"promptc.toml:1:1: name must be a string, not an integer\n" +
				"promptc.toml:2:19: tasks[1] must be a string, not an integer\n" +
				"promptc.toml:6:1: separator must be a string, not an integer\n" +
				"promptc.toml:9:1: order must be a list of strings, not a string\n" +
				"promptc.toml:14:1: required must be true or false, or a list of the tasks that need the value, not a string\n" +
				"promptc.toml:15:1: max_runes must be between 0 and 2147483648, not -1\n",
		},
		{
			// The value of vars.leader is on line 11; the manifest's first line has nothing to do with it.
			name: "variable that is not a table points at its key",
			files: with(base, `
-- promptc.toml --
name = "acme"
tasks = ["issue", "chat"]

[runbook]
order = ["intro"]

[turn]
order = ["ask"]

[vars]
leader = "bool"
`),
			want: "promptc.toml:11:1: vars.leader must be a table with scope and type, not a string\n",
		},
		{
			// One problem, one diagnostic: max_runes is a known key, misplaced on a bool variable.
			name: "limit of the wrong kind of variable",
			files: with(base, `
-- promptc.toml --
name = "acme"
tasks = ["issue", "chat"]

[runbook]
order = ["intro"]

[turn]
order = ["ask"]

[vars.issue_id]
scope = "turn"
type = "bool"
max_runes = 3
max_items = 2
`),
			want: "promptc.toml:13:1: max_runes applies only to string and text variables; \"issue_id\" is of type bool\n" +
				"promptc.toml:14:1: max_items applies only to list and records variables; \"issue_id\" is of type bool\n",
		},
		{
			name: "wrong types in a fixture",
			files: with(base, `
-- fixtures/basic.toml --
tasks = "issue"
session = 3
turn = 4
`),
			want: "fixtures/basic.toml:1:1: tasks must be a list of strings, not a string\n" +
				"fixtures/basic.toml:2:1: session must be a table, not an integer\n" +
				"fixtures/basic.toml:3:1: turn must be an array of tables ([[turn]]), not an integer\n",
		},
		{
			name: "task is a reserved variable name",
			files: with(base, `
-- promptc.toml --
name = "acme"
tasks = ["issue", "chat"]

[runbook]
order = ["intro"]

[turn]
order = ["ask"]

[vars.task]
scope = "session"
type = "string"
`),
			want: "promptc.toml:10:1: variable name \"task\" is reserved: templates read the task kind as .task; choose another name\n",
		},
		{
			name: "undeclared tasks in gates and fixtures",
			files: with(base, `
-- blocks/base.toml --
[[block]]
id = "intro"
tasks = ["issue", "isue"]
except = ["chta"]
body = "Hello."

[[block]]
id = "ask"
tasks = ["*", "review"]
body = "Go."
-- fixtures/basic.toml --
tasks = ["cht"]
`),
			want: "blocks/base.toml:3:19: tasks names undeclared task \"isue\" (did you mean \"issue\"?)\n" +
				"blocks/base.toml:4:11: except names undeclared task \"chta\" (did you mean \"chat\"?)\n" +
				"blocks/base.toml:9:15: tasks names undeclared task \"review\"\n" +
				"fixtures/basic.toml:1:10: tasks names undeclared task \"cht\" (did you mean \"chat\"?)\n",
		},
		{
			name: "empty gate never renders",
			files: with(base, `
-- blocks/base.toml --
[[block]]
id = "intro"
tasks = []
body = "Hello."

[[block]]
id = "ask"
body = "Go."
`),
			want: "blocks/base.toml:3:1: tasks is empty, so the block would never render: list task kinds, or \"*\" for all\n",
		},
		{
			name: "duplicate targets and markers",
			files: with(base, `
-- promptc.toml --
name = "acme"
tasks = ["issue", "chat"]

[runbook]
order = ["intro"]

[turn]
order = ["ask"]

[[target]]
name = "claude"
file = "CLAUDE.md"
begin = "<!-- m -->"
end = "<!-- m -->"

[[target]]
name = "claude"
file = ""
begin = "<!-- b -->"
`),
			want: "promptc.toml:14:1: end marker must differ from begin marker\n" +
				"promptc.toml:16:1: [[target]] needs end\n" +
				"promptc.toml:17:1: target \"claude\" is defined twice (also at promptc.toml:11:1)\n" +
				"promptc.toml:18:1: file must not be empty\n",
		},
		{
			name: "unplaced block",
			files: with(base, `
-- blocks/more.toml --
[[block]]
id = "forgotten"
body = "x"
`),
			want: "blocks/more.toml:2:1: block \"forgotten\" is not placed: add it to runbook.order or turn.order, or give it replaces\n",
		},
		{
			name: "block in both order lists, and twice in one",
			files: with(base, `
-- promptc.toml --
name = "acme"
tasks = ["issue", "chat"]

[runbook]
order = ["intro", "ask", "intro"]

[turn]
order = ["ask"]
`),
			want: "promptc.toml:5:26: block \"intro\" appears twice in runbook.order\n" +
				"promptc.toml:8:10: block \"ask\" is in both runbook.order and turn.order: place it in one\n",
		},
		{
			name: "order names unknown ids",
			files: with(base, `
-- promptc.toml --
name = "acme"
tasks = ["issue", "chat"]

[runbook]
order = [
  "intro",
  "intor",
  "nothing-like-it",
]

[turn]
order = ["ask", "aks"]
`),
			want: "promptc.toml:7:3: runbook.order names unknown block \"intor\" (did you mean \"intro\"?)\n" +
				"promptc.toml:8:3: runbook.order names unknown block \"nothing-like-it\"\n" +
				"promptc.toml:12:17: turn.order names unknown block \"aks\" (did you mean \"ask\"?)\n",
		},
		{
			name: "replaces without a reason, and a reason without replaces",
			files: with(base, `
-- blocks/more.toml --
[[block]]
id = "intro-chat"
replaces = "intro"
tasks = ["chat"]
body = "x"

[[block]]
id = "ask-chat"
replaces = "ask"
reason = "  "
tasks = ["chat"]
body = "x"

[[block]]
id = "why"
reason = "no replaces"
body = "x"
`),
			want: "blocks/more.toml:3:1: block \"intro-chat\" replaces \"intro\" without a reason: add reason = \"…\" saying why this task needs its own version\n" +
				"blocks/more.toml:9:1: block \"ask-chat\" replaces \"ask\" without a reason: add reason = \"…\" saying why this task needs its own version\n" +
				"blocks/more.toml:15:1: block \"why\" is not placed: add it to runbook.order or turn.order, or give it replaces\n" +
				"blocks/more.toml:16:1: reason is set but block \"why\" replaces nothing: remove reason, or add replaces = \"…\"\n",
		},
		{
			name: "fixture: unknown variable, wrong scope, wrong type",
			files: with(base, `
-- fixtures/basic.toml --
[session]
agnet = "Ada"
issue_id = "X-1"
leader = "yes"

[[turn]]
issue_id = 7
agent = "Bob"

[[turn]]
isue_id = "X-2"
`),
			want: "fixtures/basic.toml:2:1: unknown variable \"agnet\" in [session] (did you mean \"agent\"?)\n" +
				"fixtures/basic.toml:3:1: \"issue_id\" is a turn variable: set it in [[turn]], not in [session]\n" +
				"fixtures/basic.toml:4:1: variable \"leader\" is a bool, so its value must be true or false, not a string\n" +
				"fixtures/basic.toml:7:1: variable \"issue_id\" is a string, so its value must be a string, not an integer\n" +
				"fixtures/basic.toml:8:1: \"agent\" is a session variable: set it in [session], not in [[turn]]\n" +
				"fixtures/basic.toml:11:1: unknown variable \"isue_id\" in [[turn]] (did you mean \"issue_id\"?)\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := values.Load(tt.files)
			if got := diags.String(); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestLoadDiagnosticsArchives is TestLoadDiagnostics for the cases whose files are too long to read well inline:
// each testdata/load/*.txtar holds, after a comment naming the rule, the expected diagnostics (the file
// "diagnostics") and the files that replace or join those of base.
func TestLoadDiagnosticsArchives(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("testdata", "load", "*.txtar"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no archives in testdata/load: %v", err)
	}
	for _, name := range names {
		t.Run(strings.TrimSuffix(filepath.Base(name), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(name)
			if err != nil {
				t.Fatal(err)
			}
			files := archive(base)
			want, found := "", false
			for _, f := range a.Files {
				if f.Name == "diagnostics" {
					want, found = string(f.Data), true
					continue
				}
				files[f.Name] = &fstest.MapFile{Data: f.Data}
			}
			if !found {
				t.Fatalf("%s has no diagnostics file", name)
			}
			_, diags := values.Load(files)
			if got := diags.String(); got != want {
				t.Errorf("%s\ndiagnostics:\n%s\nwant:\n%s", a.Comment, got, want)
			}
		})
	}
}

// TestLoadInvalidUTF8 checks docs/reference.md#a-project: invalid UTF-8 in any source file is an error at the line and column (in runes)
// of the first bad byte, and nothing else is reported about that file.
func TestLoadInvalidUTF8(t *testing.T) {
	bad := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	tests := []struct {
		name  string
		files fstest.MapFS
		want  string
	}{
		{
			name:  "manifest",
			files: with(base, "-- promptc.toml --\n"),
			want:  "promptc.toml:2:11: invalid UTF-8: source files must be UTF-8 encoded\n",
		},
		{
			name:  "blocks file, column counted in runes",
			files: with(base),
			want:  "blocks/base.toml:3:14: invalid UTF-8: source files must be UTF-8 encoded\n",
		},
		{
			name:  "template",
			files: with(base),
			want:  "templates/intro.md:1:4: invalid UTF-8: source files must be UTF-8 encoded\n",
		},
		{
			name:  "fixture",
			files: with(base),
			want:  "fixtures/basic.toml:2:10: invalid UTF-8: source files must be UTF-8 encoded\n",
		},
	}
	tests[0].files["promptc.toml"] = bad("name = \"acme\"\ntasks = [\"\xff\"]\n")
	// "body = \"h" is 9 runes, "é" one more, "llo" three: the bad byte is rune 14 of line 3. The file's block is not
	// placed, so that nothing else can be said about it.
	tests[1].files["blocks/more.toml"] = bad("[[block]]\nid = \"more\"\nbody = \"héllo\xc3\x28\"\n")
	tests[1].want = strings.Replace(tests[1].want, "blocks/base.toml", "blocks/more.toml", 1)
	tests[2].files["templates/intro.md"] = bad("ab\u00e9\xe2\x82\n")
	tests[3].files["fixtures/basic.toml"] = bad("[session]\nagent = \"\xfe\"\n")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := values.Load(tt.files)
			if got := diags.String(); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestLoadNoCascade checks that a file that cannot be read is reported once, at the bad byte, and not again as the
// absence of what it defines: the blocks of a file with a syntax error are not "unknown" to the order lists, and a
// template that is not UTF-8 does not "not exist". Each follow-up would send the user looking for a second problem
// that is not there.
func TestLoadNoCascade(t *testing.T) {
	tests := []struct {
		name  string
		files fstest.MapFS
		want  string
	}{
		{
			name: "syntax error in a file of placed blocks",
			files: with(base, `
-- blocks/base.toml --
[[block]]
id = "intro"
body = "Hello.

[[block]]
id = "ask"
body = "Go."
`),
			want: "blocks/base.toml:3:15: TOML syntax error: strings cannot contain newlines\n",
		},
		{
			name:  "invalid UTF-8 in a file of placed blocks",
			files: with(base),
			want:  "blocks/base.toml:3:14: invalid UTF-8: source files must be UTF-8 encoded\n",
		},
		{
			name:  "invalid UTF-8 in a used template",
			files: with(base),
			want:  "templates/intro.md:1:4: invalid UTF-8: source files must be UTF-8 encoded\n",
		},
	}
	tests[1].files["blocks/base.toml"] = &fstest.MapFile{Data: []byte("[[block]]\nid = \"intro\"\nbody = \"héllo\xc3\x28\"\n\n[[block]]\nid = \"ask\"\nbody = \"Go.\"\n")}
	tests[2].files["templates/intro.md"] = &fstest.MapFile{Data: []byte("ab\u00e9\xe2\x82\n")}
	tests[2].files["blocks/base.toml"] = &fstest.MapFile{Data: []byte("[[block]]\nid = \"intro\"\ntemplate = \"intro.md\"\n\n[[block]]\nid = \"ask\"\nbody = \"Go.\"\n")}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := values.Load(tt.files)
			if got := diags.String(); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestLoadNormalizesSources checks docs/reference.md#a-project: a leading BOM is removed and CRLF and lone CR become LF in every source
// file, before TOML parsing, so block bodies, templates and fixture values hold LF only.
func TestLoadNormalizesSources(t *testing.T) {
	const bom = "\uFEFF"
	crlf := func(s string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(bom + strings.ReplaceAll(s, "\n", "\r\n"))}
	}
	fsys := fstest.MapFS{
		"promptc.toml": crlf("name = \"acme\"\ntasks = [\"issue\"]\n[runbook]\norder = [\"a\", \"b\"]\nseparator = \"\"\"\n--\n\"\"\"\n" +
			"[vars.note]\nscope = \"session\"\ntype = \"text\"\n"),
		"blocks/a.toml": crlf("[[block]]\nid = \"a\"\nbody = \"\"\"\nline one\nline two\n\"\"\"\n\n[[block]]\nid = \"b\"\ntemplate = \"b.md\"\n"),
		// Lone CRs, and a BOM that is not leading: only the leading one goes.
		"templates/b.md":      {Data: []byte(bom + "one\rtwo\r\n\rthree" + bom + "\n")},
		"fixtures/basic.toml": crlf("[session]\nnote = \"\"\"\nfirst\nsecond\"\"\"\n"),
	}
	p, diags := values.Load(fsys)
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	if got, want := p.ByID["a"].Body, "line one\nline two\n"; got != want {
		t.Errorf("body of a = %q, want %q", got, want)
	}
	if got, want := p.ByID["b"].Body, "one\ntwo\n\nthree"+bom+"\n"; got != want {
		t.Errorf("body of b = %q, want %q", got, want)
	}
	if got, want := p.Templates["b.md"], "one\ntwo\n\nthree"+bom+"\n"; got != want {
		t.Errorf("templates/b.md = %q, want %q", got, want)
	}
	if got, want := p.Runbook.Separator, "--\n"; got != want {
		t.Errorf("separator = %q, want %q", got, want)
	}
	if got, want := p.Fixtures[0].Session["note"], "first\nsecond"; got != want {
		t.Errorf("fixture value = %q, want %q", got, want)
	}
	names := make([]string, 0, len(p.Files))
	for name, f := range p.Files {
		text := f.Text
		names = append(names, name)
		if strings.ContainsRune(text, '\r') || strings.HasPrefix(text, bom) {
			t.Errorf("%s keeps a CR or its BOM: %q", name, text)
		}
	}
	sort.Strings(names)
	if want := []string{"blocks/a.toml", "fixtures/basic.toml", "promptc.toml", "templates/b.md"}; !reflect.DeepEqual(names, want) {
		t.Errorf("Files = %q, want %q", names, want)
	}
}

// TestLoadBOMPositions checks that positions count from the text after the BOM is removed.
func TestLoadBOMPositions(t *testing.T) {
	fsys := with(base)
	fsys["blocks/base.toml"] = &fstest.MapFile{Data: []byte("\uFEFF[[block]]\r\nid = \"intro\"\r\nbodyy = \"x\"\r\n\r\n[[block]]\r\nid = \"ask\"\r\nbody = \"Go.\"\r\n")}
	_, diags := values.Load(fsys)
	want := "blocks/base.toml:2:1: block \"intro\" has neither body nor template: set exactly one\n" +
		"blocks/base.toml:3:1: unknown key \"bodyy\" in block \"intro\" (did you mean \"body\"?)\n"
	if got := diags.String(); got != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
}

// TestLoadOrder checks the orders docs/reference.md#promptctoml fixes: blocks/ files at any depth sorted by full slash path (so
// blocks/a.toml comes before blocks/a/x.toml, and both after blocks/a-b.toml), blocks within a file in file order,
// and fixtures sorted by name.
func TestLoadOrder(t *testing.T) {
	fsys := archive(`
-- promptc.toml --
name = "acme"
tasks = ["issue"]

[runbook]
order = ["a-x", "a", "a-b", "upper", "deep", "a-second", "z"]
-- blocks/a/x.toml --
[[block]]
id = "a-x"
body = "x"
-- blocks/a.toml --
[[block]]
id = "a"
body = "x"

[[block]]
id = "a-second"
body = "x"
-- blocks/a-b.toml --
[[block]]
id = "a-b"
body = "x"
-- blocks/B.toml --
[[block]]
id = "upper"
body = "x"
-- blocks/b/c/d.toml --
[[block]]
id = "deep"
body = "x"
-- blocks/z.toml --
[[block]]
id = "z"
body = "x"
-- blocks/README.md --
Not a blocks file: ignored.
-- fixtures/b.toml --
-- fixtures/a.toml --
-- fixtures/a-b.toml --
tasks = ["issue"]
`)
	p, diags := values.Load(fsys)
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	var ids []string
	for _, b := range p.Blocks {
		ids = append(ids, b.ID)
	}
	// blocks/B.toml < blocks/a-b.toml < blocks/a.toml < blocks/a/x.toml < blocks/b/c/d.toml < blocks/z.toml
	if want := []string{"upper", "a-b", "a", "a-second", "a-x", "deep", "z"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("blocks in order %q, want %q", ids, want)
	}
	var names []string
	for _, f := range p.Fixtures {
		names = append(names, f.Name)
	}
	if want := []string{"a", "a-b", "b"}; !reflect.DeepEqual(names, want) {
		t.Errorf("fixtures in order %q, want %q", names, want)
	}
	if !reflect.DeepEqual(p.Runbook.Order, []string{"a-x", "a", "a-b", "upper", "deep", "a-second", "z"}) {
		t.Errorf("runbook.order keeps the manifest's order: %q", p.Runbook.Order)
	}
}

// TestLoadDuplicateFollowsPathOrder checks that "defined twice" points from the later file in path order to the
// earlier one, whichever order the files were written or listed in.
func TestLoadDuplicateFollowsPathOrder(t *testing.T) {
	fsys := with(base, `
-- blocks/a/x.toml --
[const]
rule = "deep"
-- blocks/a.toml --
[const]
rule = "shallow"
`)
	_, diags := values.Load(fsys)
	want := "blocks/a/x.toml:2:1: constant \"rule\" is defined twice: here and at blocks/a.toml:2:1; keep one (one rule, one place)\n"
	if got := diags.String(); got != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
}

// TestLoadFixtures checks fixture contents: tasks default to all, values keep their TOML types as Values holds them
// (string, bool, int64, []string), turns keep their order, and without fixture files one implicit fixture "default"
// with no values and no turns is used.
func TestLoadFixtures(t *testing.T) {
	t.Run("values", func(t *testing.T) {
		fsys := with(base, `
-- promptc.toml --
name = "acme"
tasks = ["issue", "chat"]

[runbook]
order = ["intro"]

[turn]
order = ["ask"]

[vars.agent]
scope = "session"
type = "string"

[vars.leader]
scope = "session"
type = "bool"

[vars.n]
scope = "session"
type = "int"

[vars.repos]
scope = "session"
type = "list"

[vars.issue_id]
scope = "turn"
type = "string"
-- fixtures/basic.toml --
[session]
agent = "Ada"
leader = true
n = 3
repos = ["a", "b"]

[[turn]]
issue_id = "X-1"

[[turn]]

[[turn]]
issue_id = "X-3"
-- fixtures/chat-only.toml --
tasks = ["chat"]
`)
		p, diags := values.Load(fsys)
		if len(diags) > 0 {
			t.Fatalf("diagnostics:\n%s", diags)
		}
		if len(p.Fixtures) != 2 {
			t.Fatalf("%d fixtures", len(p.Fixtures))
		}
		f := p.Fixtures[0]
		if f.Name != "basic" || !reflect.DeepEqual(f.Tasks, []string{"*"}) {
			t.Errorf("fixture %q, tasks %q", f.Name, f.Tasks)
		}
		wantSession := blocks.Values{"agent": "Ada", "leader": true, "n": int64(3), "repos": []string{"a", "b"}}
		if !reflect.DeepEqual(f.Session, wantSession) {
			t.Errorf("session = %#v, want %#v", f.Session, wantSession)
		}
		wantTurns := []blocks.Values{{"issue_id": "X-1"}, {}, {"issue_id": "X-3"}}
		if !reflect.DeepEqual(f.Turns, wantTurns) {
			t.Errorf("turns = %#v, want %#v", f.Turns, wantTurns)
		}
		c := p.Fixtures[1]
		if c.Name != "chat-only" || c.AdmitsTask("issue") || !c.AdmitsTask("chat") {
			t.Errorf("fixture %q with tasks %q", c.Name, c.Tasks)
		}
		if len(c.Turns) != 0 || len(c.Session) != 0 {
			t.Errorf("empty fixture holds %v and %v", c.Session, c.Turns)
		}
	})
	for _, tt := range []struct {
		name  string
		files fstest.MapFS
	}{
		{"no fixtures directory", archive(strings.Replace(base, "-- fixtures/basic.toml --", "-- notes/basic.toml --", 1))},
		{"no fixture files", archive(strings.Replace(base, "-- fixtures/basic.toml --", "-- fixtures/README.md --", 1))},
		{"fixtures in a subdirectory only", archive(strings.Replace(base, "-- fixtures/basic.toml --", "-- fixtures/old/basic.toml --", 1))},
	} {
		t.Run("implicit default/"+tt.name, func(t *testing.T) {
			p, diags := values.Load(tt.files)
			if len(diags) > 0 {
				t.Fatalf("diagnostics:\n%s", diags)
			}
			if len(p.Fixtures) != 1 {
				t.Fatalf("%d fixtures, want the implicit one", len(p.Fixtures))
			}
			f := p.Fixtures[0]
			if f.Name != "default" || len(f.Session) != 0 || len(f.Turns) != 0 || !f.AdmitsTask("issue") || !f.AdmitsTask("chat") {
				t.Errorf("implicit fixture = %+v", f)
			}
		})
	}
}

// TestLoadBlockFields checks that every field of a block is read as written.
func TestLoadBlockFields(t *testing.T) {
	fsys := with(base, `
-- blocks/base.toml --
[[block]]
id = "intro"
title = "Introduction"
level = 3
tasks = ["issue", "chat"]
except = ["chat"]
when = "!leader"
raw = true
body = "{{ not a template }}"

[[block]]
id = "intro-chat"
replaces = "intro"
reason = "chat needs its own"
tasks = ["chat"]
template = "sub/chat.md"

[[block]]
id = "ask"
body = "Go."
-- templates/sub/chat.md --
Chat.
-- templates/.swap --
editor litter, skipped
`)
	p, diags := values.Load(fsys)
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	b := p.ByID["intro"]
	if b.Title != "Introduction" || b.Level != 3 || !reflect.DeepEqual(b.Tasks, []string{"issue", "chat"}) ||
		!reflect.DeepEqual(b.Except, []string{"chat"}) || b.When != "!leader" || !b.Raw || b.Body != "{{ not a template }}" {
		t.Errorf("intro = %+v", b)
	}
	if name, neg, single := b.Cond.Negated(); name != "leader" || !neg || !single {
		t.Errorf("Cond.Negated = %q, %v, %v", name, neg, single)
	}
	if b.Heading() != "### Introduction" {
		t.Errorf("Heading = %q", b.Heading())
	}
	if b.Range.String() != "blocks/base.toml:2:1" || b.Range.End.Line != 2 || b.Range.End.Column != 13 {
		t.Errorf("Range = %+v, want the id entry at 2:1-2:13", b.Range)
	}
	r := p.ByID["intro-chat"]
	if r.Body != "Chat.\n" || r.Template != "sub/chat.md" || r.Section != blocks.Runbook || r.Slot != "intro" {
		t.Errorf("intro-chat = %+v", r)
	}
	if len(b.ReplacedBy) != 1 || b.ReplacedBy[0] != r {
		t.Errorf("intro.ReplacedBy = %v", b.ReplacedBy)
	}
	if want := (source.Range{Filename: "templates/sub/chat.md", Start: source.Pos{Line: 1, Column: 1}, End: source.Pos{Line: 2, Column: 1, Byte: 6}}); r.BodyRange != want {
		t.Errorf("BodyRange = %+v, want the whole template, %+v", r.BodyRange, want)
	}
	if _, ok := p.Templates[".swap"]; ok {
		t.Errorf("dot files under templates/ are read: %q", p.Templates)
	}
}

// A blocks/ file that does not parse hides the constants it defines: their uses elsewhere are not reported as
// unknown, or one syntax error would bury itself under dozens of follow-on errors.
func TestIncompleteProjectHidesConstUses(t *testing.T) {
	fsys := fstest.MapFS{
		"promptc.toml":  {Data: []byte("name = \"a\"\ntasks = [\"t\"]\n[runbook]\norder = [\"x\"]\n")},
		"blocks/a.toml": {Data: []byte("[const]\nrule = \"Do it.\"\n[[block]\nid = \"y\"\n")},
		"blocks/b.toml": {Data: []byte("[[block]]\nid = \"x\"\nbody = '{{const \"rule\"}}'\n")},
	}
	p, diags := values.Load(fsys)
	if !p.Incomplete {
		t.Error("Incomplete = false, want true after a syntax error in blocks/")
	}
	if len(diags) != 1 || diags[0].Range().Filename != "blocks/a.toml" {
		t.Errorf("diagnostics =\n%s\nwant only the syntax error in blocks/a.toml", diags)
	}
	// The compiler too stays quiet about the constant.
	if _, diags := assemble.Load(fsys); len(diags) != 1 {
		t.Errorf("load and compile: diagnostics =\n%s\nwant only the syntax error", diags)
	}
}

// TestLoadHostileInput checks what adversarial testing found: positions that BurntSushi/toml gets wrong, an integer
// far outside a key's range, and names that could forge output lines, terminal escapes or workflow commands.
func TestLoadHostileInput(t *testing.T) {
	const manifest = "name = \"a\"\ntasks = [\"t\"]\n[runbook]\norder = [\"x\"]\n"
	const block = "[[block]]\nid = \"x\"\nbody = \"x\"\n"
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{
			// BurntSushi/toml says 3:10; the '@' is the first character of line 3.
			name:  "syntax error column",
			files: map[string]string{"blocks/a.toml": "[[block]]\nid = \"x\"\n@ = 1\n"},
			want:  "blocks/a.toml:3:1: TOML syntax error: expected '.' or '=', but got '@' instead\n",
		},
		{
			// BurntSushi/toml says line 4; the header is unterminated at the end of line 3.
			name:  "syntax error line",
			files: map[string]string{"blocks/a.toml": block + "\n[b\n"},
			want:  "blocks/a.toml:5:3: TOML syntax error: expected '.' or ']' to end table name, but got '\\n' instead\n",
		},
		{
			// The escape itself, with the multi-byte text before it counted in runes.
			name:  "bad escape after multi-byte text",
			files: map[string]string{"blocks/a.toml": "[[block]]\nid = \"x\"\nbody = \"ééé \\q\"\n"},
			want:  "blocks/a.toml:3:13: TOML syntax error: invalid escape in string '\\q'\n",
		},
		{
			name:  "integer far out of range",
			files: map[string]string{"blocks/a.toml": block + "level = -9223372036854775808\n"},
			want:  "blocks/a.toml:4:1: level must be between 1 and 6, not -9223372036854775808\n",
		},
		{
			name:  "template name that forges a diagnostic line",
			files: map[string]string{"blocks/a.toml": "[[block]]\nid = \"x\"\ntemplate = \"x\\nblocks/evil.toml:1:1: forged\"\n"},
			want:  "blocks/a.toml:3:1: template file \"templates/x\\nblocks/evil.toml:1:1: forged\" does not exist\n",
		},
		{
			name:  "fixture file name with a newline",
			files: map[string]string{"blocks/a.toml": block, "fixtures/a\nb.toml": "[session]\n"},
			want:  "\"fixtures/a\\nb.toml\":?:?: the file name holds a control or invisible character: rename the file to printable characters\n",
		},
		{
			name:  "fixture name that no golden tree can hold",
			files: map[string]string{"blocks/a.toml": block, "fixtures/a\\b.toml": "[session]\n"},
			want:  "\"fixtures/a\\\\b.toml\":?:?: fixture name \"a\\\\b\" cannot name artifact files (no backslash, not empty): rename the file\n",
		},
		{
			// Its blocks are missing, so their uses are not reported again as unknown.
			name:  "blocks file name with a terminal escape",
			files: map[string]string{"blocks/\x1b[31mred.toml": block},
			want:  "\"blocks/\\x1b[31mred.toml\":?:?: the file name holds a control or invisible character: rename the file to printable characters\n",
		},
		{
			name:  "template file name with a bidi control",
			files: map[string]string{"blocks/a.toml": block, "templates/a\u202eb.md": "x"},
			want:  "\"templates/a\\u202eb.md\":?:?: the file name holds a control or invisible character: rename the file to printable characters\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"promptc.toml": {Data: []byte(manifest)}}
			for name, text := range tt.files {
				fsys[name] = &fstest.MapFile{Data: []byte(text)}
			}
			_, diags := values.Load(fsys)
			if got := diags.String(); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestLoadRanges checks that the loader keeps where each entry is written, for diagnostics and editors: order
// entries, gate entries, allow entries, and the keys and values of every table.
func TestLoadRanges(t *testing.T) {
	fsys := with(base, `
-- promptc.toml --
name = "acme"
tasks = ["issue", "chat"]

[runbook]
order = ["intro",
  "more"]

[turn]
order = ["ask"]

[[lint.allow]]
lint   = "volatile-text"
reason = "a fixed example"
-- blocks/more.toml --
[[block]]
id    = "more"
tasks = ["chat", "issue"]
body  = """
x"""
`)
	p, diags := values.Load(fsys)
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	text := func(r source.Range) string { return p.Files[r.Filename].Text[r.Start.Byte:r.End.Byte] }
	for _, tt := range []struct {
		what string
		r    source.Range
		at   string
		text string
	}{
		{"runbook entry 1", p.Runbook.EntryRange(1), "promptc.toml:6:3", `"more"`},
		{"turn entry 0", p.Turn.EntryRange(0), "promptc.toml:9:10", `"ask"`},
		{"task chat", p.TaskRange("chat"), "promptc.toml:2:19", `"chat"`},
		{"allow lint", p.Allow[0].Table.Value("lint"), "promptc.toml:12:10", `"volatile-text"`},
		{"gate entry", p.ByID["more"].Table.Item("tasks", 1), "blocks/more.toml:3:18", `"issue"`},
		{"block", p.ByID["more"].Range, "blocks/more.toml:2:1", `id    = "more"`},
		{"body content", p.ByID["more"].BodyRange, "blocks/more.toml:5:1", "x"},
		{"body value", p.ByID["more"].Table.Value("body"), "blocks/more.toml:4:9", "\"\"\"\nx\"\"\""},
		{"block header", p.ByID["more"].Table.Header, "blocks/more.toml:1:1", "[[block]]"},
	} {
		if got := tt.r.String(); got != tt.at || text(tt.r) != tt.text {
			t.Errorf("%s: %s %q, want %s %q", tt.what, got, text(tt.r), tt.at, tt.text)
		}
	}
}

// brokenFS fails every access to one file with err.
type brokenFS struct {
	fstest.MapFS
	name string
	err  error
}

func (f brokenFS) Open(name string) (fs.File, error) {
	if name == f.name {
		return nil, &fs.PathError{Op: "open", Path: name, Err: f.err}
	}
	return f.MapFS.Open(name)
}

func (f brokenFS) ReadFile(name string) ([]byte, error) {
	if name == f.name {
		return nil, &fs.PathError{Op: "read", Path: name, Err: f.err}
	}
	return f.MapFS.ReadFile(name)
}

func (f brokenFS) Stat(name string) (fs.FileInfo, error) {
	if name == f.name {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: f.err}
	}
	return f.MapFS.Stat(name)
}

// TestLoadUnreadableManifest: a manifest that is there but cannot be read (a link that leaves the repository, a
// permission) is reported as such, not as a missing project.
func TestLoadUnreadableManifest(t *testing.T) {
	fsys := brokenFS{archive(base), "promptc.toml", errors.New("symbolic link to \"/etc/hostname\" leaves the repository")}
	_, diags := values.Load(fsys)
	want := "promptc.toml:?:?: cannot read file: symbolic link to \"/etc/hostname\" leaves the repository\n"
	if got := diags.String(); got != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
}

// TestLoadReportsRepeatedTaskOnce: a task listed more than once is one problem with the list, reported once at the
// tasks key, however many times the name repeats.
func TestLoadReportsRepeatedTaskOnce(t *testing.T) {
	tests := []struct {
		name  string
		tasks string
		want  string
	}{
		{
			name:  "twice",
			tasks: `["zz", "zz"]`,
			want:  `promptc.toml:2:1: task "zz" is listed twice` + "\n",
		},
		{
			name:  "three times",
			tasks: `["zz", "zz", "zz"]`,
			want:  `promptc.toml:2:1: task "zz" is listed twice` + "\n",
		},
		{
			name:  "two names twice",
			tasks: `["zz", "yy", "zz", "yy"]`,
			want: `promptc.toml:2:1: task "yy" is listed twice` + "\n" +
				`promptc.toml:2:1: task "zz" is listed twice` + "\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			manifest := "name = \"p\"\ntasks = " + tt.tasks + "\n\n[runbook]\norder = []\n"
			_, diags := values.Load(fstest.MapFS{"promptc.toml": {Data: []byte(manifest)}})
			if got := diags.String(); got != tt.want {
				t.Errorf("Load:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}
