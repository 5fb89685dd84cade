package values_test

import (
	"strings"
	"testing/fstest"
)

// The helpers of blocks' load tests (blocks/load_test.go), for the tests of the type check that moved here with it.

// archive turns a txtar-like text into an in-memory project: a line "-- path --" starts a file, and every line up
// to the next such line belongs to it, each with its newline. Lines before the first file are a comment.
func archive(text string) fstest.MapFS {
	fsys := fstest.MapFS{}
	name := ""
	var body strings.Builder
	flush := func() {
		if name != "" {
			fsys[name] = &fstest.MapFile{Data: []byte(body.String())}
		}
		body.Reset()
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		trimmed := strings.TrimSuffix(line, "\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") && len(trimmed) > 6 {
			flush()
			name = strings.TrimSpace(trimmed[3 : len(trimmed)-3])
			continue
		}
		if name != "" {
			body.WriteString(line)
		}
	}
	flush()
	return fsys
}

// with returns base with the files of each override archive added or replaced.
func with(base string, overrides ...string) fstest.MapFS {
	fsys := archive(base)
	for _, o := range overrides {
		for name, f := range archive(o) {
			fsys[name] = f
		}
	}
	return fsys
}

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
