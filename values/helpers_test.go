package values_test

import (
	"github.com/promptc/promptc/internal/testenv"
)

// The helpers of blocks' load tests (blocks/load_test.go), for the tests of the type check that moved here with it.

// archive and with build in-memory projects from txtar-like texts (internal/testenv).
var archive, with = testenv.Archive, testenv.With

// base is a valid project that the cases below break in one place each. Every block is placed, no variable is
// required, and the fixture sets nothing, so a case's diagnostics are its own.
//
// promptc.toml lines: 1 name, 2 tasks, 4 [runbook], 5 order, 7 [turn], 8 order, 10 [vars.agent], 14 [vars.leader],
// 18 [vars.issue_id].
const base = `
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

[vars.issue_id]
scope = "turn"
type = "string"
-- blocks/base.toml --
[[block]]
id = "intro"
body = "Hello."

[[block]]
id = "ask"
body = "Go."
-- fixtures/basic.toml --
tasks = ["*"]
`

// manifestWith is the base manifest with more variable declarations appended.
func manifestWith(vars string) string {
	return "-- promptc.toml --\nname = \"acme\"\ntasks = [\"issue\", \"chat\"]\n\n[runbook]\norder = [\"intro\"]\n\n[turn]\norder = [\"ask\"]\n" + vars
}
