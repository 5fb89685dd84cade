package analysis

import (
	"strings"
	"testing"
	"testing/fstest"
)

// small is a project with one of each thing a hover describes: a lookup table, a template, fixtures with and
// without turns, a variable required in one task with a pattern, a records variable with fields, a negated when,
// and a task that no fixture renders.
var small = map[string]string{
	"promptc.toml": `name  = "small"
tasks = ["chat", "review", "lonely"]

[runbook]
order = ["intro", "who", "quiet"]

[turn]
order = ["step"]

[vars.who]
scope    = "session"
type     = "string"
pattern  = "^[A-Z][a-z]+$"
required = ["review"]

[vars.flag]
scope = "session"
type  = "bool"

[vars.repos]
scope = "session"
type  = "records"
[vars.repos.fields.url]
type = "string"
[vars.repos.fields.name]
type = "string"

[vars.step]
scope = "turn"
type  = "string"
`,
	"blocks/a.toml": `[const]
boundary = "Stay in the repository."

[const.names]
a = "Alpha"
b = "Beta"

[[block]]
id       = "intro"
tasks    = ["chat", "review"]
template = "intro.md"

[[block]]
id    = "who"
title = "Who"
body  = "You are {{.who}}, {{lookup \"names\" \"a\"}}.{{range .repos}} {{.url}}{{end}}"

[[block]]
id   = "quiet"
when = "!flag"
body = "{{const \"boundary\"}}"

[[block]]
id    = "step"
tasks = ["review"]
body  = "Step {{.step}}."
`,
	"templates/intro.md": "Hello.\n",
	"fixtures/one.toml": `tasks = ["chat"]
[session]
who   = "Ada"
flag  = false
repos = [{url = "https://example.com/a", name = "a"}]
`,
	"fixtures/two.toml": `tasks = ["review"]
[session]
who = "Bo"

[[turn]]
step = "1"
`,
}

func loadSmall(t *testing.T, over map[string]string) *Snapshot {
	t.Helper()
	fsys := fstest.MapFS{}
	for k, v := range small {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	s := Load(Overlay(fsys, over))
	if d := s.Diagnostics(); len(d) > 0 && over == nil {
		t.Fatalf("small project: %v", d)
	}
	return s
}

// TestHoverKinds: the hover of each kind of name says what docs/editors.md promises, word for word where it is a
// fixed phrase.
func TestHoverKinds(t *testing.T) {
	s := loadSmall(t, nil)
	for _, tc := range []struct {
		name, file, needle string
		delta              int
		want               []string
		not                []string
	}{
		{"lookup table", "blocks/a.toml", `lookup \"names`, 9, []string{`**lookup table "names"** (blocks/a.toml:4:1)`, "- `a` = \"Alpha\"\n- `b` = \"Beta\"\n", "used 1 time:\n- blocks/a.toml:16:39\n"}, nil},
		{"constant", "blocks/a.toml", "boundary =", 0, []string{`**constant "boundary"** (blocks/a.toml:2:1), 23 bytes`, "```markdown\nStay in the repository.\n```", "used 1 time:"}, nil},
		{"template", "blocks/a.toml", `"intro.md"`, 2, []string{"**template** `templates/intro.md`\n", "used 1 time:\n- blocks/a.toml:11:13\n"}, nil},
		{"variable required in a task, with a pattern", "promptc.toml", "[vars.who]", 7, []string{`**variable "who"** (promptc.toml:10:1)`, `scope session, type string, trust untrusted, required in ["review"], pattern "^[A-Z][a-z]+$"`}, nil},
		{"records variable and its fields", "promptc.toml", "[vars.repos]", 7, []string{"scope session, type records, optional\n\nfields:\n- `name` string\n- `url` string\n"}, []string{"trust"}},
		{"negated when", "blocks/a.toml", `when = "!flag"`, 9, []string{`**variable "flag"**`, "type bool, optional"}, nil},
		{"block with when", "promptc.toml", `"quiet"`, 2, []string{`tasks: ["*"], when "!flag"`, `in task "chat", fixture "one":`, "Stay in the repository."}, nil},
		{"turn block, rendered from the fixture with turns", "promptc.toml", `"step"`, 2, []string{`in task "review", fixture "two":`, "Step 1."}, nil},
		{"task with one fixture", "promptc.toml", `"chat"`, 2, []string{`**task "chat"** (promptc.toml:2:10)`, `rendered by fixture ["one"]`, `runbook blocks (by the gates, when conditions aside): ["intro", "who", "quiet"]`}, nil},
		{"task no fixture renders", "promptc.toml", `"lonely"`, 2, []string{"no fixture renders it: it is unguarded", `["who", "quiet"]`}, nil},
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
			for _, w := range tc.not {
				if strings.Contains(h.Text, w) {
					t.Errorf("hover holds %q:\n%s", w, h.Text)
				}
			}
		})
	}
}

// TestHoverUnknown: over a name the project does not define, the hover says so, with the closest defined name.
func TestHoverUnknown(t *testing.T) {
	s := loadSmall(t, map[string]string{"blocks/b.toml": `[[block]]
id   = "typos"
body = "{{const \"boundry\"}} {{.wh}} {{range .repos}}{{.ur}}{{end}} {{ref \"intr\"}}"
`, "promptc.toml": strings.Replace(small["promptc.toml"], `"quiet"]`, `"quiet", "typos"]`, 1)})
	for _, tc := range []struct{ needle, want string }{
		{`boundry`, `unknown constant "boundry" (did you mean "boundary"?)`},
		{`.wh}}`, `unknown variable "wh" (did you mean "who"?)`},
		{`.ur}}`, `unknown field "ur" of variable "repos"`},
		{`intr`, `unknown block "intr" (did you mean "intro"?)`},
	} {
		off := offsetOf(t, s, "blocks/b.toml", tc.needle, 0, 1)
		h, ok := s.Hover("blocks/b.toml", off)
		if !ok || !strings.HasPrefix(h.Text, tc.want) {
			t.Errorf("hover over %s: %v %q, want %q", tc.needle, ok, h.Text, tc.want)
		}
	}
	// A project that does not compile renders no block text in a hover, and says what it can.
	h, ok := s.Hover("promptc.toml", offsetOf(t, s, "promptc.toml", `"who"`, 0, 2))
	if !ok || strings.Contains(h.Text, "bytes") || !strings.Contains(h.Text, `**block "who"**: `+"`## Who`") {
		t.Errorf("hover of a block in a project with errors: %v %q", ok, h.Text)
	}
}

// TestHoverFixture: over a fixture's name in extends, the fixture's file, tasks, turns and users.
func TestHoverFixture(t *testing.T) {
	s := loadSmall(t, map[string]string{"fixtures/three.toml": "extends = \"two\"\n"})
	h, ok := s.Hover("fixtures/three.toml", offsetOf(t, s, "fixtures/three.toml", `"two"`, 0, 2))
	want := "**fixture \"two\"** (fixtures/two.toml): tasks [\"review\"], 1 turn\n\nused 1 time:\n- fixtures/three.toml:1:12\n"
	if !ok || h.Text != want {
		t.Errorf("hover of an extended fixture: %v %q, want %q", ok, h.Text, want)
	}
}
