package assemble_test

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// toolsProject has two tasks, a gated and an ungated tool, and a runbook block that prints the tools.
const toolsProject = `
-- promptc.toml --
name = "a"
tasks = ["issue", "chat"]
[runbook]
order = ["intro", "tools"]
[turn]
order = ["ask"]
-- blocks/a.toml --
[[block]]
id = "intro"
body = "Intro."

[[block]]
id = "tools"
title = "Tools"
body = "{{tools}}"

[[block]]
id = "ask"
body = "Go."
-- blocks/tools.toml --
[[tool]]
name = "search"
description = "Search issues."
tasks = ["issue"]
[tool.parameters]
type = "object"
[tool.parameters.properties.q]
type = "string"

[[tool]]
name = "comment"
description = "Post a comment."
`

// TestTools: tools prints the task's tools, sorted by name; a block that calls it is of scope task, or global when
// no tool is gated.
func TestTools(t *testing.T) {
	prog := mustLoad(t, archive(toolsProject))
	want := map[string]string{
		"issue": "Intro.\n\n## Tools\n\n### comment\n\nPost a comment.\n\n```json\n{\n  \"properties\": {},\n  \"type\": \"object\"\n}\n```\n\n" +
			"### search\n\nSearch issues.\n\n```json\n{\n  \"properties\": {\n    \"q\": {\n      \"type\": \"string\"\n    }\n  },\n  \"type\": \"object\"\n}\n```\n",
		"chat": "Intro.\n\n## Tools\n\n### comment\n\nPost a comment.\n\n```json\n{\n  \"properties\": {},\n  \"type\": \"object\"\n}\n```\n",
	}
	// Twice, and in both task orders: the render cache must never hand one task's tools to another.
	for _, tasks := range [][]string{{"issue", "chat"}, {"chat", "issue"}, {"issue", "chat"}} {
		for _, task := range tasks {
			a, err := prog.Runbook(task, nil)
			if err != nil {
				t.Fatal(err)
			}
			if a.Text != want[task] {
				t.Errorf("%s runbook:\n%q\nwant\n%q", task, a.Text, want[task])
			}
		}
	}
	if s, _ := prog.Scope("tools"); s != blocks.ScopeTask {
		t.Errorf("scope of a block printing gated tools = %v, want task", s)
	}

	ungated := strings.Replace(toolsProject, "tasks = [\"issue\"]\n[tool.parameters]", "[tool.parameters]", 1)
	prog = mustLoad(t, archive(ungated))
	if s, _ := prog.Scope("tools"); s != blocks.ScopeGlobal {
		t.Errorf("scope of a block printing ungated tools = %v, want global", s)
	}
	issue, _ := prog.Runbook("issue", nil)
	chat, _ := prog.Runbook("chat", nil)
	if issue.Text != chat.Text || !strings.Contains(issue.Text, "### search") {
		t.Errorf("ungated tools differ between tasks:\n%s\n%s", issue.Text, chat.Text)
	}

	// No tools at all: the block renders nothing, so it is omitted, heading included.
	none := strings.Split(toolsProject, "-- blocks/tools.toml --")[0]
	prog = mustLoad(t, archive(none))
	if a, _ := prog.Runbook("issue", nil); a.Text != "Intro.\n" {
		t.Errorf("runbook without tools = %q", a.Text)
	}
}

// TestToolsOnlyInRunbooks: the tool list depends on the task alone, so a turn block may not print it.
func TestToolsOnlyInRunbooks(t *testing.T) {
	_, diags := assemble.Load(archive(strings.Replace(toolsProject, "body = \"Go.\"", "body = \"Go. {{if true}}{{tools}}{{end}}\"", 1)))
	want := "blocks/a.toml:12:26: turn block \"ask\" calls tools: the tool list depends only on the task, so it belongs in the runbook; move this text into a runbook block\n"
	if got := diags.String(); got != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
}
