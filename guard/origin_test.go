package guard

import (
	"bytes"
	"strings"
	"testing"
)

// orProject writes its rules three ways: a constant used by a block, a block whose body is a template file, and a
// variable's value from a fixture. An edit to any of them is reported at its own definition, not only at the
// block's [[block]] line.
var orProject = map[string]string{
	"promptc.toml": `name  = "acme"
tasks = ["issue", "chat"]

[runbook]
order = ["safety", "workflow", "who"]

[vars.agent_name]
scope = "session"
type  = "string"
`,
	"blocks/00-constants.toml": `[const]

no_secrets = "Never print secrets or tokens."
`,
	"blocks/main.toml": `[[block]]
id    = "safety"
title = "Safety"
body  = """
Follow these rules.
{{const "no_secrets"}}"""

[[block]]
id       = "workflow"
tasks    = ["issue"]
template = "workflow.md"

[[block]]
id   = "who"
body = "You are {{.agent_name}}."
`,
	"templates/workflow.md": `## Workflow

{{if .agent_name}}
1. Read the issue.
2. Fix the bug.
{{end}}
`,
	"fixtures/a.toml": `[session]
agent_name = "Ada"
`,
}

// orReports compares orProject with an edited copy both ways a guard does: check (golden/ as bytes) and diff (both
// sides compiled).
func orReports(t *testing.T, edits ...cmpEdit) map[string]*Result {
	t.Helper()
	oldArts := cmpBuild(t, orProject)
	newArts := cmpBuild(t, cmpEdited(t, orProject, edits...))
	tok := cmpExpectCounter(t)
	return map[string]*Result{
		"check": {check: true, Report: Compare(Side{Label: "golden", Dir: "golden/", Arts: FromBytes(cmpTree(oldArts))},
			Side{Label: "build", Dir: "build/", Arts: newArts}, tok)},
		"diff": {Report: Compare(Side{Label: "HEAD", Dir: "a/", Arts: oldArts},
			Side{Label: "working tree", Dir: "b/", Arts: newArts}, tok)},
	}
}

func TestReportOrigin(t *testing.T) {
	tests := []struct {
		name string
		edit cmpEdit
		// want is the source line of the first artifact's text report, "" for none.
		want string
	}{
		{
			name: "one-word constant edit",
			edit: cmpEdit{file: "blocks/00-constants.toml", old: "or tokens", new: "or keys"},
			want: "  source: constant no_secrets (blocks/00-constants.toml:3:1), used by block safety\n",
		},
		{
			name: "template line edit",
			edit: cmpEdit{file: "templates/workflow.md", old: "Fix the bug.", new: "Fix the bugs."},
			want: "  source: template workflow.md (templates/workflow.md:5:15), used by block workflow\n",
		},
		{
			name: "fixture value edit",
			edit: cmpEdit{file: "fixtures/a.toml", old: `"Ada"`, new: `"Grace"`},
			want: "  source: value agent_name (fixtures/a.toml:2:1), used by block who\n",
		},
		{
			// The block's own inline text is named by the block's position, as before: no source line.
			name: "inline body edit",
			edit: cmpEdit{file: "blocks/main.toml", old: "Follow these", new: "Obey these"},
		},
	}
	for _, tt := range tests {
		for side, res := range orReports(t, tt.edit) {
			t.Run(tt.name+"/"+side, func(t *testing.T) {
				var b bytes.Buffer
				if err := res.WriteText(&b, TextOptions{}); err != nil {
					t.Fatal(err)
				}
				text := b.String()
				if tt.want == "" {
					if strings.Contains(text, "  source: ") {
						t.Errorf("report names a source finer than the block:\n%s", text)
					}
					return
				}
				if !strings.Contains(text, tt.want) {
					t.Errorf("text report lacks %q:\n%s", tt.want, text)
				}
			})
		}
	}
}

// TestReportOriginFormats: every report form names the constant at its definition, and the annotation points there.
func TestReportOriginFormats(t *testing.T) {
	res := orReports(t, cmpEdit{file: "blocks/00-constants.toml", old: "or tokens", new: "or keys"})["diff"]
	var md, js, ann bytes.Buffer
	if err := res.WriteMarkdown(&md, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := res.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := res.WriteAnnotations(&ann, ""); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ form, got, want string }{
		{"markdown", md.String(), "| `chat/a.runbook.md` | byte 54 (4:24) | constant `no_secrets` (blocks/00-constants.toml:3:1), used by block `safety` (blocks/main.toml:2:1) | global |"},
		{"json", js.String(), `"origin": {
        "kind": "constant",
        "name": "no_secrets",
        "source": "blocks/00-constants.toml:3:1"
      }`},
		{"annotations", ann.String(), "::error file=blocks/00-constants.toml,line=3,col=1::chat/a.runbook.md: changed at byte 54 (line 4, col 24); " +
			"constant no_secrets (blocks/00-constants.toml:3:1), used by block safety (blocks/main.toml:2:1), scope global; also issue/a.runbook.md;"},
	} {
		if !strings.Contains(tt.got, tt.want) {
			t.Errorf("%s report lacks\n%s\ngot:\n%s", tt.form, tt.want, tt.got)
		}
	}
}

// TestReportSameDiffShifted: one edit whose lines are numbered differently in two artifacts (fixture a renders an
// extra block before it) is shown once; the repeat names where it is.
func TestReportSameDiffShifted(t *testing.T) {
	project := map[string]string{
		"promptc.toml": `name  = "acme"
tasks = ["issue"]

[runbook]
order = ["intro", "rules"]

[vars.verbose]
scope = "session"
type  = "bool"
`,
		"blocks/main.toml": `[[block]]
id   = "intro"
when = "verbose"
body = "Intro.\n\nMore."

[[block]]
id   = "rules"
body = """
One.
Two.
Three.
Four.
Five."""
`,
		"fixtures/a.toml": "[session]\nverbose = true\n",
		"fixtures/b.toml": "[session]\nverbose = false\n",
	}
	res := &Result{Report: Compare(Side{Label: "HEAD", Dir: "a/", Arts: cmpBuild(t, project)},
		Side{Label: "working tree", Dir: "b/", Arts: cmpBuild(t, cmpEdited(t, project, cmpEdit{file: "blocks/main.toml", old: "Five.", new: "Five!"}))},
		cmpExpectCounter(t))}
	var md, text bytes.Buffer
	res.WriteMarkdown(&md, MarkdownOptions{})
	res.WriteText(&text, TextOptions{})
	if n := strings.Count(md.String(), "+Five!"); n != 1 {
		t.Errorf("markdown shows the hunk %d times, want once:\n%s", n, md.String())
	}
	for _, tt := range []struct{ form, got, want string }{
		{"markdown", md.String(), "<code>issue/b.runbook.md</code>: changed at byte 27 (line 5, col 5); same diff as <code>issue/a.runbook.md</code>, at @@ -2,4 +2,4 @@\n"},
		{"text", text.String(), "  diff: same as issue/a.runbook.md, at @@ -2,4 +2,4 @@\n"},
	} {
		if !strings.Contains(tt.got, tt.want) {
			t.Errorf("%s report lacks %q:\n%s", tt.form, tt.want, tt.got)
		}
	}
}
