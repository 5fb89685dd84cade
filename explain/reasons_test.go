package explain_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/promptc/promptc/explain"
)

// reasonsProject has a block of each rarer kind: a replacement decided by a turn variable, a negated when, a body
// that can render empty, a "*" gate, and a task no fixture renders.
var reasonsProject = map[string]string{
	"promptc.toml": `name  = "reasons"
tasks = ["a", "lonely"]

[runbook]
order = ["all", "note", "quiet"]

[turn]
order = ["step"]

[vars.note]
scope = "session"
type  = "string"

[vars.loud]
scope = "session"
type  = "bool"

[vars.urgent]
scope = "turn"
type  = "bool"
`,
	"blocks/b.toml": `[[block]]
id    = "all"
tasks = ["*"]
body  = "For every task."

[[block]]
id   = "note"
body = "{{if .note}}Note: {{.note}}{{end}}"

[[block]]
id   = "quiet"
when = "!loud"
body = "Speak softly."

[[block]]
id   = "step"
body = "Take a step."

[[block]]
id       = "rush"
replaces = "step"
reason   = "urgent turns skip the preamble"
when     = "urgent"
body     = "Run."
`,
	"fixtures/mixed.toml": `tasks = ["a"]
[session]
note = ""
loud = true

[[turn]]
urgent = true

[[turn]]
urgent = false
`,
	"fixtures/always.toml": `tasks = ["a"]
[[turn]]
urgent = true
`,
	"fixtures/never.toml": `tasks = ["a"]
[[turn]]
urgent = false
`,
	"fixtures/none.toml": `tasks = ["a"]
[session]
note = "n"
`,
}

// TestBlockReasons: the reasons each rarer rule gives, word for word.
func TestBlockReasons(t *testing.T) {
	prog := load(t, reasonsProject)
	for _, tc := range []struct {
		task, block, fixture string
		want                 []string // "kind: text" of every reason
	}{
		{"a", "all", "mixed", []string{"order: it is entry 1 of runbook.order", `gate: tasks admits every task ("*")`}},
		{"a", "note", "mixed", []string{"order: it is entry 2 of runbook.order", "gate: tasks is not set, so it admits every task",
			`empty: its body renders empty with fixture "mixed", so it is left out`}},
		{"a", "quiet", "mixed", []string{"order: it is entry 3 of runbook.order", "gate: tasks is not set, so it admits every task",
			`when: when = "!loud": it renders only when session variable "loud" is not truthy; it does not hold in fixture "mixed"`}},
		{"a", "step", "mixed", []string{"order: it is entry 1 of turn.order", "gate: tasks is not set, so it admits every task",
			`replaced: block "rush" replaces it in this task when "urgent" holds (reason: urgent turns skip the preamble); it holds in turn 1 of fixture "mixed", not in 2`}},
		{"a", "step", "always", []string{"order: it is entry 1 of turn.order", "gate: tasks is not set, so it admits every task",
			`replaced: block "rush" replaces it in this task when "urgent" holds (reason: urgent turns skip the preamble); it holds in every turn of fixture "always"`}},
		{"a", "rush", "never", []string{`replaces: it replaces "step", taking its place in turn.order where its gate admits the task (reason: urgent turns skip the preamble)`,
			"gate: tasks is not set, so it admits every task",
			`when: when = "urgent": it renders only when turn variable "urgent" is truthy; it holds in no turn of fixture "never"`}},
		{"a", "rush", "none", []string{`replaces: it replaces "step", taking its place in turn.order where its gate admits the task (reason: urgent turns skip the preamble)`,
			"gate: tasks is not set, so it admits every task",
			`when: when = "urgent": it renders only when turn variable "urgent" is truthy; fixture "none" has no turns`}},
		{"lonely", "quiet", "", []string{"order: it is entry 3 of runbook.order", "gate: tasks is not set, so it admits every task",
			`when: when = "!loud": it renders only when session variable "loud" is not truthy (no fixture renders the task to decide it)`}},
	} {
		t.Run(tc.task+"/"+tc.block+"/"+tc.fixture, func(t *testing.T) {
			var r *explain.BlockReport
			var err error
			if tc.fixture == "" {
				r, err = explain.Block(prog, tc.task, tc.block, nil)
			} else {
				r, err = explain.Block(prog, tc.task, tc.block, prog.Project.Fixture(tc.fixture))
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, x := range r.Why {
				got = append(got, x.Kind+": "+x.Text)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("why:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if r.Renders != (len(r.Placements) > 0) {
				t.Errorf("Renders %v with placements %v", r.Renders, r.Placements)
			}
		})
	}
}

// TestBlockNoFixture: a task no fixture renders is explained without a placement, and the report says why.
func TestBlockNoFixture(t *testing.T) {
	prog := load(t, reasonsProject)
	r, err := explain.Block(prog, "lonely", "all", nil)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if r.Fixture != "" || r.FixtureGuessed || r.Renders || !strings.HasSuffix(text.String(), "\nplacement: no fixture renders the task\n") {
		t.Errorf("fixture %q (guessed %v), renders %v:\n%s", r.Fixture, r.FixtureGuessed, r.Renders, text.String())
	}
}
