package assemble_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// exampleProject is a small prompt project as an agent platform might embed it (with //go:embed, or built in
// memory as here): one runbook per task kind, and a per-turn message.
var exampleProject = fstest.MapFS{
	"promptc.toml": {Data: []byte(`
name  = "tracker"
tasks = ["issue", "chat"]

[runbook]
order = ["rules", "workflow", "identity"]

[turn]
order = ["assignment", "comment"]

[vars.agent_name]
scope    = "session"
type     = "string"
required = true

[vars.issue_id]
scope    = "turn"
type     = "string"
trust    = "trusted"
required = true

[vars.comment]
scope = "turn"
type  = "text"
`)},
	"blocks/core.toml": {Data: []byte(`
[const]
boundary = "Run only the commands listed in this runbook."

[[block]]
id    = "rules"
title = "Rules"
body  = '{{const "boundary"}}'

[[block]]
id    = "workflow"
title = "Issue Workflow"
tasks = ["issue"]
body  = "Read the issue, fix it, comment."

[[block]]
id    = "identity"
body  = 'You are {{.agent_name}}.'

[[block]]
id   = "assignment"
body = '''
Work on {{.issue_id}}.{{if eq .task "issue"}} Follow {{ref "workflow"}}.{{end}}
'''

[[block]]
id    = "comment"
title = "New Comment"
when  = "comment"
body  = '{{quote .comment}}'
`)},
	"fixtures/basic.toml": {Data: []byte(`
[session]
agent_name = "Ada"

[[turn]]
issue_id = "NW-1"
comment  = "Please look at the *build*."
`)},
}

