package explain_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/explain"
	"github.com/promptc/promptc/report"
)

// load compiles a project given as file texts, failing the test on any diagnostic.
func load(t *testing.T, files map[string]string) *assemble.Program {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	prog, diags := assemble.Load(fsys)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	return prog
}

// TestArtifactErrors: every way an artifact path can name nothing is an error that says which part is wrong.
func TestArtifactErrors(t *testing.T) {
	prog := demo(t)
	noTurns := load(t, map[string]string{
		"promptc.toml":    "name = \"x\"\ntasks = [\"a\"]\n[runbook]\norder = [\"b\"]\n",
		"blocks/b.toml":   "[[block]]\nid = \"b\"\nbody = \"B.\"\n",
		"fixtures/f.toml": "[session]\n",
	})
	for _, tc := range []struct {
		prog       *assemble.Program
		path, want string
	}{
		{prog, "chat/basic.md", `"chat/basic.md" is not an artifact path: use TASK/FIXTURE.runbook.md or TASK/FIXTURE.turn-K.md`},
		{prog, "chta/basic.runbook.md", `chta/basic.runbook.md: unknown task "chta" (did you mean "chat"?)`},
		{prog, "chat/lead.runbook.md/x", `"chat/lead.runbook.md/x" is not an artifact path: use TASK/FIXTURE.runbook.md or TASK/FIXTURE.turn-K.md`},
		{prog, "chat/basik.runbook.md", `chat/basik.runbook.md: no fixture "basik" (did you mean "basic"?)`},
		{prog, "issue/lead.runbook.md", `issue/lead.runbook.md: fixture "lead" does not render task "issue"`},
		{prog, "chat/lead.turn-2.md", `chat/lead.turn-2.md: fixture "lead" has 1 turn`},
		{noTurns, "a/f.turn-1.md", `a/f.turn-1.md: this project has no turn message ([turn] order is empty)`},
	} {
		a, err := explain.Artifact(tc.prog, tc.path)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Artifact(%s) = %v, %v; want the error %s", tc.path, a, err, tc.want)
		}
		if _, lerr := explain.Line(tc.prog, tc.path, 1); err != nil && (lerr == nil || lerr.Error() != err.Error()) {
			t.Errorf("Line(%s, 1) = %v, want Artifact's error", tc.path, lerr)
		}
	}
	_, err := explain.Line(noTurns, "a/f.runbook.md", 3)
	if want := "a/f.runbook.md has 1 line; line 3 is out of range"; err == nil || err.Error() != want {
		t.Errorf("Line past the end of a one-line artifact: %v, want %s", err, want)
	}
}

// TestBlockFixtureExcludesTask: a fixture that does not render the task is refused as the loader words it.
func TestBlockFixtureExcludesTask(t *testing.T) {
	prog := demo(t)
	_, err := explain.Block(prog, "issue", "safety", prog.Project.Fixture("lead"))
	var fe *blocks.FixtureError
	if !errors.As(err, &fe) || fe.Problem != blocks.FixtureExcludesTask || fe.Task != "issue" || fe.Name != "lead" {
		t.Errorf("Block with a fixture that leaves the task out: %v, want a FixtureError", err)
	}
}

