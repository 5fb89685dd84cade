package promptc_test

import (
	"errors"
	"fmt"
	"log"
	"strings"
	"testing/fstest"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/projection"
)

// Open loads and compiles a project once; what is built from it (artifacts, the model catalog) is built on first
// use and shared by everything asked of the pipeline.
func ExampleOpen() {
	pl, err := promptc.Open("examples/tracker", promptc.Options{})
	if err != nil {
		log.Fatal(err)
	}
	arts, err := pl.Artifacts()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pl.Project().Tasks, len(arts) > 0)
	// Output:
	// [issue chat quick_create autopilot] true
}

// OpenFS reads a project from any file system; a project that does not compile returns its diagnostics, each at
// file:line:col.
func ExampleOpenFS() {
	fsys := fstest.MapFS{
		"promptc.toml":     {Data: []byte("name = \"demo\"\ntasks = [\"chat\"]\n\n[runbook]\norder = [\"rules\"]\n")},
		"blocks/base.toml": {Data: []byte("[[block]]\nid = \"rules\"\nbody = \"Be brief.\"\n")},
	}
	pl, err := promptc.OpenFS(fsys, promptc.Options{})
	if err != nil {
		log.Fatal(err)
	}
	t, _ := pl.Task("chat")
	rb, err := t.Render(promptc.Request{Session: blocks.Values{}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", rb.Text)
	// Output:
	// "Be brief.\n"
}

// Task checks a task's name once: an unknown name says which task it may have meant and lists them all.
func ExamplePipeline_Task() {
	pl, err := promptc.Open("examples/tracker", promptc.Options{})
	if err != nil {
		log.Fatal(err)
	}
	_, err = pl.Task("caht")
	var unknown *blocks.UnknownTaskError
	fmt.Println(errors.As(err, &unknown))
	fmt.Println(err)
	// Output:
	// true
	// unknown task "caht" (did you mean "chat"?); the tasks are: issue, chat, quick_create, autopilot
}

// Render renders a runbook (no Turn) or one turn message, with the session's values from a fixture, a values file
// or Go values.
func ExampleTask_Render() {
	pl, err := promptc.Open("examples/tracker", promptc.Options{})
	if err != nil {
		log.Fatal(err)
	}
	t, err := pl.Task("chat")
	if err != nil {
		log.Fatal(err)
	}
	rb, err := t.Render(promptc.Request{Fixture: "conversation"})
	if err != nil {
		log.Fatal(err)
	}
	turn, err := t.Render(promptc.Request{Fixture: "conversation", Turn: &promptc.Turn{K: 3}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rb.Path)
	fmt.Println(turn.Path, strings.Contains(turn.Text, `Can we make "code" the default for all Swiss merchants?`))
	// Output:
	// chat/conversation.runbook.md
	// chat/conversation.turn-3.md true
}

// Lint runs the stability lints on the build the pipeline holds; each finding is a diagnostic with its lint id.
func ExamplePipeline_Lint() {
	pl, err := promptc.Open("examples/tracker", promptc.Options{})
	if err != nil {
		log.Fatal(err)
	}
	findings, err := pl.Lint("")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(findings), "findings")
	// Output:
	// 0 findings
}

// Stats measures the same build: bytes and tokens per task, block and scope.
func ExamplePipeline_Stats() {
	pl, err := promptc.Open("examples/tracker", promptc.Options{})
	if err != nil {
		log.Fatal(err)
	}
	r, err := pl.Stats("")
	if err != nil {
		log.Fatal(err)
	}
	for _, task := range r.Tasks {
		fmt.Println(task.Task, task.Bytes > 0)
	}
	// Output:
	// issue true
	// chat true
	// quick_create true
	// autopilot true
}

// Simulate replays the task's fixtures with [[turn]] entries (Replays) against a simulated prompt cache, under the
// options a Choice names: promptc's layout, and the two naive ones beside it.
func ExampleTask_Simulate() {
	pl, err := promptc.Open("examples/tracker", promptc.Options{})
	if err != nil {
		log.Fatal(err)
	}
	t, err := pl.Task("chat")
	if err != nil {
		log.Fatal(err)
	}
	replays, err := t.Replays("conversation")
	if err != nil {
		log.Fatal(err)
	}
	opt, err := t.Options(promptc.Choice{Provider: projection.Anthropic})
	if err != nil {
		log.Fatal(err)
	}
	sim, err := t.Simulate(replays, opt)
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range sim.Layouts {
		fmt.Println(l.Name, len(l.Turns))
	}
	// Output:
	// promptc 5
	// volatile-first 5
	// rewrite 5
}

// Project builds one provider request: turn 2 of a fixture's session as a Bedrock body, with the task's tools sent
// natively and cache points after the runbook's segments and the history.
func ExampleTask_Projection() {
	pl, err := promptc.Open("examples/tracker", promptc.Options{})
	if err != nil {
		log.Fatal(err)
	}
	t, err := pl.Task("chat")
	if err != nil {
		log.Fatal(err)
	}
	// On Bedrock, Claude Sonnet 4.5 (the default) caches from 4,096 tokens; Sonnet 4.6 from 1,024.
	opt, err := t.Options(promptc.Choice{Provider: projection.Bedrock, Model: "anthropic.claude-sonnet-4-6", Tools: projection.ToolsNative})
	if err != nil {
		log.Fatal(err)
	}
	pr, err := t.Projection(promptc.Request{Fixture: "conversation", Turn: &promptc.Turn{K: 2}}, opt)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pr.Model.Name, len(pr.Markers()), "cache points")
	fmt.Println(strings.Contains(string(pr.Body), `"cachePoint"`), strings.Contains(string(pr.Body), `"toolSpec"`))
	// Output:
	// anthropic.claude-sonnet-4-6 4 cache points
	// true true
}

// A request names its sources once: a command checks the one its flags name before it reads a file or opens the
// project, and words the problem with its flags.
func ExampleRequest_Check() {
	session := &assemble.ValuesFile{Name: "session.json"}
	for _, r := range []promptc.Request{
		{Fixture: "basic", Turn: &promptc.Turn{K: 2}},
		{Fixture: "basic", SessionFile: session},
		{SessionFile: session, Turn: &promptc.Turn{K: 2}},
	} {
		fmt.Println(r.Check(false))
	}
	// A provider request always has a turn: a session given as values needs the turn's.
	var se *promptc.SourceError
	fmt.Println(errors.As(promptc.Request{SessionFile: session}.Check(true), &se) && se.Problem == promptc.NoTurnValues)
	// Output:
	// <nil>
	// two sources both give session values (a fixture, a session values file, session values); choose one
	// a turn of a fixture needs the fixture's session: give the turn's values instead
	// true
}

// A command's flags set a Choice by name; each value parses as its field's flag does.
func ExampleChoice_Set() {
	var c promptc.Choice
	for _, f := range [][2]string{{"provider", "openai"}, {"tools", "native"}, {"cache", "automatic"}} {
		if err := c.Set(f[0], f[1]); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(c.Provider, c.Tools, c.Cache)
	fmt.Println(c.Set("provider", "openia"))
	// Output:
	// openai native automatic
	// unknown provider "openia" (did you mean "openai"?): use anthropic, openai, dashscope, bedrock, gemini or deepseek
}

// Explain says why a block renders in a task, what makes its scope, and where it sits in the artifacts of a fixture.
func ExampleTask_Explain() {
	pl, err := promptc.Open("examples/tracker", promptc.Options{})
	if err != nil {
		log.Fatal(err)
	}
	t, err := pl.Task("chat")
	if err != nil {
		log.Fatal(err)
	}
	r, err := t.Explain("identity", "basic")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Renders, r.Scope, r.Fixture)
	for _, p := range r.Placements {
		fmt.Printf("%s lines %d-%d\n", p.Artifact, p.FirstLine, p.LastLine)
	}
	_, err = t.Explain("identity", "nope")
	var fe *blocks.FixtureError
	fmt.Println(errors.As(err, &fe))
	// Output:
	// true session basic
	// chat/basic.runbook.md lines 129-137
	// true
}
