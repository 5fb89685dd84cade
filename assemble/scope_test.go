package assemble_test

import (
	"slices"
	"testing"

	"github.com/promptc/promptc/assemble"
)

// TestScopeRuleSeesThroughData: the static scope rule (docs/reference.md#the-static-scope-rule) reads every way a body can reach a variable, so that a
// turn variable in a runbook block is a compile error, never a failure at render time.
func TestScopeRuleSeesThroughData(t *testing.T) {
	for _, tt := range []struct{ body, want string }{
		{`{{.c}}`, "blocks/a.toml:3:11: runbook block \"r\" uses turn variable \"c\": runbook bytes must not depend on the turn; move this text into a turn block\n"},
		{`{{(.).c}}`, "blocks/a.toml:3:14: runbook block \"r\" uses turn variable \"c\": runbook bytes must not depend on the turn; move this text into a turn block\n"},
		{`{{index . "c"}}`, "blocks/a.toml:3:19: runbook block \"r\" uses turn variable \"c\": runbook bytes must not depend on the turn; move this text into a turn block\n"},
		{`{{with $d := .}}{{index $d "c"}}{{end}}`, "blocks/a.toml:3:36: runbook block \"r\" uses turn variable \"c\": runbook bytes must not depend on the turn; move this text into a turn block\n"},
	} {
		t.Run(tt.body, func(t *testing.T) {
			_, diags := assemble.Load(archive(`
-- promptc.toml --
name = "a"
tasks = ["t"]
[runbook]
order = ["r"]
[turn]
order = ["u"]
[vars.c]
scope = "turn"
type = "string"
-- blocks/a.toml --
[[block]]
id = "r"
body = '` + tt.body + `'

[[block]]
id = "u"
body = "{{.c}}"
`))
			if got := diags.String(); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestSharedFragmentScopes: a fragment shared by naming one template file from several blocks (docs/decisions.md,
// "Shared fragments") gives each block the scope of what the fragment reads and what the block's own gate and when
// add: a fragment that reads nothing is global where it is placed for every task and task where a gate narrows
// it; one that reads a session variable makes every block that places it session; a when condition adds its
// variables to the block that carries it, each at its name.
func TestSharedFragmentScopes(t *testing.T) {
	prog, diags := assemble.Load(archive(`
-- promptc.toml --
name = "a"
tasks = ["t", "u"]
[runbook]
order = ["fixed-all", "fixed-t", "session-all", "session-u", "plain-when"]
[vars.repo]
scope = "session"
type = "string"
[vars.lead]
scope = "session"
type = "bool"
[vars.vip]
scope = "session"
type = "bool"
-- templates/fixed.md --
Run the tests first.
-- templates/info.md --
{{if .repo}}<REPOSITORY_INFO>{{.repo}}</REPOSITORY_INFO>{{end}}
-- blocks/a.toml --
[[block]]
id = "fixed-all"
template = "fixed.md"

[[block]]
id = "fixed-t"
tasks = ["t"]
template = "fixed.md"

[[block]]
id = "session-all"
template = "info.md"

[[block]]
id = "session-u"
tasks = ["u"]
template = "info.md"

[[block]]
id = "plain-when"
when = "lead || !vip"
template = "fixed.md"
`))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for id, want := range map[string]string{"fixed-all": "global", "fixed-t": "task", "session-all": "session", "session-u": "session", "plain-when": "session"} {
		if got, ok := prog.Scope(id); !ok || got.String() != want {
			t.Errorf("scope of %s = %v, want %s", id, got, want)
		}
	}
	var reasons []string
	for _, r := range prog.ScopeReasons("plain-when") {
		reasons = append(reasons, r.Text+" @ "+r.At.String())
	}
	if want := []string{
		`when = "lead || !vip" names session variable "lead" @ blocks/a.toml:21:9`,
		`when = "lead || !vip" names session variable "vip" @ blocks/a.toml:21:18`,
	}; !slices.Equal(reasons, want) {
		t.Errorf("scope reasons of plain-when:\n%q\nwant\n%q", reasons, want)
	}
}
