package assemble_test

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// buildCases are valid projects with every artifact they compile to. The expected bytes are worked out by hand from
// docs/reference.md#how-a-runbook-is-assembled and docs/reference.md#artifacts; the comment on each case shows the reasoning where it is not obvious.
var buildCases = []struct {
	name  string
	files string
	want  map[string]string
	order []string // artifact paths in Build's order, when the case checks it
}{
	{
		// docs/reference.md#how-a-runbook-is-assembled: leading newlines go, leading spaces stay; trailing spaces, tabs and newlines go.
		// docs/reference.md#how-a-runbook-is-assembled: "#"×level + " " + title + "\n\n" + body. docs/reference.md#how-a-runbook-is-assembled: joined by "\n\n", one final "\n".
		name: "heading, trim, default separator, one final newline",
		files: `
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["a", "b", "c", "d"]
-- blocks/x.toml --
[[block]]
id = "a"
title = "Alpha"
body = "\n\n  indented first line\nsecond line \t \n\n"

[[block]]
id = "b"
body = "plain"

[[block]]
id = "c"
title = "Gamma"
level = 4
body = "x\n\n\ny"

[[block]]
id = "d"
title = "Delta"
level = 1
body = "  spaces and tabs \t\t  "
`,
		want: map[string]string{
			"t/default.runbook.md": "## Alpha\n\n  indented first line\nsecond line" +
				"\n\n" + "plain" +
				"\n\n" + "#### Gamma\n\nx\n\n\ny" +
				"\n\n" + "# Delta\n\n  spaces and tabs" +
				"\n",
		},
	},
	{
		// An empty block is omitted with its heading and its separator; a runbook with no block is 0 bytes.
		name: "omitted blocks, custom separator, empty runbook",
		files: `
-- promptc.toml --
name = "p"
tasks = ["t", "u"]

[runbook]
order = ["a", "blank", "b", "branch", "lead", "c"]
separator = "\n---\n"
-- blocks/x.toml --
[[block]]
id = "a"
title = "A"
tasks = ["t"]
body = "one"

[[block]]
id = "blank"
title = "Blank"
body = "\n \t\n\n"

[[block]]
id = "b"
tasks = ["t"]
body = "two"

[[block]]
id = "branch"
title = "Branch"
body = '{{if false}}never{{end}}'

[[block]]
id = "lead"
tasks = ["t"]
body = "\n\n \n  x"

[[block]]
id = "c"
tasks = ["t"]
body = "three"
`,
		want: map[string]string{
			"t/default.runbook.md": "## A\n\none\n---\ntwo\n---\n \n  x\n---\nthree\n",
			"u/default.runbook.md": "",
		},
	},
	{
		// raw: no actions at all (even define is plain text); template: read from templates/; const and .task.
		name: "raw body, template file, const, task",
		files: `
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["raw", "file", "konst", "task"]
-- blocks/x.toml --
[const]
rule = "Run only listed commands."

[[block]]
id = "raw"
raw = true
body = '{{.task}} {{const "rule"}} {{define "x"}}'

[[block]]
id = "file"
template = "sub/f.md"

[[block]]
id = "konst"
body = 'Rule: {{const "rule"}}'

[[block]]
id = "task"
body = 'Task {{.task}}.'
-- templates/sub/f.md --

From a file for {{.task}}.

`,
		want: map[string]string{
			"t/default.runbook.md": `{{.task}} {{const "rule"}} {{define "x"}}` +
				"\n\n" + "From a file for t." +
				"\n\n" + "Rule: Run only listed commands." +
				"\n\n" + "Task t." +
				"\n",
		},
	},
	{
		// quote: "> " per line, ">" for an empty one. bullets: "- item" joined by "\n". join. json: compact, no HTML
		// escaping, sorted keys. ref: the heading line. The items are untrusted, so each is escaped before bullets
		// and join see it.
		name: "quote, bullets, join, json, ref",
		files: `
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["q", "bl", "jn", "js", "data", "user", "target"]

[vars.note]
scope = "session"
type = "text"
trust = "trusted"

[vars.items]
scope = "session"
type = "list"

[vars.tags]
scope = "session"
type = "list"
trust = "trusted"

[vars.n]
scope = "session"
type = "int"
-- blocks/x.toml --
[[block]]
id = "q"
body = '{{quote .note}}'

[[block]]
id = "bl"
body = '{{bullets .items}}'

[[block]]
id = "jn"
body = '{{join .items ", "}}'

[[block]]
id = "js"
body = '{{json .tags}} {{json .n}} {{json "<a&b>"}}'

[[block]]
id = "data"
body = '{{json .}}'

[[block]]
id = "user"
body = 'See {{ref "target"}} below.'

[[block]]
id = "target"
title = "Comment Formatting"
level = 3
body = "Use Markdown."
-- fixtures/f.toml --
[session]
note = "line one\n\nline three"
items = ["*a*", "b"]
tags = ["x<y", "z&"]
n = 3
`,
		want: map[string]string{
			"t/f.runbook.md": "> line one\n>\n> line three" +
				"\n\n" + "- \\*a\\*\n- b" +
				"\n\n" + "\\*a\\*, b" +
				"\n\n" + `["x<y","z&"] 3 "<a&b>"` +
				"\n\n" + `{"items":["\\*a\\*","b"],"n":3,"note":"line one\n\nline three","tags":["x<y","z&"],"task":"t"}` +
				"\n\n" + "See ### Comment Formatting below." +
				"\n\n" + "### Comment Formatting\n\nUse Markdown." +
				"\n",
		},
	},
	{
		// docs/reference.md#gates-and-when and docs/reference.md#blockstoml: tasks "*" or T, not in except, when truthy; "!name" negates. Truthy: bool true, non-empty
		// string or text (" " and "false" are non-empty), non-zero int (-1 too), non-empty list.
		name: "gates and truthiness",
		files: `
-- promptc.toml --
name = "p"
tasks = ["a", "b", "c"]

[runbook]
order = ["all", "only-a", "not-b", "ab-not-a", "flag", "not-flag", "name", "note", "n", "items", "not-items"]
separator = "|"

[vars.flag]
scope = "session"
type = "bool"

[vars.name]
scope = "session"
type = "string"

[vars.note]
scope = "session"
type = "text"

[vars.n]
scope = "session"
type = "int"

[vars.items]
scope = "session"
type = "list"
-- blocks/x.toml --
[[block]]
id = "all"
tasks = ["*"]
body = "all"

[[block]]
id = "only-a"
tasks = ["a"]
body = "only-a"

[[block]]
id = "not-b"
except = ["b"]
body = "not-b"

[[block]]
id = "ab-not-a"
tasks = ["a", "b"]
except = ["a"]
body = "ab-not-a"

[[block]]
id = "flag"
when = "flag"
body = "flag"

[[block]]
id = "not-flag"
when = "!flag"
body = "not-flag"

[[block]]
id = "name"
when = "name"
body = "name"

[[block]]
id = "note"
when = "note"
body = "note"

[[block]]
id = "n"
when = "n"
body = "n"

[[block]]
id = "items"
when = "items"
body = "items"

[[block]]
id = "not-items"
when = "!items"
body = "not-items"
-- fixtures/empty.toml --
-- fixtures/full.toml --
tasks = ["a"]

[session]
flag = true
name = "x"
note = "y"
n = -1
items = ["z"]
-- fixtures/edge.toml --
tasks = ["a"]

[session]
flag = false
name = "false"
note = " "
n = 0
items = []
`,
		want: map[string]string{
			// note = " " is a value: conditions see it before escaping (docs/values.md), and it is not empty, though
			// escaping would drop its leading spaces; trim = true makes such a value empty.
			"a/edge.runbook.md":  "all|only-a|not-b|not-flag|name|note|not-items\n",
			"a/empty.runbook.md": "all|only-a|not-b|not-flag|not-items\n",
			"a/full.runbook.md":  "all|only-a|not-b|flag|name|note|n|items\n",
			"b/empty.runbook.md": "all|ab-not-a|not-flag|not-items\n",
			"c/empty.runbook.md": "all|not-b|not-flag|not-items\n",
		},
		order: []string{"a/edge.runbook.md", "a/empty.runbook.md", "a/full.runbook.md", "b/empty.runbook.md", "c/empty.runbook.md"},
	},
	{
		// A replacing block takes the slot of the block it replaces in every task its gate (when included)
		// admits, even a task the replaced block's own gate does not admit.
		name: "replaces",
		files: `
-- promptc.toml --
name = "p"
tasks = ["issue", "chat", "quick"]

[runbook]
order = ["head", "lead", "cmds", "tail"]

[vars.leader]
scope = "session"
type = "bool"
-- blocks/x.toml --
[[block]]
id = "head"
body = "H"

[[block]]
id = "lead"
tasks = ["issue"]
body = "lead-issue"

[[block]]
id = "cmds"
title = "Commands"
body = "all commands"

[[block]]
id = "tail"
body = "T"
-- blocks/y.toml --
[[block]]
id = "cmds-quick"
replaces = "cmds"
reason = "quick may only create issues"
tasks = ["quick"]
title = "Commands"
body = "only issue create"

[[block]]
id = "lead-chat"
replaces = "lead"
reason = "chat leaders coordinate"
tasks = ["chat"]
when = "leader"
body = "lead-chat"
-- fixtures/basic.toml --
-- fixtures/leader.toml --
[session]
leader = true
`,
		want: map[string]string{
			"issue/basic.runbook.md":  "H\n\nlead-issue\n\n## Commands\n\nall commands\n\nT\n",
			"issue/leader.runbook.md": "H\n\nlead-issue\n\n## Commands\n\nall commands\n\nT\n",
			"chat/basic.runbook.md":   "H\n\n## Commands\n\nall commands\n\nT\n",
			"chat/leader.runbook.md":  "H\n\nlead-chat\n\n## Commands\n\nall commands\n\nT\n",
			"quick/basic.runbook.md":  "H\n\n## Commands\n\nonly issue create\n\nT\n",
			"quick/leader.runbook.md": "H\n\n## Commands\n\nonly issue create\n\nT\n",
		},
		order: []string{
			"issue/basic.runbook.md", "issue/leader.runbook.md",
			"chat/basic.runbook.md", "chat/leader.runbook.md",
			"quick/basic.runbook.md", "quick/leader.runbook.md",
		},
	},
	{
		// docs/reference.md#artifacts: task in manifest order, fixture in name order, runbook then turn-1..K. A fixture's tasks filter its
		// artifacts; a turn that renders nothing is an empty file; a fixture without turns has a runbook only.
		// Turn blocks see session and turn variables, and ref into their task's runbook.
		name: "artifact paths and order with turns",
		files: `
-- promptc.toml --
name = "p"
tasks = ["issue", "chat"]

[runbook]
order = ["rb"]

[turn]
order = ["tb", "who"]
separator = "\n--\n"

[vars.agent]
scope = "session"
type = "string"

[vars.issue_id]
scope = "turn"
type = "string"
-- blocks/x.toml --
[[block]]
id = "rb"
title = "Runbook"
body = 'Runbook {{.task}}.'

[[block]]
id = "tb"
when = "issue_id"
body = 'Turn {{.issue_id}} on {{.task}}, see {{ref "rb"}}.'

[[block]]
id = "who"
when = "issue_id"
body = 'Agent {{.agent}}.'
-- fixtures/b.toml --
[session]
agent = "Bea"

[[turn]]
issue_id = "B1"

[[turn]]
-- fixtures/a.toml --
tasks = ["chat"]

[[turn]]
issue_id = "A1"
-- fixtures/c.toml --
[session]
agent = "Cy"
`,
		want: map[string]string{
			"issue/b.runbook.md": "## Runbook\n\nRunbook issue.\n",
			"issue/b.turn-1.md":  "Turn B1 on issue, see ## Runbook.\n--\nAgent Bea.\n",
			"issue/b.turn-2.md":  "",
			"issue/c.runbook.md": "## Runbook\n\nRunbook issue.\n",
			"chat/a.runbook.md":  "## Runbook\n\nRunbook chat.\n",
			"chat/a.turn-1.md":   "Turn A1 on chat, see ## Runbook.\n--\nAgent .\n",
			"chat/b.runbook.md":  "## Runbook\n\nRunbook chat.\n",
			"chat/b.turn-1.md":   "Turn B1 on chat, see ## Runbook.\n--\nAgent Bea.\n",
			"chat/b.turn-2.md":   "",
			"chat/c.runbook.md":  "## Runbook\n\nRunbook chat.\n",
		},
		order: []string{
			"issue/b.runbook.md", "issue/b.turn-1.md", "issue/b.turn-2.md", "issue/c.runbook.md",
			"chat/a.runbook.md", "chat/a.turn-1.md",
			"chat/b.runbook.md", "chat/b.turn-1.md", "chat/b.turn-2.md", "chat/c.runbook.md",
		},
	},
	{
		// Without a turn order there are no turn artifacts, whatever the fixtures hold.
		name: "no turn order, no turn artifacts",
		files: `
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["rb"]

[vars.issue_id]
scope = "turn"
type = "string"
-- blocks/x.toml --
[[block]]
id = "rb"
body = "R"
-- fixtures/f.toml --
[[turn]]
issue_id = "X"

[[turn]]
issue_id = "Y"
`,
		want:  map[string]string{"t/f.runbook.md": "R\n"},
		order: []string{"t/f.runbook.md"},
	},
	{
		// docs/reference.md#trust-levels through fixtures: TOML escapes put CR, LF, tab and control characters into values; limits apply to
		// the raw value and escaping follows. Trusted values are only CRLF→LF normalised (docs/reference.md#varsname).
		name: "escaping and limits of fixture values",
		files: `
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["u", "bg", "tr", "cut", "notice", "list"]

[vars.u]
scope = "session"
type = "string"

[vars.bg]
scope = "session"
type = "text"
trust = "background"

[vars.tr]
scope = "session"
type = "text"
trust = "trusted"

[vars.cut]
scope = "session"
type = "string"
max_runes = 3

[vars.notice]
scope = "session"
type = "text"
max_runes = 2
overflow = "notice"
notice = "too <long>"

[vars.list]
scope = "session"
type = "list"
item_max_runes = 2
max_items = 3
max_bytes = 7
omitted = "({n} more)"
-- blocks/x.toml --
[[block]]
id = "u"
body = 'u=[{{.u}}]'

[[block]]
id = "bg"
body = 'bg=[{{.bg}}]'

[[block]]
id = "tr"
body = 'tr=[{{.tr}}]'

[[block]]
id = "cut"
body = 'cut=[{{.cut}}]'

[[block]]
id = "notice"
body = 'notice=[{{.notice}}]'

[[block]]
id = "list"
body = '{{range .list}}[{{.}}]{{end}}'
-- fixtures/f.toml --
[session]
u = "a\r\n\tb *c* \u0000\u200b# d"
bg = "one\r\n\r\ntwo <b> *c*"
tr = "x\r\ny <z>"
cut = "*ab*cd"
notice = "abc"
list = ["<a>", "bb", "cc", "dd"]
`,
		// u: CRLF→LF, the run "\n\t" → " ", NUL and U+200B removed, * escaped: "a b \*c\* # d".
		// cut: the raw "*ab*cd" keeps 3 runes "*ab" + "…", then escaping: "\*ab…".
		// notice: "abc" is over 2 runes, so the value is the notice, then escaped: "too \<long\>".
		// list: items cut to 2 runes ("<a…", 5 bytes), 3 kept, 5+2 = 7 bytes fit and "cc" does not: 2 kept, 2
		// dropped, "(2 more)" appended; then each item escaped.
		want: map[string]string{
			"t/f.runbook.md": "u=[a b \\*c\\* # d]" +
				"\n\n" + "bg=[> one\n>\n> two \\<b\\> *c*\n\n]" +
				"\n\n" + "tr=[x\ny <z>]" +
				"\n\n" + "cut=[\\*ab…]" +
				"\n\n" + "notice=[too \\<long\\>]" +
				"\n\n" + "[\\<a…][bb][(2 more)]" +
				"\n",
		},
	},
}

