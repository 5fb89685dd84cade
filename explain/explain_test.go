package explain_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/explain"
)

func demo(t testing.TB) *assemble.Program {
	t.Helper()
	prog, diags := assemble.LoadDir("testdata/demo")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	return prog
}

// TestBlock checks each answer: the verdict, the rule that decides it and the scope with its reason.
func TestBlock(t *testing.T) {
	prog := demo(t)
	for _, tc := range []struct {
		name, task, block, fixture string
		renders                    bool
		why                        string // the kind of the last reason
		scope                      blocks.Scope
		scopeWhy                   string // the kind of the first scope reason, and where
		segment                    blocks.Scope
	}{
		{name: "global", task: "chat", block: "safety", renders: true, why: "gate", scope: blocks.ScopeGlobal, scopeWhy: "global blocks/core.toml:13:1", segment: blocks.ScopeGlobal},
		{name: "tasks", task: "issue", block: "chat-tips", why: "gate", scope: blocks.ScopeTask, scopeWhy: "gate blocks/core.toml:39:9"},
		{name: "except", task: "quick", block: "commands", why: "except", scope: blocks.ScopeTask, scopeWhy: "replaced blocks/core.toml:30:1"},
		{name: "replaces", task: "quick", block: "commands-quick", renders: true, why: "gate", scope: blocks.ScopeTask, scopeWhy: "replaces blocks/core.toml:31:1", segment: blocks.ScopeTask},
		{name: "replaced elsewhere", task: "chat", block: "commands", renders: true, why: "gate", scope: blocks.ScopeTask, segment: blocks.ScopeTask, scopeWhy: "replaced blocks/core.toml:30:1"},
		{name: "when false", task: "chat", block: "leader", fixture: "basic", why: "when", scope: blocks.ScopeSession, scopeWhy: "session blocks/core.toml:48:9"},
		{name: "when true", task: "chat", block: "leader", fixture: "lead", renders: true, why: "when", scope: blocks.ScopeSession, scopeWhy: "session blocks/core.toml:48:9", segment: blocks.ScopeSession},
		{name: "task use", task: "chat", block: "workflow", renders: true, why: "gate", scope: blocks.ScopeTask, scopeWhy: "task blocks/core.toml:21:22", segment: blocks.ScopeTask},
		{name: "session var", task: "chat", block: "identity", renders: true, why: "gate", scope: blocks.ScopeSession, scopeWhy: "session blocks/core.toml:44:19", segment: blocks.ScopeSession},
		{name: "turn", task: "chat", block: "urgent", renders: true, why: "when", scope: blocks.ScopeTurn, scopeWhy: "turn promptc.toml:8:24", segment: blocks.ScopeTurn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f *blocks.Fixture
			if tc.fixture != "" {
				f = prog.Project.Fixture(tc.fixture)
			}
			r, err := explain.Block(prog, tc.task, tc.block, f)
			if err != nil {
				t.Fatal(err)
			}
			if r.Renders != tc.renders {
				t.Errorf("Renders = %v, want %v", r.Renders, tc.renders)
			}
			if got := r.Why[len(r.Why)-1].Kind; got != tc.why {
				t.Errorf("last reason %q, want %q", got, tc.why)
			}
			if r.Scope != tc.scope {
				t.Errorf("Scope = %s, want %s", r.Scope, tc.scope)
			}
			if got := r.ScopeWhy[0].Kind + " " + r.ScopeWhy[0].At.String(); got != tc.scopeWhy {
				t.Errorf("scope reason %q, want %q", got, tc.scopeWhy)
			}
			if tc.renders != (len(r.Placements) > 0) {
				t.Fatalf("placements %v with Renders %v", r.Placements, tc.renders)
			}
			for _, p := range r.Placements {
				if p.Segment != tc.segment {
					t.Errorf("segment %s, want %s", p.Segment, tc.segment)
				}
			}
		})
	}
}

// TestBlockErrors checks the message for an unknown block (a task is checked before: promptc.Pipeline.Task).
func TestBlockErrors(t *testing.T) {
	prog := demo(t)
	for _, tc := range []struct{ task, block, want string }{
		{"chat", "safty", `unknown block "safty" (did you mean "safety"?)`},
	} {
		_, err := explain.Block(prog, tc.task, tc.block, nil)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Block(%q, %q) = %v, want %s", tc.task, tc.block, err, tc.want)
		}
	}
}

