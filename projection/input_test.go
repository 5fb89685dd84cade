package projection_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/projection"
)

func trackerProgram(t *testing.T) *assemble.Program {
	t.Helper()
	prog, diags := assemble.LoadDir("../examples/tracker")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	return prog
}

// TestNewInputRefusals: a request that cannot name one runbook and one turn is refused before anything renders,
// each refusal saying what to give instead.
func TestNewInputRefusals(t *testing.T) {
	prog := trackerProgram(t)
	basic := prog.Project.Fixture("basic")
	file := &assemble.ValuesFile{Name: "v.json", Data: []byte("{}")}
	for _, tt := range []struct {
		name string
		r    projection.Request
		want string
	}{
		{"nothing", projection.Request{Task: "chat", Turn: 1}, "no session values"},
		{"both sessions", projection.Request{Task: "chat", Fixture: basic, SessionFile: file, TurnFile: file}, "both give session values"},
		{"session file alone", projection.Request{Task: "chat", SessionFile: file}, "give the turn's values in a turn values file"},
		{"both turns", projection.Request{Task: "chat", Fixture: basic, Turn: 2, TurnFile: file}, "both give the turn"},
		{"unknown task", projection.Request{Task: "caht", Fixture: basic, Turn: 1}, `unknown task "caht"`},
		{"turn 0", projection.Request{Task: "chat", Fixture: prog.Project.Fixture("conversation")}, "--turn must be between 1 and 5"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := projection.NewInput(prog, tt.r)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewInput = %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestNewInputFiles: values files give the session and the turn (the runbook rendered with the first, the message
// with the second, no history), and a file's problems come back as diagnostics at the file, as render reports them.
func TestNewInputFiles(t *testing.T) {
	prog := trackerProgram(t)
	basic := prog.Project.Fixture("basic")
	want, err := prog.Render(assemble.Request{Task: "chat", Fixture: basic, Turn: 1})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(basic.Turns[0])
	if err != nil {
		t.Fatal(err)
	}
	in, err := projection.NewInput(prog, projection.Request{Task: "chat", Fixture: basic,
		TurnFile: &assemble.ValuesFile{Name: "turn.json", Data: data}})
	if err != nil {
		t.Fatal(err)
	}
	if in.Turn != want.Text || len(in.History) != 0 {
		t.Errorf("turn %q (history %d messages), want fixture basic's turn 1 %q and no history", in.Turn, len(in.History), want.Text)
	}

	_, err = projection.NewInput(prog, projection.Request{Task: "chat", Fixture: basic,
		TurnFile: &assemble.ValuesFile{Name: "turn.json", Data: []byte(`{"issue_id": 7}`)}})
	var ds blocks.Diagnostics
	if !errors.As(err, &ds) || !strings.Contains(ds.String(), "turn.json:1:") {
		t.Errorf("a wrong-typed turn value: %v; want diagnostics at turn.json", err)
	}
	_, err = projection.NewInput(prog, projection.Request{Task: "chat", Fixture: basic, Turn: 1,
		History: &assemble.ValuesFile{Name: "h.jsonl", Data: []byte("{\"role\": \"wizard\"}\n")}})
	if !errors.As(err, &ds) || !strings.Contains(ds.String(), "h.jsonl:1:") {
		t.Errorf("a bad history line: %v; want diagnostics at h.jsonl", err)
	}
}
