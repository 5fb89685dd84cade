package assemble_test

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// byteCounter counts one token per byte, so that the budget's arithmetic can be followed by hand.
type byteCounter struct{}

func (byteCounter) Count(s string) int { return len(s) }

// budgetProject: a turn message of three blocks. "notes" (priority 0) prints a shrinkable list with an omitted line,
// "files" (priority 1) shrinkable records, "ask" (priority 2) a fixed line. Turn 1's message, 61 bytes:
//
//	notes: n1 n2 n3 (1 more)\n\nfiles: a.go b.go\n\nask: fix the bug\n
const budgetProject = `
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["rb"]

[turn]
order = ["notes", "files", "ask"]
max_tokens = MAX

[vars.notes]
scope = "turn"
type = "list"
max_items = 3
omitted = "({n} more)"
shrink = true
trust = "trusted"

[vars.files]
scope = "turn"
type = "records"
shrink = true
[vars.files.fields.path]
type = "string"
trust = "trusted"
-- blocks/x.toml --
[[block]]
id = "rb"
body = "runbook"

[[block]]
id = "notes"
body = 'notes:{{range .notes}} {{.}}{{end}}'

[[block]]
id = "files"
priority = 1
body = 'files:{{range .files}} {{.path}}{{end}}{{with dropped "files"}} (+{{.}}){{end}}'

[[block]]
id = "ask"
priority = 2
body = 'ask: fix the bug'
-- fixtures/f.toml --
[[turn]]
notes = ["n1", "n2", "n3", "n4"]
files = [{path = "a.go"}, {path = "b.go"}]
`

func budgetBuild(t *testing.T, max string) *assemble.Artifact {
	t.Helper()
	prog := mustLoad(t, archive(strings.Replace(budgetProject, "MAX", max, 1)))
	prog.SetTokenCounter(byteCounter{})
	arts, diags := prog.Build()
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for _, a := range arts {
		if a.Kind == blocks.Turn {
			return a
		}
	}
	t.Fatal("no turn message")
	return nil
}

func TestTurnBudget(t *testing.T) {
	tests := []struct {
		max, text, report string
	}{
		{"61", "notes: n1 n2 n3 (1 more)\n\nfiles: a.go b.go\n\nask: fix the bug\n",
			"turn budget: 61 tokens, within max_tokens = 61"},
		// One note dropped: its omitted line counts it with the one the limits dropped.
		{"60", "notes: n1 n2 (2 more)\n\nfiles: a.go b.go\n\nask: fix the bug\n",
			`turn budget: 61 tokens, over max_tokens = 60: dropped 1 item of "notes" from block "notes"; now 58 tokens`},
		{"52", "notes: (4 more)\n\nfiles: a.go b.go\n\nask: fix the bug\n",
			`turn budget: 61 tokens, over max_tokens = 52: dropped 3 items of "notes" from block "notes"; now 52 tokens`},
		// Emptied, the notes block still does not fit: it is omitted.
		{"51", "files: a.go b.go\n\nask: fix the bug\n",
			`turn budget: 61 tokens, over max_tokens = 51: dropped 3 items of "notes" from block "notes", omitted block "notes"; now 35 tokens`},
		// Then the next priority shrinks, one record at a time, dropped counting them.
		{"33", "files: (+2)\n\nask: fix the bug\n",
			`turn budget: 61 tokens, over max_tokens = 33: dropped 3 items of "notes" from block "notes", omitted block "notes", dropped 2 items of "files" from block "files"; now 30 tokens`},
		// The highest priority present is never omitted: the budget is exceeded.
		{"10", "ask: fix the bug\n",
			`turn budget: 61 tokens, over max_tokens = 10: dropped 3 items of "notes" from block "notes", omitted block "notes", dropped 2 items of "files" from block "files", omitted block "files"; now 17 tokens, still over the budget: blocks of the highest priority are never omitted`},
	}
	for _, tt := range tests {
		t.Run(tt.max, func(t *testing.T) {
			a := budgetBuild(t, tt.max)
			if a.Text != tt.text {
				t.Errorf("turn message = %q, want %q", a.Text, tt.text)
			}
			if got := a.Budget.String(); got != tt.report {
				t.Errorf("report = %s\nwant     %s", got, tt.report)
			}
			if b := budgetBuild(t, tt.max); b.Text != a.Text || b.Budget.String() != a.Budget.String() {
				t.Errorf("a second build differs: %q, %s", b.Text, b.Budget)
			}
			if a.Budget.After != (byteCounter{}).Count(a.Text) {
				t.Errorf("After = %d, but the message has %d tokens", a.Budget.After, len(a.Text))
			}
		})
	}
}

// Among blocks of equal priority, the later one is cut first; the runbook is never touched.
func TestTurnBudgetEqualPriorities(t *testing.T) {
	src := strings.Replace(budgetProject, "MAX", "40", 1)
	src = strings.Replace(src, "priority = 1\n", "", 1) // files and notes: both priority 0, files later
	src = strings.Replace(src, `body = "runbook"`, `body = "runbook {{range .rb}}{{.}}{{end}}"`, 1)
	src = strings.Replace(src, "[vars.files]", "[vars.rb]\nscope = \"session\"\ntype = \"list\"\nshrink = true\n\n[vars.files]", 1)
	src = strings.Replace(src, "[[turn]]", "[session]\nrb = [\"x\", \"y\"]\n\n[[turn]]", 1)
	prog := mustLoad(t, archive(src))
	prog.SetTokenCounter(byteCounter{})
	arts, diags := prog.Build()
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if got, want := arts[0].Text, "runbook xy\n"; got != want {
		t.Errorf("runbook = %q, want %q", got, want)
	}
	if got, want := arts[1].Text, "notes: n1 n2 (2 more)\n\nask: fix the bug\n"; got != want {
		t.Errorf("turn message = %q, want %q", got, want)
	}
	if got, want := arts[1].Budget.String(), `turn budget: 61 tokens, over max_tokens = 40: dropped 2 items of "files" from block "files", omitted block "files", dropped 1 item of "notes" from block "notes"; now 40 tokens`; got != want {
		t.Errorf("report = %s\nwant     %s", got, want)
	}
}