// TestLine checks that every line of every artifact is attributed to the block of the source map, that every line
// with text is traced further, and that the body lines of blocks without actions map back to their own text.
func TestLine(t *testing.T) {
	prog := demo(t)
	arts, diags := prog.Build()
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for _, a := range arts {
		lines := strings.Split(strings.TrimSuffix(a.Text, "\n"), "\n")
		off := 0
		for i, text := range lines {
			r, err := explain.Line(prog, a.Path, i+1)
			if err != nil {
				t.Fatalf("%s:%d: %v", a.Path, i+1, err)
			}
			span, _ := a.SpanAt(off)
			if r.Block != span.Block || r.Text != text || r.Start != off {
				t.Errorf("%s:%d: block %s text %q at %d, want %s %q at %d", a.Path, i+1, r.Block.ID, r.Text, r.Start, span.Block.ID, text, off)
			}
			if r.Part != "separator" && text != "" && len(r.From) == 0 {
				t.Errorf("%s:%d: %q traced no further than its block", a.Path, i+1, text)
			}
			if r.Part == "body" && text != "" && !strings.Contains(r.Block.Body, "{{") {
				if src := prog.Project.Files[r.Source.Filename].Text[r.Source.Start.Byte:]; !strings.HasPrefix(src, text) {
					t.Errorf("%s:%d: source %s holds %.40q, want %q", a.Path, i+1, r.Source, src, text)
				}
			}
			off += len(text) + 1
		}
		if _, err := explain.Line(prog, a.Path, len(lines)+1); err == nil {
			t.Errorf("%s: a line past the end is not an error", a.Path)
		}
	}
}

// TestParseTarget checks the PATH:LINE forms accepted and refused.
func TestParseTarget(t *testing.T) {
	for _, tc := range []struct {
		arg, path string
		line      int
		err       bool
	}{
		{arg: "build/chat/basic.runbook.md:4", path: "chat/basic.runbook.md", line: 4},
		{arg: "golden/chat/basic.turn-2.md:1", path: "chat/basic.turn-2.md", line: 1},
		{arg: "chat/basic.runbook.md:12", path: "chat/basic.runbook.md", line: 12},
		{arg: "chat/basic.runbook.md", err: true},
		{arg: "chat/basic.runbook.md:0", err: true},
		{arg: "chat/basic.runbook.md:+3", err: true},
		{arg: "chat/basic.md:3", err: true},
	} {
		path, line, err := explain.ParseTarget(tc.arg)
		if (err != nil) != tc.err || path != tc.path || line != tc.line {
			t.Errorf("ParseTarget(%q) = %q, %d, %v", tc.arg, path, line, err)
		}
	}
}

// TestLineOrigins checks that a line names each source of its bytes once, in the order of the bytes.
func TestLineOrigins(t *testing.T) {
	prog, diags := assemble.Load(fstest.MapFS{
		"promptc.toml": {Data: []byte("name = \"x\"\ntasks = [\"a\"]\n[runbook]\norder = [\"intro\", \"t\"]\n[vars.who]\nscope = \"session\"\ntype = \"string\"\n")},
		"blocks/b.toml": {Data: []byte(`[const]
sep = " | "

[[block]]
id    = "intro"
title = "Intro"
body  = "Hello."

[[block]]
id       = "t"
template = "t.md"
`)},
		"templates/t.md":  {Data: []byte("First.\nHi {{.who}}{{const \"sep\"}}{{.who}}, see {{ref \"intro\"}} and {{\"lit\"}}.\n")},
		"fixtures/f.toml": {Data: []byte("[session]\nwho = \"Ada\"\n")},
	})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	a, err := explain.Artifact(prog, "a/f.runbook.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(a.Text, "\n")
	n := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "Hi ") {
			n = i + 1
		}
	}
	r, err := explain.Line(prog, "a/f.runbook.md", n)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range r.From {
		got = append(got, strings.TrimSpace(o.Kind.String()+" "+o.Name)+" "+o.At.String())
	}
	want := []string{
		"template t.md templates/t.md:2:1",
		"value who fixtures/f.toml:2:1",
		"constant sep blocks/b.toml:2:1",
		"reference intro templates/t.md:2:41",
		"action templates/t.md:2:61",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || r.Source.String() != "templates/t.md:2:1" {
		t.Errorf("line %d %q: source %s, from:\n%s\nwant source templates/t.md:2:1, from:\n%s", n, r.Text, r.Source, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
