package assemble_test

import (
	"strings"
	"testing"
)

// TestCacheKeyedByTask: a runbook block that reads no session variable is global or task scope and its output is
// cached by the program; when it reads .task, or the data as a whole (which holds the task), the cache must keep one
// output per task. Build runs twice on one program, so that the second run reads every output from the cache the
// first one filled, and the runtime API renders the tasks one after the other through the same cache: a cache keyed
// by block alone hands the second task the first one's text.
func TestCacheKeyedByTask(t *testing.T) {
	tests := []struct {
		name string
		body string
		want map[string]string
	}{
		{
			name: "whole data through json",
			body: `{{json .}}`,
			want: map[string]string{
				"alpha/default.runbook.md": `{"task":"alpha"}` + "\n",
				"beta/default.runbook.md":  `{"task":"beta"}` + "\n",
			},
		},
		{
			name: "whole data bound to a variable",
			body: `{{$d := .}}task={{index $d "task"}}`,
			want: map[string]string{
				"alpha/default.runbook.md": "task=alpha\n",
				"beta/default.runbook.md":  "task=beta\n",
			},
		},
		{
			name: "task",
			body: `task={{.task}}`,
			want: map[string]string{
				"alpha/default.runbook.md": "task=alpha\n",
				"beta/default.runbook.md":  "task=beta\n",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog := mustLoad(t, archive(`
-- promptc.toml --
name = "p"
tasks = ["alpha", "beta"]

[runbook]
order = ["all"]
-- blocks/all.toml --
[[block]]
id = "all"
body = '''`+tt.body+`'''
`))
			for run := 1; run <= 2; run++ {
				arts, diags := prog.Build()
				if len(diags) > 0 {
					t.Fatalf("build %d: %s", run, diags)
				}
				got := tree(arts)
				if got["alpha/default.runbook.md"] == got["beta/default.runbook.md"] {
					t.Errorf("build %d: both tasks render %q", run, got["alpha/default.runbook.md"])
				}
				diffTrees(t, got, tt.want)
			}
			for _, task := range []string{"alpha", "beta", "alpha"} {
				a, err := prog.Runbook(task, nil)
				if err != nil {
					t.Fatalf("Runbook(%q): %v", task, err)
				}
				if want := tt.want[task+"/default.runbook.md"]; a.Text != want {
					t.Errorf("Runbook(%q) = %q, want %q", task, a.Text, want)
				}
			}
		})
	}
}

// TestCacheKeyedByLevel: a block that prints a markdown value renders it with its headings nested under the level
// the block sits under (docs/values.md), which in an untitled block is the nearest titled block's before it, so the
// same session block renders differently in tasks whose blocks before it differ. The session cache keeps one output
// per level: keyed by block and task alone, beta would be handed alpha's headings.
func TestCacheKeyedByLevel(t *testing.T) {
	prog := mustLoad(t, archive(`
-- promptc.toml --
name = "p"
tasks = ["alpha", "beta"]

[runbook]
order = ["head-a", "head-b", "notes"]

[vars.notes]
scope = "session"
type  = "text"
trust = "markdown"
-- blocks/all.toml --
[[block]]
id    = "head-a"
title = "A"
tasks = ["alpha"]
body  = "a"

[[block]]
id    = "head-b"
title = "B"
level = 3
tasks = ["beta"]
body  = "b"

[[block]]
id   = "notes"
body = "{{.notes}}"
-- fixtures/f.toml --
[session]
notes = "# N"
`))
	for run := 1; run <= 2; run++ {
		arts, diags := prog.Build()
		if len(diags) > 0 {
			t.Fatalf("build %d: %s", run, diags)
		}
		got := tree(arts)
		for path, want := range map[string]string{"alpha/f.runbook.md": "\n### N\n", "beta/f.runbook.md": "\n#### N\n"} {
			if !strings.Contains(got[path], want) {
				t.Errorf("build %d: %s = %q, want it to hold %q", run, path, got[path], want)
			}
		}
	}
}