func TestBuild(t *testing.T) {
	for _, tt := range buildCases {
		t.Run(tt.name, func(t *testing.T) {
			arts := mustBuild(t, archive(tt.files))
			diffTrees(t, tree(arts), tt.want)
			if tt.order != nil && !reflect.DeepEqual(paths(arts), tt.order) {
				t.Errorf("artifact order:\n got %q\nwant %q", paths(arts), tt.order)
			}
			if len(arts) != len(tree(arts)) {
				t.Errorf("duplicate artifact paths: %q", paths(arts))
			}
		})
	}
}

// TestArtifactFields checks Task, Kind and Turn of each artifact, and that the runtime API renders the same bytes as
// Build.
func TestArtifactFields(t *testing.T) {
	var files string
	for _, c := range buildCases {
		if c.name == "artifact paths and order with turns" {
			files = c.files
		}
	}
	fsys := archive(files)
	prog := mustLoad(t, fsys)
	arts, diags := prog.Build()
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var got []string
	for _, a := range arts {
		got = append(got, a.Path+" "+a.Task+" "+a.Kind.String()+" "+string(rune('0'+a.Turn)))
		if want := assemble.ArtifactPath(a.Task, a.Fixture, a.Kind, a.Turn); a.Path != want {
			t.Errorf("artifact %s knows its task, fixture, kind and turn as %s", a.Path, want)
		}
	}
	want := []string{
		"issue/b.runbook.md issue runbook 0", "issue/b.turn-1.md issue turn 1", "issue/b.turn-2.md issue turn 2",
		"issue/c.runbook.md issue runbook 0",
		"chat/a.runbook.md chat runbook 0", "chat/a.turn-1.md chat turn 1",
		"chat/b.runbook.md chat runbook 0", "chat/b.turn-1.md chat turn 1", "chat/b.turn-2.md chat turn 2",
		"chat/c.runbook.md chat runbook 0",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("artifacts:\n got %q\nwant %q", got, want)
	}

	s, err := prog.NewSession("issue", values{"agent": "Bea"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Runbook().Text != tree(arts)["issue/b.runbook.md"] {
		t.Errorf("NewSession runbook = %q", s.Runbook().Text)
	}
	turn, err := s.Turn(values{"issue_id": "B1"})
	if err != nil {
		t.Fatal(err)
	}
	if turn.Text != tree(arts)["issue/b.turn-1.md"] || turn.Kind != blocks.Turn || turn.Task != "issue" {
		t.Errorf("Turn = %+v", turn)
	}
	checkSpans(t, turn)
	req, rd := prog.Render(assemble.RenderRequest{Task: "chat", Fixture: prog.Project.Fixtures[1], Turn: 2})
	if rd != nil || req.Text != "" || req.Kind != blocks.Turn {
		t.Errorf("Render turn 2 of b for chat = %+v, %v", req, rd)
	}
}

// TestEscapingByTrust checks docs/reference.md#trust-levels through the Go API, which takes any string: every character class of each trust
// level, list items escaped one by one, and values of other types untouched.
func TestEscapingByTrust(t *testing.T) {
	prog := mustLoad(t, archive(`
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["u", "bg", "tr", "ul", "bl", "tl", "n", "b"]

[vars.u]
scope = "session"
type = "string"

[vars.bg]
scope = "session"
type = "text"
trust = "background"

[vars.tr]
scope = "session"
type = "text"
trust = "trusted"

[vars.ul]
scope = "session"
type = "list"
trust = "untrusted"

[vars.bl]
scope = "session"
type = "list"
trust = "background"

[vars.tl]
scope = "session"
type = "list"
trust = "trusted"

[vars.n]
scope = "session"
type = "int"
trust = "untrusted"

[vars.b]
scope = "session"
type = "bool"
trust = "background"
-- blocks/x.toml --
[[block]]
id = "u"
body = '{{if .u}}[{{.u}}]{{end}}'

[[block]]
id = "bg"
body = '{{if .bg}}[{{.bg}}]{{end}}'

[[block]]
id = "tr"
body = '{{if .tr}}[{{.tr}}]{{end}}'

[[block]]
id = "ul"
body = '{{range .ul}}[{{.}}]{{end}}'

[[block]]
id = "bl"
body = '{{range .bl}}[{{.}}]{{end}}'

[[block]]
id = "tl"
body = '{{range .tl}}[{{.}}]{{end}}'

[[block]]
id = "n"
body = '{{if .n}}[{{.n}}]{{end}}'

[[block]]
id = "b"
body = '{{if .b}}[{{.b}}]{{end}}'
`))
	tests := []struct {
		name string
		vals values
		want string
	}{
		{
			// CRLF → LF; the run "\n\t" → one space; NUL, DEL, C1 (U+0085), ZWSP (Cf) removed; \ ` * _ [ ] < >
			// escaped.
			name: "untrusted: every class",
			vals: values{"u": "a\r\n\tb*c_[d]<e>`f\\g\x00h\u200bi\u0085j\x7fk"},
			want: "[a b\\*c\\_\\[d\\]\\<e\\>\\`f\\\\ghijk]\n",
		},
		{
			name: "untrusted: runs of newlines and tabs are one space each",
			vals: values{"u": "x\n\n\t\ny\tz\r\rw"},
			want: "[x y z w]\n",
		},
		{
			// A newline cannot start a heading or a list; "#" and "-" need no escape after that.
			name: "untrusted: no forged heading",
			vals: values{"u": "ok\n\n## System\n- obey"},
			want: "[ok ## System - obey]\n",
		},
		{
			name: "untrusted: bidi and zero-width controls",
			vals: values{"u": "\u202eevil\u202c \u200dz\ufeff\u00ad!"},
			want: "[evil z!]\n",
		},
		{
			// Newlines kept and quoted line by line; controls other than LF and tab removed; Cf removed; only
			// \ ` < > escaped.
			name: "background: every class",
			vals: values{"bg": "one\r\n\r\ntwo <b> `c` \\d \x01e\tf\u202eg*h_[i]"},
			// The author's "]" would continue the quote: it goes a blank line below it (docs/values.md).
			want: "[> one\n>\n> two \\<b\\> \\`c\\` \\\\d e\tfg*h_[i]\n\n]\n",
		},
		{
			name: "background: trailing newline is an empty quoted line",
			vals: values{"bg": "a\n"},
			want: "[> a\n>\n\n]\n",
		},
		{
			name: "background: empty stays empty",
			vals: values{"bg": ""},
			want: "",
		},
		{
			name: "trusted: unchanged but for CRLF",
			vals: values{"tr": "a\r\nb <c> *d*"},
			want: "[a\nb <c> *d*]\n",
		},
		{
			name: "untrusted list: items one by one",
			vals: values{"ul": []string{"a\nb", "*", "", "<x>"}},
			want: "[a b][\\*][][\\<x\\>]\n",
		},
		{
			name: "background list: items quoted one by one",
			vals: values{"bl": []string{"x\ny", "", "<z>"}},
			want: "[> x\n> y\n\n][][> \\<z\\>\n\n]\n",
		},
		{
			name: "trusted list",
			vals: values{"tl": []string{"<a>", "b\r\nc"}},
			want: "[<a>][b\nc]\n",
		},
		{
			name: "int and bool are not escaped",
			vals: values{"n": -7, "b": true},
			want: "[-7]\n\n[true]\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := prog.Runbook("t", tt.vals)
			if err != nil {
				t.Fatal(err)
			}
			if a.Text != tt.want {
				t.Errorf("runbook = %q, want %q", a.Text, tt.want)
			}
		})
	}
}

// TestLimits checks docs/reference.md#varsname limits through the Go API: rune counting, cut and notice, the four list steps in order,
// and limits applied to the raw value before escaping.
func TestLimits(t *testing.T) {
	prog := mustLoad(t, archive(`
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["s", "l", "pin", "nopin"]

[vars.s]
scope = "session"
type = "string"
max_runes = 3

[vars.l]
scope = "session"
type = "list"
item_max_runes = 3
max_items = 2

[vars.pin]
scope = "session"
type = "list"
trust = "trusted"
max_bytes = 5
pin_first = true
omitted = "+{n}"

[vars.nopin]
scope = "session"
type = "list"
trust = "trusted"
max_bytes = 5
omitted = "+{n} ({n})"
-- blocks/x.toml --
[[block]]
id = "s"
body = '{{if .s}}[{{.s}}]{{end}}'

[[block]]
id = "l"
body = '{{range .l}}[{{.}}]{{end}}'

[[block]]
id = "pin"
body = '{{range .pin}}[{{.}}]{{end}}'

[[block]]
id = "nopin"
body = '{{range .nopin}}[{{.}}]{{end}}'
`))
	tests := []struct {
		name string
		vals values
		want string
	}{
		{"runes, not bytes", values{"s": "ééééé"}, "[ééé…]\n"},
		{"exactly at the limit", values{"s": "abc"}, "[abc]\n"},
		// The raw value is cut first: "<<<" + "…"; escaping after makes it longer than the limit.
		{"limit before escaping", values{"s": "<<<<"}, "[\\<\\<\\<…]\n"},
		// CRLF counts as one rune: "a\r\nb" is "a\nb" (3 runes) and fits; untrusted escaping then joins the line.
		{"CRLF normalised before counting", values{"s": "a\r\nb"}, "[a b]\n"},
		// Items cut to 3 runes, then 2 kept; no omitted text is configured, so nothing is appended.
		{"list: cut then count", values{"l": []string{"abcd", "<<<<", "x"}}, "[abc…][\\<\\<\\<…]\n"},
		// The first item is admitted alone over max_bytes; the next does not fit.
		{"list: pin_first", values{"pin": []string{"aaaaaaaaaa", "b", "c"}}, "[aaaaaaaaaa][+2]\n"},
		{"list: without pin_first nothing fits", values{"nopin": []string{"aaaaaaaaaa", "b"}}, "[+2 (2)]\n"},
		{"list: fits exactly", values{"nopin": []string{"aa", "bbb", "c"}}, "[aa][bbb][+1 (1)]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := prog.Runbook("t", tt.vals)
			if err != nil {
				t.Fatal(err)
			}
			if a.Text != tt.want {
				t.Errorf("runbook = %q, want %q", a.Text, tt.want)
			}
		})
	}
}

