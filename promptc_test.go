package promptc_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/source"
)

func tracker(t *testing.T) *promptc.Pipeline {
	t.Helper()
	pl, err := promptc.Open("examples/tracker", promptc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

func chat(t *testing.T) promptc.Task {
	t.Helper()
	task, err := tracker(t).Task("chat")
	if err != nil {
		t.Fatal(err)
	}
	return task
}

// TestInputRefusals: a request that cannot name one runbook and one turn is refused before anything renders,
// each refusal saying what to give instead.
func TestInputRefusals(t *testing.T) {
	task := chat(t)
	file := &assemble.ValuesFile{Name: "v.json", Data: []byte("{}")}
	for _, tt := range []struct {
		name string
		r    promptc.Request
		want string
	}{
		{"both sessions", promptc.Request{Fixture: "basic", SessionFile: file, Turn: &promptc.Turn{File: file}}, "both give session values"},
		{"session file alone", promptc.Request{SessionFile: file}, "give the turn's values in a turn values file"},
		{"session values alone", promptc.Request{Session: blocks.Values{}}, "give the turn's values in a turn values file"},
		{"both turns", promptc.Request{Fixture: "basic", Turn: &promptc.Turn{K: 2, File: file}}, "both give the turn"},
		{"turn 0", promptc.Request{Fixture: "conversation", Turn: &promptc.Turn{}}, "--turn must be between 1 and 5"},
		{"unknown fixture", promptc.Request{Fixture: "conversaton"}, `did you mean "conversation"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := task.Input(tt.r)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Input = %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestInputFiles: values files give the session and the turn (the runbook rendered with the first, the message
// with the second, no history), and a file's problems come back as diagnostics at the file, as render reports them.
func TestInputFiles(t *testing.T) {
	pl := tracker(t)
	task, _ := pl.Task("chat")
	basic := pl.Project().Fixture("basic")
	want, err := pl.Program().Render(assemble.RenderRequest{Task: "chat", Fixture: basic, Turn: 1})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(basic.Turns[0])
	if err != nil {
		t.Fatal(err)
	}
	in, err := task.Input(promptc.Request{Fixture: "basic", Turn: &promptc.Turn{File: &assemble.ValuesFile{Name: "turn.json", Data: data}}})
	if err != nil {
		t.Fatal(err)
	}
	if in.Turn != want.Text || len(in.History) != 0 {
		t.Errorf("turn %q (history %d messages), want fixture basic's turn 1 %q and no history", in.Turn, len(in.History), want.Text)
	}
	// The same turn from Go values.
	in, err = task.Input(promptc.Request{Fixture: "basic", Turn: &promptc.Turn{Values: basic.Turns[0]}})
	if err != nil || in.Turn != want.Text {
		t.Errorf("turn from values: %q, %v; want %q", in.Turn, err, want.Text)
	}

	_, err = task.Input(promptc.Request{Fixture: "basic", Turn: &promptc.Turn{File: &assemble.ValuesFile{Name: "turn.json", Data: []byte(`{"issue_id": 7}`)}}})
	var ds source.Diagnostics
	if !errors.As(err, &ds) || !strings.Contains(ds.String(), "turn.json:1:") {
		t.Errorf("a wrong-typed turn value: %v; want diagnostics at turn.json", err)
	}
	_, err = task.Input(promptc.Request{Fixture: "basic", History: &assemble.ValuesFile{Name: "h.jsonl", Data: []byte("{\"role\": \"wizard\"}\n")}})
	if !errors.As(err, &ds) || !strings.Contains(ds.String(), "h.jsonl:1:") {
		t.Errorf("a bad history line: %v; want diagnostics at h.jsonl", err)
	}
}

// TestInputHistory: turn K of a fixture carries turns 1 to K-1, each with its reply, then a history file's
// messages; with no Turn, a projection is of turn 1.
func TestInputHistory(t *testing.T) {
	task := chat(t)
	history := `{"role": "user", "content": "Also: is NW-161 related?"}` + "\n" +
		`{"role": "assistant", "content": "No: NW-161 is about VAT rounding."}` + "\n"
	in, err := task.Input(promptc.Request{Fixture: "conversation", Turn: &promptc.Turn{K: 3},
		History: &assemble.ValuesFile{Name: "extra.jsonl", Data: []byte(history)}})
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range in.History {
		roles = append(roles, string(m.Role))
	}
	if got := strings.Join(roles, " "); got != "user assistant user assistant user assistant" {
		t.Errorf("history roles %s", got)
	}
	first, err := task.Input(promptc.Request{Fixture: "conversation"})
	if err != nil || len(first.History) != 0 || !strings.Contains(first.Turn, "CHF or as a symbol") {
		t.Errorf("no Turn: %d history messages, %v; want turn 1 and no history", len(first.History), err)
	}
}

// TestRenderRefusals: render's refusals, each saying what to do.
func TestRenderRefusals(t *testing.T) {
	task := chat(t)
	for _, tt := range []struct {
		name string
		r    promptc.Request
		want string
	}{
		{"turn past the end", promptc.Request{Fixture: "conversation", Turn: &promptc.Turn{K: 6}}, `fixture "conversation" has 5 turns; --turn must be between 1 and 5`},
		{"turn of no fixture", promptc.Request{Session: blocks.Values{}, Turn: &promptc.Turn{K: 1}}, "needs the fixture's session"},
		{"fixture and values", promptc.Request{Fixture: "basic", Session: blocks.Values{}}, "choose one"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := task.Render(tt.r)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Render = %v, want an error saying %q", err, tt.want)
			}
		})
	}
	// A default fixture the project leaves to choose is a *blocks.FixtureError the caller can word.
	_, err := task.Render(promptc.Request{})
	var fe *blocks.FixtureError
	if !errors.As(err, &fe) || fe.Problem != blocks.SeveralFixturesForTask {
		t.Errorf("no fixture named: %v; want a FixtureError of several fixtures", err)
	}
}

// TestZeroTask: a Task not taken from a Pipeline names no task, and every method refuses it.
func TestZeroTask(t *testing.T) {
	var task promptc.Task
	if _, err := task.Render(promptc.Request{}); err == nil {
		t.Error("the zero Task rendered")
	}
	if _, err := task.Replays(); err == nil {
		t.Error("the zero Task replayed")
	}
	if _, err := task.Options(promptc.Choice{}); err == nil {
		t.Error("the zero Task chose options")
	}
}

// TestNotCompiled: a project with errors opens to its diagnostics, and a Pipeline that holds what could be read but
// refuses tasks and builds.
func TestNotCompiled(t *testing.T) {
	pl, err := promptc.OpenOverlay("examples/tracker", map[string]string{"blocks/zz.toml": "[[block]]\nid = 3\n"}, promptc.Options{})
	var ds source.Diagnostics
	if !errors.As(err, &ds) || !strings.Contains(ds.String(), "blocks/zz.toml:2:") {
		t.Fatalf("OpenOverlay = %v; want diagnostics at blocks/zz.toml", err)
	}
	if pl == nil || pl.Project() == nil || len(pl.Project().Tasks) == 0 {
		t.Fatal("a project with errors gave no Project")
	}
	if _, err := pl.Artifacts(); err == nil {
		t.Error("a project with errors built")
	}
	if _, err := pl.Lint(""); err == nil {
		t.Error("a project with errors linted")
	}
}

// TestCatalog: the catalog is built once per pipeline; a nil pipeline (no project) gives the built-in rows.
func TestCatalog(t *testing.T) {
	pl := tracker(t)
	a, err := pl.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := pl.Catalog(); a != b {
		t.Error("the catalog was built twice")
	}
	// The project's [[model]] rows apply over the built-in ones.
	mine, err := promptc.OpenFS(fstest.MapFS{
		"promptc.toml": {Data: []byte("name = \"demo\"\ntasks = [\"chat\"]\n\n[runbook]\norder = [\"rules\"]\n\n" +
			"[[model]]\nprovider = \"openai\"\nname = \"mine\"\ncache_read = 0.5\n")},
		"blocks/base.toml": {Data: []byte("[[block]]\nid = \"rules\"\nbody = \"Be brief.\"\n")},
	}, promptc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cat, err := mine.Catalog(); err != nil {
		t.Fatal(err)
	} else if _, err := cat.Model(projection.OpenAI, "mine"); err != nil {
		t.Errorf("the project's [[model]] row is not in its catalog: %v", err)
	}
	var none *promptc.Pipeline
	cat, err := none.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cat.Model(projection.Anthropic, ""); err != nil {
		t.Errorf("the built-in rows have no default anthropic model: %v", err)
	}
}

// TestOptionsChoiceError: a model the catalog lacks is a ChoiceError naming the field.
func TestOptionsChoiceError(t *testing.T) {
	_, err := chat(t).Options(promptc.Choice{Provider: projection.Anthropic, Model: "claude-nope"})
	var ce *promptc.ChoiceError
	if !errors.As(err, &ce) || ce.Field != "model" {
		t.Errorf("Options = %v; want a ChoiceError of the model", err)
	}
}

// TestReplays: named fixtures in their order; one without turns, or none at all, refused.
func TestReplays(t *testing.T) {
	task := chat(t)
	rs, err := task.Replays("conversation", "basic")
	if err != nil || len(rs) != 2 || rs[0].Name != "conversation" || rs[1].Name != "basic" {
		t.Errorf("Replays(conversation, basic) = %d replays, %v", len(rs), err)
	}
	// A project whose only fixture has no turns: named, it is refused; unnamed, there is nothing to replay.
	pl, err := promptc.OpenFS(fstest.MapFS{
		"promptc.toml":     {Data: []byte("name = \"demo\"\ntasks = [\"chat\"]\n\n[runbook]\norder = [\"rules\"]\n")},
		"blocks/base.toml": {Data: []byte("[[block]]\nid = \"rules\"\nbody = \"Be brief.\"\n")},
		"fixtures/f.toml":  {Data: []byte("tasks = [\"*\"]\n")},
	}, promptc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	task, _ = pl.Task("chat")
	if _, err := task.Replays("f"); err == nil || !strings.Contains(err.Error(), `fixture "f" has no [[turn]] entries`) {
		t.Errorf("a fixture without turns: %v", err)
	}
	_, err = task.Replays()
	var nr *promptc.NoReplaysError
	if !errors.As(err, &nr) || nr.Task != "chat" {
		t.Errorf("no replays: %v; want a NoReplaysError", err)
	}
}
