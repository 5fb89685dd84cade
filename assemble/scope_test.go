package assemble_test

import (
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