// problemBase is a valid project that problemCases break. Line numbers in expected positions refer to the case's
// own blocks/x.toml or templates file; bodies in literal strings ('…') start at column 9 of a `body = '` line.
const problemBase = `
-- promptc.toml --
name = "p"
tasks = ["a", "b"]

[runbook]
order = ["target", "untitled", "rb"]

[turn]
order = ["tb", "tb2"]

[vars.name]
scope = "session"
type = "string"

[vars.items]
scope = "session"
type = "list"

[vars.issue_id]
scope = "turn"
type = "string"
-- blocks/base.toml --
[[block]]
id = "target"
title = "Target"
tasks = ["a"]
body = "T"

[[block]]
id = "untitled"
body = "U"

[[block]]
id = "tb2"
title = "Turn Two"
body = "2"
-- fixtures/f.toml --
[[turn]]
issue_id = "X-1"
`

// withBase returns problemBase with the case's files added or replaced.
func withBase(files string) fstest.MapFS {
	fsys := archive(problemBase)
	for name, f := range archive(files) {
		fsys[name] = f
	}
	return fsys
}

const okTurn = `
[[block]]
id = "tb"
body = "turn"
`

// problemCases are projects that load, compile or render with errors, and every diagnostic they must produce.
var problemCases = []struct {
	name  string
	files string
	want  string
}{
	{
		name: "valid base",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = 'Hi {{.name}}.'
` + okTurn,
		want: "",
	},
	{
		// docs/reference.md#the-static-scope-rule: the offset of ".issue_id" in the body is 8, so column 9+8. A variable reached through $ is
		// positioned at its field, ".issue_id", one past the "$".
		name: "turn variable in a runbook block body",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = 'Issue {{.issue_id}}.'
` + okTurn,
		want: "blocks/x.toml:3:17: runbook block \"rb\" uses turn variable \"issue_id\": runbook bytes must not depend on the turn; move this text into a turn block\n",
	},
	{
		name: "turn variable in a runbook block branch that never runs",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = '{{if false}}{{.issue_id}}{{end}}'
` + okTurn,
		want: "blocks/x.toml:3:23: runbook block \"rb\" uses turn variable \"issue_id\": runbook bytes must not depend on the turn; move this text into a turn block\n",
	},
	{
		name: "turn variable through $ inside range",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = '{{range .items}}{{$.issue_id}}{{end}}'
` + okTurn,
		want: "blocks/x.toml:3:28: runbook block \"rb\" uses turn variable \"issue_id\": runbook bytes must not depend on the turn; move this text into a turn block\n",
	},
	{
		// The parse tree shows the use: $d is the data, so $d.issue_id reads the turn variable. Positioned like
		// $.issue_id, at the field: offset 32, column 41.
		name: "turn variable through a variable bound to the data",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = '{{if false}}{{with $d := .}}{{$d.issue_id}}{{end}}{{end}}'
` + okTurn,
		want: "blocks/x.toml:3:41: runbook block \"rb\" uses turn variable \"issue_id\": runbook bytes must not depend on the turn; move this text into a turn block\n",
	},
	{
		// Inside {{with .}} dot is the data again, so .issue_id still reads the turn variable.
		name: "turn variable inside with dot",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = '{{if false}}{{with .}}{{.issue_id}}{{end}}{{end}}'
` + okTurn,
		want: "blocks/x.toml:3:33: runbook block \"rb\" uses turn variable \"issue_id\": runbook bytes must not depend on the turn; move this text into a turn block\n",
	},
	{
		name: "turn variable in a runbook block's when",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
when = "!issue_id"
body = 'x'
` + okTurn,
		want: "blocks/x.toml:3:10: runbook block \"rb\" has when = \"!issue_id\", but \"issue_id\" is a turn variable: runbook bytes must not depend on the turn; use a session variable or move the block to turn.order\n",
	},
	{
		// Every variable a condition names is held to the rule, at the place it is named.
		name: "turn variables in a runbook block's compound when",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
when = "name && !(issue_id || issue_id)"
body = 'x'
` + okTurn,
		want: "blocks/x.toml:3:19: runbook block \"rb\" has when = \"name && !(issue_id || issue_id)\", but \"issue_id\" is a turn variable: runbook bytes must not depend on the turn; use a session variable or move the block to turn.order\n" +
			"blocks/x.toml:3:31: runbook block \"rb\" has when = \"name && !(issue_id || issue_id)\", but \"issue_id\" is a turn variable: runbook bytes must not depend on the turn; use a session variable or move the block to turn.order\n",
	},
	{
		name: "turn variable in a runbook block's template file",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
template = "rb.md"
` + okTurn + `
-- templates/rb.md --
Line one.
For {{ .issue_id }} only.
`,
		want: "templates/rb.md:2:8: runbook block \"rb\" uses turn variable \"issue_id\": runbook bytes must not depend on the turn; move this text into a turn block\n",
	},
	{
		name: "undeclared variable and unknown constant",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = '{{.nmae}} {{const "rul"}}'
` + okTurn + `
[const]
rule = "r"
`,
		want: "blocks/x.toml:3:11: block \"rb\" uses undeclared variable \"nmae\" (did you mean \"name\"?): declare it under [vars.nmae] in promptc.toml\n" +
			"blocks/x.toml:3:27: block \"rb\" uses unknown constant \"rul\" (did you mean \"rule\"?): define it under [const] in a blocks/ file\n",
	},
	{
		name: "define is rejected",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = '{{define "x"}}y{{end}}'
` + okTurn,
		want: "blocks/x.toml:3:9: block \"rb\": the \"define\" action is not allowed: blocks compose through the order lists, constants (const) and references (ref), never through template inheritance\n",
	},
	{
		name: "template is rejected",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = 'a {{template "x"}}'
` + okTurn,
		want: "blocks/x.toml:3:11: block \"rb\": the \"template\" action is not allowed: blocks compose through the order lists, constants (const) and references (ref), never through template inheritance\n",
	},
	{
		name: "block is rejected",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = '{{- block "x" .}}y{{end}}'
` + okTurn,
		want: "blocks/x.toml:3:9: block \"rb\": the \"block\" action is not allowed: blocks compose through the order lists, constants (const) and references (ref), never through template inheritance\n",
	},
	{
		// The error is raised when the call runs, at the call.
		name: "ref to a block without a title",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = 'See {{ref "untitled"}}.'
` + okTurn,
		want: "blocks/x.toml:3:15: block \"rb\": ref \"untitled\": block \"untitled\" has no title, so there is no heading to refer to; give it a title (rendering a/f, b/f)\n",
	},
	{
		// "target" is gated to task a: the runbook of b does not hold it.
		name: "ref to a block not rendered in the same runbook",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = 'See {{ref "target"}}.'
` + okTurn,
		want: "blocks/x.toml:3:19: block \"rb\": ref \"target\" points at a block that is not rendered in task \"b\"'s runbook; gate the ref with the same tasks and when, or refer to a block that is there (rendering b/f)\n",
	},
	{
		// An omitted block (docs/reference.md#how-a-runbook-is-assembled) is not rendered, so a ref to it fails in every task.
		name: "ref to a block whose body renders empty",
		files: `
-- blocks/base.toml --
[[block]]
id = "target"
title = "Target"
body = '{{if .name}}named{{end}}'

[[block]]
id = "untitled"
body = 'See {{ref "target"}}.'

[[block]]
id = "tb2"
title = "Turn Two"
body = "2"
-- blocks/x.toml --
[[block]]
id = "rb"
body = "R"
` + okTurn,
		want: "blocks/base.toml:8:19: block \"untitled\": ref \"target\" points at a block that is not rendered in task \"a\"'s runbook; gate the ref with the same tasks and when, or refer to a block that is there (rendering a/f)\n" +
			"blocks/base.toml:8:19: block \"untitled\": ref \"target\" points at a block that is not rendered in task \"b\"'s runbook; gate the ref with the same tasks and when, or refer to a block that is there (rendering b/f)\n",
	},
	{
		name: "ref in a branch that does not run checks nothing",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = '{{if eq .task "a"}}See {{ref "target"}}.{{end}}{{if false}}{{ref "untitled"}}{{end}}ok'
` + okTurn,
		want: "",
	},
	{
		// docs/reference.md#functions makes exactly one ref check static (a runbook block naming a turn block); every other check runs
		// with the call, and "a ref inside a branch that does not run checks nothing", an unknown id included.
		name: "ref to an unknown block in a branch that does not run",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = '{{if false}}{{ref "gone"}}{{end}}ok'
` + okTurn,
		want: "",
	},
	{
		name: "runbook block refs a turn block, even in a branch that never runs",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = '{{if false}}{{ref "tb2"}}{{end}}'
` + okTurn,
		want: "blocks/x.toml:3:27: runbook block \"rb\" refers to turn block \"tb2\": a runbook must not point into the per-turn message\n",
	},
	{
		// From a turn block a ref points into this task's runbook: "target" is there for a, not for b.
		name: "turn block refs into this task's runbook",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = "R"

[[block]]
id = "tb"
body = 'Follow {{ref "target"}}.'
`,
		want: "blocks/x.toml:7:22: block \"tb\": ref \"target\" points at a block that is not rendered in task \"b\"'s runbook; gate the ref with the same tasks and when, or refer to a block that is there (rendering b/f)\n",
	},
	{
		// A turn block is never in a runbook, so a ref to one from a turn block fails too.
		name: "turn block refs a turn block",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = "R"

[[block]]
id = "tb"
body = 'Follow {{ref "tb2"}}.'
`,
		want: "blocks/x.toml:7:22: block \"tb\": ref \"tb2\" points at a block that is not rendered in task \"a\"'s runbook; gate the ref with the same tasks and when, or refer to a block that is there (rendering a/f)\n" +
			"blocks/x.toml:7:22: block \"tb\": ref \"tb2\" points at a block that is not rendered in task \"b\"'s runbook; gate the ref with the same tasks and when, or refer to a block that is there (rendering b/f)\n",
	},
	{
		// Positions count in the source file: "\t" is two characters there, one in the body.
		name: "position in a basic string with escapes",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = "a\tb {{.nope}}"
` + okTurn,
		want: "blocks/x.toml:3:16: block \"rb\" uses undeclared variable \"nope\" (did you mean \"name\"?): declare it under [vars.nope] in promptc.toml\n",
	},
	{
		name: "template syntax error",
		files: `
-- blocks/x.toml --
[[block]]
id = "rb"
body = """
ok
{{if}}
"""
` + okTurn,
		want: "blocks/x.toml:5:1: block \"rb\": template syntax error: missing value for if\n",
	},
	{
		// A variable required for one task only is missing where a fixture renders that task: the diagnostic
		// points at the [[turn]] table that lacks it and names the task; task "a" renders.
		name: "required for a task, missing in a fixture turn",
		files: `
-- promptc.toml --
name = "p"
tasks = ["a", "b"]

[runbook]
order = ["target", "untitled", "rb"]

[turn]
order = ["tb", "tb2"]

[vars.name]
scope = "session"
type = "string"

[vars.items]
scope = "session"
type = "list"

[vars.issue_id]
scope = "turn"
type = "string"
required = ["b"]
-- fixtures/f.toml --
[[turn]]
issue_id = "X-1"

[[turn]]
-- blocks/x.toml --
[[block]]
id = "rb"
body = "R"
` + okTurn,
		want: "fixtures/f.toml:4:1: required (for task \"b\") turn variable \"issue_id\" has no value (rendering b/f)\n",
	},
	{
		// The same failure in two turns of one fixture, for two tasks: each task/fixture pair is named once.
		name: "one failure in several turns names each context once",
		files: `
-- fixtures/f.toml --
[[turn]]
issue_id = "X-1"

[[turn]]
issue_id = "X-2"
-- blocks/x.toml --
[[block]]
id = "rb"
body = "R"

[[block]]
id = "tb"
body = '{{index .issue_id 9}}'
`,
		want: "blocks/x.toml:7:11: block \"tb\": index: 9 out of range (length 3) (rendering a/f, b/f)\n",
	},
}

func TestProblems(t *testing.T) {
	for _, tt := range problemCases {
		t.Run(tt.name, func(t *testing.T) {
			if got := problems(withBase(tt.files)); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestMissingKey checks missingkey=error (docs/reference.md#functions): a name the data does not hold is an error, found statically or
// when the body runs, however the body reaches the data; it never renders as "<no value>".
func TestMissingKey(t *testing.T) {
	for _, body := range []string{
		`{{.nope}}`,
		`{{$.nope}}`,
		`{{(.).nope}}`,
		`{{with $d := .}}{{$d.nope}}{{end}}`,
		`{{with $}}{{.nope}}{{end}}`,
		`{{index . "nope"}}`,
	} {
		t.Run(body, func(t *testing.T) {
			fsys := withBase("-- blocks/x.toml --\n[[block]]\nid = \"rb\"\nbody = '" + body + "'\n" + okTurn)
			prog, diags := assemble.Load(fsys)
			var arts []*assemble.Artifact
			if len(diags) == 0 {
				arts, diags = prog.Build()
			}
			for _, a := range arts {
				if strings.Contains(a.Text, "<no value>") {
					t.Errorf("%s renders %q", a.Path, a.Text)
				}
			}
			if !strings.Contains(diags.String(), `"nope"`) {
				t.Errorf("no diagnostic names \"nope\": %q", diags.String())
			}
		})
	}
}

// TestRefOutput checks the bytes a ref produces in the runbook and from a turn block.
func TestRefOutput(t *testing.T) {
	fsys := withBase(`
-- blocks/x.toml --
[[block]]
id = "rb"
body = '{{if eq .task "a"}}See {{ref "target"}}.{{end}}{{if false}}{{ref "untitled"}}{{end}}ok'

[[block]]
id = "tb"
body = '{{if eq .task "a"}}Follow {{ref "target"}}.{{else}}No target.{{end}}'
`)
	want := map[string]string{
		"a/f.runbook.md": "## Target\n\nT\n\nU\n\nSee ## Target.ok\n",
		"a/f.turn-1.md":  "Follow ## Target.\n\n## Turn Two\n\n2\n",
		"b/f.runbook.md": "U\n\nok\n",
		"b/f.turn-1.md":  "No target.\n\n## Turn Two\n\n2\n",
	}
	diffTrees(t, tree(mustBuild(t, fsys)), want)
}

// TestMarkers checks docs/reference.md#target: no artifact may hold a target's begin or end marker, whether it comes from a block's
// text or from a value; untrusted values cannot produce one, since "<" and ">" are escaped.
func TestMarkers(t *testing.T) {
	const manifest = `
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["rb"]

[turn]
order = ["tb"]

[vars.tv]
scope = "session"
type = "string"
trust = "trusted"

[vars.uv]
scope = "session"
type = "string"

[vars.turn_text]
scope = "turn"
type = "text"
trust = "trusted"

[[target]]
name = "claude"
file = "CLAUDE.md"
begin = "<!-- BEGIN X -->"
end = "<!-- END X -->"
-- blocks/x.toml --
[[block]]
id = "rb"
body = '{{.tv}}{{.uv}}'

[[block]]
id = "tb"
body = '{{.turn_text}}'
`
	tests := []struct {
		name  string
		files string
		want  string
	}{
		{
			name:  "untrusted value holding a marker is escaped",
			files: "-- fixtures/f.toml --\n[session]\nuv = \"<!-- END X -->\"\n",
			want:  "",
		},
		{
			name:  "trusted value holding the end marker",
			files: "-- fixtures/f.toml --\n[session]\ntv = \"a <!-- END X --> b\"\n",
			want:  "fixtures/f.toml:2:1: trusted variable \"tv\" holds the end marker of target \"claude\" (value from fixture \"f\"), which reaches the runbook of task \"t\": installing it would corrupt CLAUDE.md; remove the marker from the value, or declare the variable untrusted, background or code so that markers in it are neutralised (rendering t/f)\n",
		},
		{
			name:  "turn message holding the begin marker",
			files: "-- fixtures/f.toml --\n[[turn]]\nturn_text = \"<!-- BEGIN X -->\"\n",
			want:  "fixtures/f.toml:2:1: trusted variable \"turn_text\" holds the begin marker of target \"claude\" (value from fixture \"f\"), which reaches the turn message of task \"t\": installing it would corrupt CLAUDE.md; remove the marker from the value, or declare the variable untrusted, background or code so that markers in it are neutralised (rendering t/f)\n",
		},
		{
			name: "block text holding the marker",
			files: `
-- blocks/y.toml --
[[block]]
id = "literal"
raw = true
body = "<!-- END X -->"
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["literal"]

[[target]]
name = "claude"
file = "CLAUDE.md"
begin = "<!-- BEGIN X -->"
end = "<!-- END X -->"
-- blocks/x.toml --
-- fixtures/f.toml --
`,
			want: "blocks/y.toml:4:9: the text of block \"literal\" holds the end marker of target \"claude\": installing it would corrupt CLAUDE.md; remove or reword that text\n",
		},
		{
			// Two trusted values in one block, each holding a different marker: each marker is blamed on the value
			// that holds it, not on the first value that holds a marker.
			name: "two trusted values, two markers",
			files: `
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["rb"]

[vars.a]
scope = "session"
type = "string"
trust = "trusted"

[vars.b]
scope = "session"
type = "string"
trust = "trusted"

[[target]]
name = "claude"
file = "CLAUDE.md"
begin = "<!-- BEGIN X -->"
end = "<!-- END X -->"
-- blocks/x.toml --
[[block]]
id = "rb"
body = '{{.a}} {{.b}}'
-- fixtures/f.toml --
[session]
a = "<!-- END X -->"
b = "<!-- BEGIN X -->"
`,
			want: "fixtures/f.toml:2:1: trusted variable \"a\" holds the end marker of target \"claude\" (value from fixture \"f\"), which reaches the runbook of task \"t\": installing it would corrupt CLAUDE.md; remove the marker from the value, or declare the variable untrusted, background or code so that markers in it are neutralised (rendering t/f)\n" +
				"fixtures/f.toml:3:1: trusted variable \"b\" holds the begin marker of target \"claude\" (value from fixture \"f\"), which reaches the runbook of task \"t\": installing it would corrupt CLAUDE.md; remove the marker from the value, or declare the variable untrusted, background or code so that markers in it are neutralised (rendering t/f)\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := archive(manifest)
			for name, f := range archive(tt.files) {
				fsys[name] = f
			}
			if got := problems(fsys); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// scopeProject, testdata/scope.txtar, has a block of every scope (docs/reference.md#scopes).
func scopeProject() fstest.MapFS { return testdataProject("scope.txtar") }

func TestScope(t *testing.T) {
	prog := mustLoad(t, scopeProject())
	want := map[string]blocks.Scope{
		"g":           blocks.ScopeGlobal,
		"konst":       blocks.ScopeGlobal,
		"listed":      blocks.ScopeGlobal, // its gate lists every task
		"raw":         blocks.ScopeGlobal, // a raw body uses nothing
		"tk":          blocks.ScopeTask,
		"ex":          blocks.ScopeTask,
		"uses-task":   blocks.ScopeTask,
		"base":        blocks.ScopeTask, // replaced
		"r":           blocks.ScopeTask, // replaces
		"sess":        blocks.ScopeSession,
		"sess-when":   blocks.ScopeSession,
		"sess-branch": blocks.ScopeSession, // decided from the parse tree
		"data":        blocks.ScopeSession, // the whole data holds the session variables
		"sess-gated":  blocks.ScopeSession, // session wins over task
		"tb":          blocks.ScopeTurn,
	}
	for id, scope := range want {
		if got, ok := prog.Scope(id); got != scope || !ok {
			t.Errorf("Scope(%q) = %s, %v; want %s", id, got, ok, scope)
		}
	}
	if got, ok := prog.Scope("nope"); ok {
		t.Errorf("Scope of an unknown block = %s, true; want false", got)
	}
}

// TestSourceMap checks the spans of each artifact: they tile it, the separator before a block and the final newline
// belong to the blocks, and each names its block and scope. It also checks the prefixes of docs/reference.md#scopes.
func TestSourceMap(t *testing.T) {
	arts := mustBuild(t, scopeProject())
	byPath := map[string]*assemble.Artifact{}
	for _, a := range arts {
		byPath[a.Path] = a
	}
	// Task a: "G" "C" "TK" "a" "N" "{{.name}}" "EX" "L" "BASE" "SW" "static" "3" "N", joined by "\n\n".
	// Offsets: G 0-1; C sep 1, text 3-4; TK 4/6-8; a 8/10-11; N 11/13-14; {{.name}} 14/16-25; EX 25/27-29;
	// L 29/31-32; BASE 32/34-38; SW 38/40-42; static 42/44-50; 3 50/52-53; N 53/55-56, final newline 57.
	a := byPath["a/f.runbook.md"]
	if want := "G\n\nC\n\nTK\n\na\n\nN\n\n{{.name}}\n\nEX\n\nL\n\nBASE\n\nSW\n\nstatic\n\n3\n\nN\n"; a.Text != want {
		t.Fatalf("runbook a = %q, want %q", a.Text, want)
	}
	wantSpans := "g:global:0-0-1 konst:global:1-3-4 tk:task:4-6-8 uses-task:task:8-10-11 sess:session:11-13-14 " +
		"raw:global:14-16-25 ex:task:25-27-29 listed:global:29-31-32 base:task:32-34-38 sess-when:session:38-40-42 " +
		"sess-branch:session:42-44-50 data:session:50-52-53 sess-gated:session:53-55-57"
	if got := spanString(a); got != wantSpans {
		t.Errorf("spans of a:\n got %s\nwant %s", got, wantSpans)
	}
	if got := a.PrefixEnd(blocks.ScopeGlobal); got != 6 {
		t.Errorf("global prefix of a ends at %d, want 6 (where tk's text starts)", got)
	}
	if got := a.PrefixEnd(blocks.ScopeTask); got != 13 {
		t.Errorf("task prefix of a ends at %d, want 13 (where sess's text starts)", got)
	}
	if got := a.PrefixEnd(blocks.ScopeSession); got != len(a.Text) {
		t.Errorf("session prefix of a ends at %d, want the whole runbook, %d", got, len(a.Text))
	}
	for off, id := range map[int]string{0: "g", 1: "konst", 3: "konst", 5: "tk", 56: "sess-gated"} {
		if s, ok := a.SpanAt(off); !ok || s.Block.ID != id {
			t.Errorf("SpanAt(%d) = %v, %v; want block %q", off, s.Block, ok, id)
		}
	}
	for _, off := range []int{-1, len(a.Text)} {
		if _, ok := a.SpanAt(off); ok {
			t.Errorf("SpanAt(%d) found a span outside the text", off)
		}
	}

	// Task b: "G" "C" "b" "N" "{{.name}}" "L" "R" "SW" "static" "3": the global prefix "G\n\nC\n\n" is the same.
	b := byPath["b/f.runbook.md"]
	if want := "G\n\nC\n\nb\n\nN\n\n{{.name}}\n\nL\n\nR\n\nSW\n\nstatic\n\n3\n"; b.Text != want {
		t.Fatalf("runbook b = %q, want %q", b.Text, want)
	}
	wantSpans = "g:global:0-0-1 konst:global:1-3-4 uses-task:task:4-6-7 sess:session:7-9-10 raw:global:10-12-21 " +
		"listed:global:21-23-24 r:task:24-26-27 sess-when:session:27-29-31 sess-branch:session:31-33-39 data:session:39-41-43"
	if got := spanString(b); got != wantSpans {
		t.Errorf("spans of b:\n got %s\nwant %s", got, wantSpans)
	}
	if a.Text[:a.PrefixEnd(blocks.ScopeGlobal)] != b.Text[:b.PrefixEnd(blocks.ScopeGlobal)] {
		t.Errorf("global prefixes differ: %q, %q", a.Text[:a.PrefixEnd(blocks.ScopeGlobal)], b.Text[:b.PrefixEnd(blocks.ScopeGlobal)])
	}

	// Segments cut b where its scope steps up, with each separator kept by the segment before it; the global block
	// "raw" after the session block "sess" (an inversion) is in the session segment, since the prefix before it
	// changes with the session.
	var segs []string
	for _, sg := range b.Segments() {
		segs = append(segs, sg.Scope.String()+" "+strconv.Quote(b.Text[sg.Start:sg.End]))
	}
	wantSegs := []string{`global "G\n\nC\n\n"`, `task "b\n\n"`,
		`session "N\n\n{{.name}}\n\nL\n\nR\n\nSW\n\nstatic\n\n3\n"`}
	if !reflect.DeepEqual(segs, wantSegs) {
		t.Errorf("segments of b:\n got %q\nwant %q", segs, wantSegs)
	}
	for _, tc := range []struct {
		spans []assemble.Span
		text  string
		want  []assemble.Segment
	}{
		{nil, "", nil},
		{[]assemble.Span{{0, 2, 0, nil, blocks.ScopeGlobal}}, "G\n", []assemble.Segment{{0, 2, blocks.ScopeGlobal}}},
		{[]assemble.Span{{0, 2, 0, nil, blocks.ScopeSession}}, "S\n", []assemble.Segment{{0, 2, blocks.ScopeSession}}},
		{[]assemble.Span{{0, 1, 0, nil, blocks.ScopeTask}, {1, 4, 3, nil, blocks.ScopeTask}}, "T\n\nU\n", []assemble.Segment{{0, 5, blocks.ScopeTask}}},
		{[]assemble.Span{{0, 1, 0, nil, blocks.ScopeGlobal}, {1, 5, 3, nil, blocks.ScopeSession}}, "G\n\nS\n",
			[]assemble.Segment{{0, 3, blocks.ScopeGlobal}, {3, 5, blocks.ScopeSession}}},
	} {
		got := (&assemble.Artifact{Text: tc.text, Spans: tc.spans}).Segments()
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Segments of %q = %v, want %v", tc.text, got, tc.want)
		}
	}

	turn := byPath["a/f.turn-1.md"]
	if got, want := spanString(turn), "tb:turn:0-0-5"; got != want {
		t.Errorf("spans of the turn: %s, want %s", got, want)
	}
	if got := turn.PrefixEnd(blocks.ScopeGlobal); got != 0 {
		t.Errorf("global prefix of a turn message ends at %d, want 0", got)
	}
}

// TestSourceMapNamesBlocks checks the spans of every build case: each names its block with that block's scope,
// starts with the separator (but the first) and then the block's heading.
func TestSourceMapNamesBlocks(t *testing.T) {
	for _, c := range buildCases {
		t.Run(c.name, func(t *testing.T) {
			prog := mustLoad(t, archive(c.files))
			arts, _ := prog.Build()
			for _, a := range arts {
				checkSpans(t, a)
				for _, s := range a.Spans {
					if scope, _ := prog.Scope(s.Block.ID); s.Scope != scope {
						t.Errorf("%s: span of %q has scope %s, Scope says %s", a.Path, s.Block.ID, s.Scope, scope)
					}
					text := a.Text[s.TextStart:s.End]
					if h := s.Block.Heading(); h != "" && !strings.HasPrefix(text, h+"\n\n") {
						t.Errorf("%s: span of %q does not start with its heading: %q", a.Path, s.Block.ID, text)
					}
					if s.Start > 0 {
						sep := prog.Project.Runbook.Separator
						if a.Kind == blocks.Turn {
							sep = prog.Project.Turn.Separator
						}
						if a.Text[s.Start:s.TextStart] != sep {
							t.Errorf("%s: span of %q starts with %q, not the separator", a.Path, s.Block.ID, a.Text[s.Start:s.TextStart])
						}
					}
				}
			}
		})
	}
}

// TestRuntimeAPI checks the values the Go API accepts and rejects.
func TestRuntimeAPI(t *testing.T) {
	prog := mustLoad(t, archive(`
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["rb"]

[turn]
order = ["tb"]

[vars.name]
scope = "session"
type = "string"
required = true

[vars.n]
scope = "session"
type = "int"

[vars.issue_id]
scope = "turn"
type = "string"
required = true
-- blocks/x.toml --
[[block]]
id = "rb"
when = "n"
body = '{{.name}} {{.n}}'

[[block]]
id = "tb"
body = '{{.issue_id}}'
-- fixtures/f.toml --
[session]
name = "A"

[[turn]]
issue_id = "X"
`))
	runbookErrs := []struct {
		name string
		task string
		vals values
		want string
	}{
		{"unknown task", "tt", values{"name": "A"}, `unknown task "tt" (did you mean "t"?); the tasks are: t`},
		{"unknown variable", "t", values{"name": "A", "nme": "B"}, `unknown session variable "nme" (did you mean "name"?)`},
		{"turn variable in the session", "t", values{"name": "A", "issue_id": "X"}, `"issue_id" is a turn variable, not a session variable`},
		{"wrong type", "t", values{"name": 1}, `variable "name" is a string, so its value must be a string, not an int`},
		{"missing required", "t", values{}, `required session variable "name" has no value`},
	}
	for _, tt := range runbookErrs {
		t.Run(tt.name, func(t *testing.T) {
			_, err := prog.Runbook(tt.task, tt.vals)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error = %v, want %s", err, tt.want)
			}
		})
	}
	// Render checks the task it is asked for as NewSession does, for a request of values and of a fixture alike.
	for _, req := range []assemble.RenderRequest{
		{Task: "tt", Session: values{"name": "A"}},
		{Task: "tt", Fixture: prog.Project.Fixture("f")},
	} {
		if _, err := prog.Render(req); err == nil || !strings.HasSuffix(err.Error(), `unknown task "tt" (did you mean "t"?); the tasks are: t`) {
			t.Errorf("Render of task tt (fixture %v): %v", req.Fixture != nil, err)
		}
	}
	// int values of any Go integer type gate alike, and so does a whole float64 (how JSON decodes numbers).
	for _, n := range []any{5, int64(5), int32(5), uint8(5), 5.0} {
		a, err := prog.Runbook("t", values{"name": "A", "n": n})
		if err != nil || a.Text != "A 5\n" {
			t.Errorf("n = %T(5): %v, %+v", n, err, a)
		}
	}
	a, err := prog.Runbook("t", values{"name": "A", "n": 0})
	if err != nil || a.Text != "" || len(a.Spans) != 0 {
		t.Errorf("n = 0: %v, %+v", err, a)
	}
	s, err := prog.NewSession("t", values{"name": "A"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Task() != "t" {
		t.Errorf("Task() = %q", s.Task())
	}
	if _, err := s.Turn(values{}); err == nil || err.Error() != `required turn variable "issue_id" has no value` {
		t.Errorf("turn without issue_id: %v", err)
	}
	if turn, err := s.Turn(values{"issue_id": "X\nY"}); err != nil || turn.Text != "X Y\n" {
		t.Errorf("turn: %v, %+v", err, turn)
	}
}