// Load a project, start a session for one task and render its runbook (the cacheable prefix) once, then one
// message per turn (the volatile suffix). A Program and its Sessions are immutable: one Program can serve every
// session of a server, and a Session's turns can render from many goroutines at once.
func Example() {
	prog, diags := assemble.Load(exampleProject)
	if len(diags) > 0 {
		fmt.Print(diags.String()) // path:line:col: message, one per problem
		return
	}
	session, err := prog.NewSession("issue", blocks.Values{"agent_name": "Ada *admin*"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(session.Runbook().Text)
	fmt.Println("----")
	turn, err := session.Turn(blocks.Values{"issue_id": "NW-7", "comment": "Fix it\n# now"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(turn.Text)
	// Output:
	// ## Rules
	//
	// Run only the commands listed in this runbook.
	//
	// ## Issue Workflow
	//
	// Read the issue, fix it, comment.
	//
	// You are Ada \*admin\*.
	// ----
	// Work on NW-7. Follow ## Issue Workflow.
	//
	// ## New Comment
	//
	// > Fix it # now
}

// Build renders every artifact of docs/reference.md#artifacts: for each task, each fixture admitting it, the runbook and each turn
// message, with the path it has under build/ and golden/.
func ExampleProgram_Build() {
	prog, diags := assemble.Load(exampleProject)
	if len(diags) > 0 {
		fmt.Print(diags.String())
		return
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		fmt.Print(diags.String())
		return
	}
	for _, a := range arts {
		fmt.Printf("%s: %d bytes, %d blocks\n", a.Path, len(a.Text), len(a.Spans))
	}
	// Output:
	// issue/basic.runbook.md: 123 bytes, 3 blocks
	// issue/basic.turn-1.md: 89 bytes, 2 blocks
	// chat/basic.runbook.md: 70 bytes, 2 blocks
	// chat/basic.turn-1.md: 63 bytes, 2 blocks
}

// Every problem of a project is reported at once, positioned in its source file.
func ExampleLoad_diagnostics() {
	broken := fstest.MapFS{}
	for name, f := range exampleProject {
		broken[name] = f
	}
	broken["blocks/extra.toml"] = &fstest.MapFile{Data: []byte(`
[[block]]
id   = "stray"
body = 'Issue {{.issue_id}} for {{.agent}}'
`)}
	_, diags := assemble.Load(broken)
	fmt.Print(diags.String())
	// Output:
	// blocks/extra.toml:3:1: block "stray" is not placed: add it to runbook.order or turn.order, or give it replaces
	// blocks/extra.toml:4:35: block "stray" uses undeclared variable "agent": declare it under [vars.agent] in promptc.toml
}

// The source map tells which block produced which bytes, and where the shared prefixes end.
func ExampleArtifact_PrefixEnd() {
	prog, _ := assemble.Load(exampleProject)
	rb, _ := prog.Runbook("chat", blocks.Values{"agent_name": "Ada"})
	for _, s := range rb.Spans {
		fmt.Printf("%-8s %-7s %q\n", s.Block.ID, s.Scope, rb.Text[s.Start:s.End])
	}
	fmt.Printf("global prefix: %q\n", rb.Text[:rb.PrefixEnd(blocks.ScopeGlobal)])
	// Output:
	// rules    global  "## Rules\n\nRun only the commands listed in this runbook."
	// identity session "\n\nYou are Ada.\n"
	// global prefix: "## Rules\n\nRun only the commands listed in this runbook.\n\n"
}

// TestConcurrentRendering renders runbooks and turns from 16 goroutines sharing one Program and one Session per
// task, and expects exactly what sequential rendering gives. Run it with -race.
func TestConcurrentRendering(t *testing.T) {
	prog := mustLoad(t, richProject())
	type job struct {
		task    string
		session blocks.Values
		turn    blocks.Values // nil: the runbook
	}
	var jobs []job
	for _, task := range prog.Project.Tasks {
		for _, f := range prog.Project.Fixtures {
			if !f.AdmitsTask(task) {
				continue
			}
			jobs = append(jobs, job{task: task, session: f.Session})
			for _, turn := range f.Turns {
				jobs = append(jobs, job{task: task, session: f.Session, turn: turn})
			}
		}
	}
	render := func(j job, s *assemble.Session) string {
		if s == nil {
			var err error
			if s, err = prog.NewSession(j.task, j.session); err != nil {
				return "error: " + err.Error()
			}
		}
		if j.turn == nil {
			return s.Runbook().Text + spanString(s.Runbook())
		}
		a, err := s.Turn(j.turn)
		if err != nil {
			return "error: " + err.Error()
		}
		return a.Text + spanString(a)
	}
	want := make([]string, len(jobs))
	for i, j := range jobs {
		want[i] = render(j, nil)
		if want[i] == "" || want[i][:6] == "error:" {
			t.Fatalf("job %d: %q", i, want[i])
		}
	}
	wantBuild := snapshot(t, richProject())

	// Shared sessions, one per task and fixture, used by every goroutine.
	shared := map[int]*assemble.Session{}
	for i, j := range jobs {
		s, err := prog.NewSession(j.task, j.session)
		if err != nil {
			t.Fatal(err)
		}
		shared[i] = s
	}

	const workers = 16
	got := make([][]string, workers)
	var builds [workers]string
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := make([]string, len(jobs))
			for k := range jobs {
				i := (k + w*7) % len(jobs) // each goroutine starts elsewhere
				if (i+w)%2 == 0 {
					out[i] = render(jobs[i], shared[i])
				} else {
					out[i] = render(jobs[i], nil)
				}
			}
			got[w] = out
			if w%4 == 0 {
				arts, diags := prog.Build()
				if len(diags) > 0 {
					builds[w] = diags.String()
					return
				}
				var b []byte
				for _, a := range arts {
					b = fmt.Appendf(b, "== %s %s %s %d\n%s\n== spans %s\n", a.Path, a.Task, a.Kind, a.Turn, a.Text, spanString(a))
				}
				builds[w] = string(b)
			}
		}()
	}
	wg.Wait()
	for w := range got {
		for i := range jobs {
			if got[w][i] != want[i] {
				t.Errorf("goroutine %d, job %d (%s): got %q, want %q", w, i, jobs[i].task, got[w][i], want[i])
			}
		}
		if w%4 == 0 && builds[w] != wantBuild {
			t.Errorf("goroutine %d: concurrent Build differs:\n%s", w, firstDiff(builds[w], wantBuild))
		}
	}
}

// Render takes values files as a user writes them (JSON or TOML, docs/values.md), the way promptc render's
// --session and --turn-file give them: each value is checked against its declaration, and every problem of both
// files is reported with the compiler's own, at the line of the key. The error is a source.Diagnostics.
func ExampleProgram_Render_valuesFiles() {
	prog, diags := assemble.Load(exampleProject)
	if len(diags) > 0 {
		fmt.Print(diags.String())
		return
	}
	session := &assemble.ValuesFile{Name: "session.json", Data: []byte(`{"agent_name": "Ada"}`)}
	turn := &assemble.ValuesFile{Name: "turn.toml", Data: []byte("issue_id = \"NW-7\"\n")}
	a, err := prog.Render(assemble.RenderRequest{Task: "issue", SessionFile: session, Turn: -1, TurnFile: turn})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(a.Text)
	fmt.Println("----")
	turn.Data = []byte("comment = \"Hi\"\nisue_id = \"NW-7\"\n")
	_, err = prog.Render(assemble.RenderRequest{Task: "issue", SessionFile: session, Turn: -1, TurnFile: turn})
	var problems source.Diagnostics
	if errors.As(err, &problems) {
		fmt.Println(len(problems), "problems:")
		fmt.Println(problems)
	}
	// Output:
	// Work on NW-7. Follow ## Issue Workflow.
	// ----
	// 2 problems:
	// turn.toml:1:1: required turn variable "issue_id" has no value
	// turn.toml:2:1: unknown turn variable "isue_id" (did you mean "issue_id"?)
}