// TestLineSegments: a line is named by the segment holding it, in text and JSON alike, and a separator line is
// traced no further than its block.
func TestLineSegments(t *testing.T) {
	prog := demo(t)
	a, err := explain.Artifact(prog, "chat/lead.runbook.md")
	if err != nil {
		t.Fatal(err)
	}
	find := func(text string) int {
		for i, l := range strings.Split(a.Text, "\n") {
			if l == text {
				return i + 1
			}
		}
		t.Fatalf("no line %q in:\n%s", text, a.Text)
		return 0
	}
	for _, tc := range []struct {
		line, segment, jsonSegment, part, block string
	}{
		{"# Acme Agent", "global prefix", "global", "heading", "header"},
		{"Follow the chat workflow.", "task prefix", "task", "body", "workflow"},
		{"You lead the squad.", "session part", "session", "body", "leader"},
	} {
		n := find(tc.line)
		r, err := explain.Line(prog, a.Path, n)
		if err != nil {
			t.Fatal(err)
		}
		var text, js bytes.Buffer
		if err := r.Write(&text, report.Text); err != nil {
			t.Fatal(err)
		}
		if err := r.Write(&js, report.JSON); err != nil {
			t.Fatal(err)
		}
		head := strings.SplitN(text.String(), "\n", 3)
		if want := `  block "` + tc.block + `" (`; len(head) < 2 || !strings.HasPrefix(head[1], want) || !strings.HasSuffix(head[1], ", "+tc.segment) {
			t.Errorf("line %d %q: text report %q, want block %s in the %s", n, tc.line, text.String(), tc.block, tc.segment)
		}
		var got struct {
			Line                       int
			Text, Block, Segment, Part string
			Source                     string
			From                       []struct{ Kind, Name, At string }
			Budget                     *json.RawMessage
		}
		if err := json.Unmarshal(js.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Line != n || got.Text != tc.line || got.Block != tc.block || got.Segment != tc.jsonSegment || got.Part != tc.part ||
			got.Source != r.Source.String() || len(got.From) != len(r.From) || got.Budget != nil {
			t.Errorf("line %d: JSON %+v, want line %q of block %s, segment %s, part %s, source %s", n, got, tc.line, tc.block, tc.jsonSegment, tc.part, r.Source)
		}
	}
	// The blank line between the heading "# Acme Agent" and its body.
	r, err := explain.Line(prog, a.Path, 2)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	want := `chat/lead.runbook.md:2: ""
  block "header" (blocks/core.toml:5:1), scope global, global prefix
  separator line at blocks/core.toml:5:1
`
	if r.Part != "separator" || len(r.From) != 0 || text.String() != want {
		t.Errorf("separator line: part %q, from %v, text:\n%s\nwant:\n%s", r.Part, r.From, text.String(), want)
	}
}

// budgetProject is a turn message over its budget: the budget drops the items of two shrink lists, then omits the
// block of the lower priority that is left.
var budgetProject = map[string]string{
	"promptc.toml": `name  = "budget"
tasks = ["issue"]

[runbook]
order = ["intro"]

[turn]
order      = ["assignment", "history", "siblings"]
max_tokens = 12

[vars.issue_id]
scope    = "turn"
type     = "string"
required = true

[vars.comments]
scope   = "turn"
type    = "list"
omitted = "({n} more comments omitted)"
shrink  = true

[vars.siblings]
scope  = "turn"
type   = "records"
shrink = true
[vars.siblings.fields.id]
type = "string"
`,
	"blocks/all.toml": `[[block]]
id   = "intro"
body = "You work on issues."

[[block]]
id       = "assignment"
priority = 10
body     = "Work on {{.issue_id}}."

[[block]]
id       = "history"
title    = "History"
priority = 5
body     = "{{range .comments}}- {{.}}\n{{end}}"

[[block]]
id    = "siblings"
title = "Sibling runs"
body  = "{{range .siblings}}- {{.id}}\n{{end}}"
`,
	"fixtures/alpha.toml": `[[turn]]
issue_id = "ISS-1"
comments = ["first comment here", "second comment here", "third comment here"]
siblings = [{id = "run-1"}, {id = "run-2"}]

[[turn]]
issue_id = "ISS-2"
`,
}

// TestBudget: what the turn budget did reaches the block report (a "budget" reason at max_tokens, in place of
// "empty", and a section per message it cut), the line report of a message it cut, and both JSON reports; a
// message within its budget is not listed.
func TestBudget(t *testing.T) {
	prog := load(t, budgetProject)
	r, err := explain.Block(prog, "issue", "history", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Budget) != 1 || r.Budget[0].Artifact != "issue/alpha.turn-1.md" {
		t.Fatalf("Budget = %+v, want the first turn message alone", r.Budget)
	}
	b := r.Budget[0].Budget
	last := r.Why[len(r.Why)-1]
	wantWhy := `the turn budget dropped 3 of its "comments" items in issue/alpha.turn-1.md; omitted it from issue/alpha.turn-1.md`
	if r.Renders || last.Kind != "budget" || last.Text != wantWhy || last.At.String() != "promptc.toml:9:14" {
		t.Errorf("renders %v, last reason %+v; want the budget's, at max_tokens: %s", r.Renders, last, wantWhy)
	}
	for _, x := range r.Why {
		if x.Kind == "empty" {
			t.Errorf("reason %+v: the budget omitted the block, its body did not render empty", x)
		}
	}
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	section := "turn budget:\n  issue/alpha.turn-1.md: " + strings.TrimPrefix(b.String(), "turn budget: ") + "\n"
	if !strings.HasSuffix(text.String(), section) || !strings.Contains(section, `omitted block "history"`) {
		t.Errorf("text report:\n%s\nwant it to end with:\n%s", text.String(), section)
	}

	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	type jsonCut struct {
		Block, Var    string
		Items, Tokens int
	}
	type jsonBudget struct {
		Artifact      string
		MaxTokens     int `json:"max_tokens"`
		Before, After int
		Exceeded      bool
		Cuts          []jsonCut
	}
	var got struct{ Budget []jsonBudget }
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Budget) != 1 {
		t.Fatalf("JSON budget %+v, want one message", got.Budget)
	}
	g := got.Budget[0]
	if g.Artifact != "issue/alpha.turn-1.md" || g.MaxTokens != 12 || g.Before != b.Before || g.After != b.After || g.Exceeded != b.Exceeded || len(g.Cuts) != len(b.Cuts) {
		t.Fatalf("JSON budget %+v, want %+v", g, b)
	}
	for i, c := range b.Cuts {
		if (jsonCut{c.Block, c.Var, c.Items, c.Tokens}) != g.Cuts[i] {
			t.Errorf("cut %d: %+v, want %+v", i, g.Cuts[i], c)
		}
	}

	// A block the budget left alone is not blamed on it, though the message it is in was cut.
	r, err = explain.Block(prog, "issue", "assignment", nil)
	if err != nil {
		t.Fatal(err)
	}
	if x := r.Why[len(r.Why)-1]; x.Kind == "budget" || !r.Renders || len(r.Placements) != 2 {
		t.Errorf("assignment: renders %v in %d messages, last reason %+v; want both messages and no budget reason", r.Renders, len(r.Placements), x)
	}

	// A line of the message the budget cut ends its text report with the budget's line; a line of the second
	// message, within the budget, does not, and its JSON has no "budget".
	lr, err := explain.Line(prog, "issue/alpha.turn-1.md", 1)
	if err != nil {
		t.Fatal(err)
	}
	text.Reset()
	if err := lr.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(text.String(), "\n  "+b.String()+"\n") {
		t.Errorf("line report of a cut message:\n%s\nwant it to end with %q", text.String(), b.String())
	}
	js.Reset()
	if err := lr.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var line struct{ Budget *jsonBudget }
	if err := json.Unmarshal(js.Bytes(), &line); err != nil {
		t.Fatal(err)
	}
	if line.Budget == nil || line.Budget.Artifact != "" || line.Budget.Before != b.Before || len(line.Budget.Cuts) != len(b.Cuts) {
		t.Errorf("line JSON budget %+v, want the message's, without an artifact", line.Budget)
	}
	lr, err = explain.Line(prog, "issue/alpha.turn-2.md", 1)
	if err != nil {
		t.Fatal(err)
	}
	text.Reset()
	if err := lr.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "turn budget") || lr.Budget.Over() {
		t.Errorf("line report of a message within its budget:\n%s", text.String())
	}
}