// The Go API's turn message carries the budget's report; tokens are o200k_base counts unless the program is given
// another counter.
func TestTurnBudgetGoAPI(t *testing.T) {
	prog := mustLoad(t, archive(strings.Replace(budgetProject, "MAX", "12", 1)))
	s, err := prog.NewSession("t", nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Turn(blocks.Values{"notes": []string{"n1", "n2"}, "files": []map[string]string{{"path": "a.go"}}})
	if err != nil {
		t.Fatal(err)
	}
	b := a.Budget
	if b == nil || !b.Over() || b.After > b.Before || len(b.Cuts) == 0 || b.Cuts[0].Block != "notes" {
		t.Fatalf("budget = %+v", b)
	}
	if !strings.HasSuffix(a.Text, "ask: fix the bug\n") {
		t.Errorf("turn message = %q: the highest priority block is never omitted", a.Text)
	}
}

func TestTurnBudgetDeclarations(t *testing.T) {
	tests := []struct{ name, from, to, want string }{
		{"max_tokens on the runbook", "[runbook]\norder = [\"rb\"]\n", "[runbook]\norder = [\"rb\"]\nmax_tokens = 5\n",
			`promptc.toml:6:1: max_tokens applies only to [turn]: the runbook is the cached prefix, never cut to a budget`},
		{"priority on a runbook block", "id = \"rb\"\n", "id = \"rb\"\npriority = 2\n",
			`blocks/x.toml:3:1: block "rb" is a runbook block, but priority orders the cuts of the turn budget ([turn] max_tokens), which never touches the runbook: remove priority`},
		{"shrink on a string", "shrink = true\ntrust = \"trusted\"\n", "shrink = true\ntrust = \"trusted\"\n[vars.s]\nscope = \"turn\"\ntype = \"string\"\nshrink = true\n",
			`promptc.toml:21:1: shrink applies only to list and records variables; "s" is of type string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(strings.Replace(budgetProject, "MAX", "9", 1), tt.from, tt.to, 1)
			_, diags := assemble.Load(archive(src))
			if got := strings.TrimSpace(diags.String()); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// The bytes of a block the budget shrank trace back to the values it was rendered with.
func TestTurnBudgetOrigins(t *testing.T) {
	a := budgetBuild(t, "60")
	off := strings.Index(a.Text, "(2 more)")
	o, ok := a.Origin(off)
	if !ok || o.Kind != assemble.OriginValue || o.Name != "notes" {
		t.Errorf("Origin(%d) = %+v, %v; want the variable notes", off, o, ok)
	}
}

// A block of the highest priority present is never omitted, not even by emptying its lists: {{last .items}} keeps
// its first item rather than render nothing, heading and all (docs/reference.md#turn-budget). A lower block that
// shrinking empties is gone as before.
func TestTurnBudgetHighestNeverVanishes(t *testing.T) {
	const src = `
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["rb"]

[turn]
order = ["latest", "older", "ask"]
max_tokens = MAX

[vars.items]
scope = "turn"
type = "list"
shrink = true
trust = "trusted"
-- blocks/x.toml --
[[block]]
id = "rb"
body = "runbook"

[[block]]
id = "latest"
title = "Latest"
priority = 3
body = '{{last .items}}'

[[block]]
id = "older"
priority = 3
body = '{{if gt (len .items) 1}}older: {{index .items 0}}{{end}}'

[[block]]
id = "ask"
priority = 1
body = 'ask: fix the bug'
-- fixtures/f.toml --
[[turn]]
items = ["one", "two", "three"]
`
	tests := []struct{ max, text, report string }{
		// Each block of priority 3 keeps the items it last rendered something with: "latest" its first item,
		// "older" two (with one it renders nothing).
		{"5", "## Latest\n\none\n\nolder: one\n",
			`turn budget: 47 tokens, over max_tokens = 5: omitted block "ask", dropped 1 item of "items" from block "older", dropped 2 items of "items" from block "latest"; now 27 tokens, still over the budget: blocks of the highest priority are never omitted`},
		{"28", "## Latest\n\ntwo\n\nolder: one\n",
			`turn budget: 47 tokens, over max_tokens = 28: omitted block "ask", dropped 1 item of "items" from block "older", dropped 1 item of "items" from block "latest"; now 27 tokens`},
	}
	for _, tt := range tests {
		t.Run(tt.max, func(t *testing.T) {
			prog := mustLoad(t, archive(strings.Replace(src, "MAX", tt.max, 1)))
			prog.SetTokenCounter(byteCounter{})
			arts, diags := prog.Build()
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			a := arts[1]
			if a.Text != tt.text {
				t.Errorf("turn message = %q, want %q", a.Text, tt.text)
			}
			if got := a.Budget.String(); got != tt.report {
				t.Errorf("report = %s\nwant     %s", got, tt.report)
			}
		})
	}
}
