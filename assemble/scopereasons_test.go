package assemble_test

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// TestScopeReasons: the scope of every block of the example project and of the test projects is what it was before
// scopes were computed from their reasons, and every block has reasons of its own scope, each written somewhere, so
// that explain can always say why.
func TestScopeReasons(t *testing.T) {
	ungatedTools := strings.Replace(toolsProject, "tasks = [\"issue\"]\n[tool.parameters]", "[tool.parameters]", 1)
	records := recordsCase("{{range .repos}}{{.name}}{{end}}", "{{range .changes}}\n{{.diff}}\n{{end}}")
	for _, tt := range []struct {
		name string
		load func() (*assemble.Program, source.Diagnostics)
		// want lists the blocks of each scope, separated by spaces.
		want map[blocks.Scope]string
	}{
		{
			name: "examples/tracker",
			load: func() (*assemble.Program, source.Diagnostics) { return assemble.LoadDir("../examples/tracker") },
			want: map[blocks.Scope]string{
				blocks.ScopeGlobal:  "header safety priority cli-output",
				blocks.ScopeTask:    "context-limits commands commands-quick comment-format replying issue-workflow chat-workflow quick-create-workflow autopilot-workflow output-rules",
				blocks.ScopeSession: "identity repositories project-resources project-context workspace-note squad-coordinator skills",
				blocks.ScopeTurn:    "assignment trigger review-diff earlier-comments pasted-context linked-issues sibling-runs continuity",
			},
		},
		{
			name: "scope",
			load: func() (*assemble.Program, source.Diagnostics) { return assemble.Load(scopeProject()) },
			want: map[blocks.Scope]string{
				blocks.ScopeGlobal:  "g konst raw listed",
				blocks.ScopeTask:    "tk uses-task ex base r",
				blocks.ScopeSession: "sess sess-when sess-branch data sess-gated",
				blocks.ScopeTurn:    "tb",
			},
		},
		{
			name: "rich",
			load: func() (*assemble.Program, source.Diagnostics) { return assemble.Load(richProject()) },
			want: map[blocks.Scope]string{
				blocks.ScopeGlobal:  "header safety",
				blocks.ScopeTask:    "commands format workflow workflow-quick commands-quick",
				blocks.ScopeSession: "leader identity repos context",
				blocks.ScopeTurn:    "assignment comment history",
			},
		},
		{
			name: "tools",
			load: func() (*assemble.Program, source.Diagnostics) { return assemble.Load(archive(toolsProject)) },
			want: map[blocks.Scope]string{blocks.ScopeGlobal: "intro", blocks.ScopeTask: "tools", blocks.ScopeTurn: "ask"},
		},
		{
			name: "ungated tools",
			load: func() (*assemble.Program, source.Diagnostics) { return assemble.Load(archive(ungatedTools)) },
			want: map[blocks.Scope]string{blocks.ScopeGlobal: "intro tools", blocks.ScopeTurn: "ask"},
		},
		{
			name: "records",
			load: func() (*assemble.Program, source.Diagnostics) { return assemble.Load(archive(records)) },
			want: map[blocks.Scope]string{blocks.ScopeSession: "rb", blocks.ScopeTurn: "tb"},
		},
		{
			name: "hostile",
			load: func() (*assemble.Program, source.Diagnostics) { return assemble.Load(hostileProject()) },
			want: map[blocks.Scope]string{
				blocks.ScopeGlobal:  "header",
				blocks.ScopeSession: "identity team context examples repos leader chat-only workspace functions aside",
				blocks.ScopeTurn:    "assignment comment change history attachments brief",
			},
		},
		{
			name: "example",
			load: func() (*assemble.Program, source.Diagnostics) { return assemble.Load(exampleProject) },
			want: map[blocks.Scope]string{
				blocks.ScopeGlobal:  "rules",
				blocks.ScopeTask:    "workflow",
				blocks.ScopeSession: "identity",
				blocks.ScopeTurn:    "assignment comment",
			},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			prog, diags := tt.load()
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			want := map[string]blocks.Scope{}
			for scope, ids := range tt.want {
				for _, id := range strings.Fields(ids) {
					want[id] = scope
				}
			}
			if len(want) != len(prog.Project.Blocks) {
				t.Errorf("the table lists %d blocks, the project has %d", len(want), len(prog.Project.Blocks))
			}
			for _, b := range prog.Project.Blocks {
				scope, ok := prog.Scope(b.ID)
				if w, listed := want[b.ID]; !ok || !listed || scope != w {
					t.Errorf("Scope(%q) = %s, %v; want %s (listed: %v)", b.ID, scope, ok, w, listed)
				}
				reasons := prog.ScopeReasons(b.ID)
				if len(reasons) == 0 {
					t.Errorf("block %q (scope %s) has no reason", b.ID, scope)
				}
				for _, r := range reasons {
					if r.Scope != scope || r.Kind == "" || r.Text == "" || !r.At.Known() {
						t.Errorf("block %q (scope %s): reason %+v", b.ID, scope, r)
					}
					if (r.Kind == "global") != (scope == blocks.ScopeGlobal) {
						t.Errorf("block %q (scope %s): reason of kind %s", b.ID, scope, r.Kind)
					}
				}
			}
			if r := prog.ScopeReasons("no such block"); r != nil {
				t.Errorf("reasons of an unknown block: %v", r)
			}
		})
	}
}
