package workspace_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/workspace"
)

// TestCheckReport: the exact lines of install --check for each action, the fix line's "it" and "them", silence
// when every file is current, and a path that could forge a line printed quoted.
func TestCheckReport(t *testing.T) {
	tg := target()
	codex := &blocks.Target{Name: "codex", File: "AGENTS.md", Begin: begin, End: end}
	for _, tt := range []struct {
		name    string
		results workspace.Results
		fix     string
		want    string
		stale   int
	}{
		{"current", workspace.Results{{Target: tg, Path: "ws/CLAUDE.md", Action: workspace.Current}}, "promptc install", "", 0},
		{"created", workspace.Results{{Target: tg, Path: "ws/CLAUDE.md", Action: workspace.Created, Line: 1}}, "promptc install",
			"ws/CLAUDE.md: missing: installing would create it, holding the runbook of task \"chat\"\nTo update it, run: promptc install\n", 1},
		{"appended and replaced", workspace.Results{
			{Target: tg, Path: "ws/CLAUDE.md", Action: workspace.Appended, Line: 4},
			{Target: codex, Path: "ws/AGENTS.md", Action: workspace.Replaced, Line: 7},
		}, "promptc install --all-targets",
			"ws/CLAUDE.md:4: no block of target \"claude\": installing would add the runbook of task \"chat\" after a blank line\n" +
				"ws/AGENTS.md:7: out of date: the block of target \"codex\" differs from the runbook of task \"chat\" from this line on\n" +
				"To update them, run: promptc install --all-targets\n", 2},
		{"no fix", workspace.Results{{Target: tg, Path: "ws/CLAUDE.md", Action: workspace.Replaced, Line: 2}}, "",
			"ws/CLAUDE.md:2: out of date: the block of target \"claude\" differs from the runbook of task \"chat\" from this line on\n", 1},
		{"hostile path", workspace.Results{{Target: tg, Path: "ws\n::error::x/CLAUDE.md", Action: workspace.Created, Line: 1}}, "",
			"\"ws\\n::error::x/CLAUDE.md\": missing: installing would create it, holding the runbook of task \"chat\"\n", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &workspace.CheckReport{Task: "chat", Results: tt.results, Fix: tt.fix}
			var b strings.Builder
			if err := r.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want || r.Stale() != tt.stale {
				t.Errorf("report, stale %d:\n%s\nwant, stale %d:\n%s", r.Stale(), b.String(), tt.stale, tt.want)
			}
		})
	}
}

// TestResultsWriteText: one line per result, Result.String's, paths quoted when they hold a control character.
func TestResultsWriteText(t *testing.T) {
	tg := target()
	rs := workspace.Results{
		{Target: tg, Path: "ws/CLAUDE.md", Action: workspace.Appended},
		{Target: tg, Path: "ws/\x1b[2J.md", Action: workspace.Removed, Link: "vol/\r.md"},
	}
	var b strings.Builder
	if err := rs.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "ws/CLAUDE.md: appended the block of target \"claude\"\n" +
		"\"ws/\\x1b[2J.md\": removed the block of target \"claude\" (through the symbolic link, in \"vol/\\r.md\")\n"
	if b.String() != want {
		t.Errorf("WriteText:\n%q\nwant\n%q", b.String(), want)
	}
}

// TestLoadTargets: the problems that keep uninstall from trusting the targets are reported; those of blocks,
// templates and fixtures, and those at an entry of runbook.order or turn.order (a block renamed), are not.
func TestLoadTargets(t *testing.T) {
	const manifest = `name = "acme"
tasks = ["chat"]

[runbook]
order = ["intro", "renamed"]

[turn]
order = ["gone"]

[[target]]
name  = "claude"
file  = "CLAUDE.md"
begin = "<!-- BEGIN ACME -->"
end   = "<!-- END ACME -->"
`
	broken := fstest.MapFS{
		"promptc.toml":       {Data: []byte(manifest)},
		"blocks/all.toml":    {Data: []byte("[[block]]\nid = \"intro\"\nbody = \"{{.unclosed\"\n")},
		"fixtures/bad.toml":  {Data: []byte("[session\n")},
		"templates/x.tmpl":   {Data: []byte("{{end}}")},
		"blocks/broken.toml": {Data: []byte("[[block]\n")},
	}
	if _, all := blocks.Load(broken); len(all) == 0 {
		t.Fatal("the broken project loads without problems: the test proves nothing")
	}
	p, diags := workspace.LoadTargets(broken)
	if len(diags) > 0 {
		t.Errorf("LoadTargets of a project with broken blocks: %v", diags)
	}
	if p.Target("claude") == nil {
		t.Errorf("LoadTargets: no target claude")
	}

	for _, tt := range []struct{ name, manifest, want string }{
		{"target without its end marker", strings.Replace(manifest, "end   = \"<!-- END ACME -->\"\n", "", 1), "promptc.toml:"},
		{"a syntax error in promptc.toml", manifest + "[[target]\n", "promptc.toml:"},
		{"a target that leaves the directory", strings.Replace(manifest, `"CLAUDE.md"`, `"../CLAUDE.md"`, 1), "climbs out"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := workspace.LoadTargets(fstest.MapFS{"promptc.toml": {Data: []byte(tt.manifest)}})
			if len(diags) == 0 || !strings.Contains(diags.Error(), tt.want) {
				t.Errorf("LoadTargets: %v; want a problem saying %q", diags, tt.want)
			}
		})
	}
}

// TestSelectTargets: the targets named, in order and once each, or all of them; an unknown name is an error with a
// suggestion and the list, a project without targets ErrNoTargets.
func TestSelectTargets(t *testing.T) {
	claude := &blocks.Target{Name: "claude"}
	codex := &blocks.Target{Name: "codex"}
	p := &blocks.Project{Targets: []*blocks.Target{claude, codex}}
	none := &blocks.Project{}
	for _, tt := range []struct {
		name  string
		p     *blocks.Project
		names []string
		all   bool
		want  []*blocks.Target
		err   string
	}{
		{"all", p, nil, true, []*blocks.Target{claude, codex}, ""},
		{"named, in order, once", p, []string{"codex", "claude", "codex"}, false, []*blocks.Target{codex, claude}, ""},
		{"unknown", p, []string{"claud"}, false, nil, `no target "claud" in promptc.toml (did you mean "claude"?); the targets are: claude, codex`},
		{"hostile name", p, []string{"x\n::error::y"}, false, nil, `no target "x\n::error::y" in promptc.toml; the targets are: claude, codex`},
		{"all of none", none, nil, true, nil, "promptc.toml declares no [[target]]: add one (name, file, begin, end) for each context file"},
		{"one of none", none, []string{"claude"}, false, nil, `no target "claude": promptc.toml declares no [[target]]: add one (name, file, begin, end) for each context file`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := workspace.SelectTargets(tt.p, tt.names, tt.all)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err || got != nil {
					t.Errorf("SelectTargets: %v, %v; want the error %s", got, err, tt.err)
				}
				if len(tt.p.Targets) == 0 && !errors.Is(err, workspace.ErrNoTargets) {
					t.Errorf("SelectTargets: %v is not ErrNoTargets", err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("SelectTargets: %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}
