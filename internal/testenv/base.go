package testenv

// Base is a valid project, as an Archive text, that the loader's tests and the value check's break in one place
// each. Every block is placed, no variable is required, and the fixture sets nothing, so a case's diagnostics are
// its own.
//
// promptc.toml lines: 1 name, 2 tasks, 4 [runbook], 5 order, 7 [turn], 8 order, 10 [vars.agent], 14 [vars.leader],
// 18 [vars.issue_id].
const Base = `
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
