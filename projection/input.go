package projection

import (
	"bytes"
	"errors"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// Request names what one provider request is built from, as promptc project's flags do (docs/providers.md): the
// session's values (a fixture, or a values file), the turn (a turn of the fixture, or a values file), and a history
// file to append.
type Request struct {
	Task string
	// Fixture gives the session's values and, unless TurnFile is set, turns 1 to Turn-1 (each with its reply) as
	// the history and turn Turn as the message. SessionFile gives the session's values instead; it needs TurnFile.
	Fixture     *blocks.Fixture
	SessionFile *assemble.ValuesFile
	// Turn is the fixture's turn, from 1; TurnFile gives the turn message's values instead (Turn stays 0).
	Turn     int
	TurnFile *assemble.ValuesFile
	// History, a JSON Lines file of messages (ReadHistory), is appended to the history; Volatile fields are left
	// out as the project's [history] volatile says.
	History *assemble.ValuesFile
}

// NewInput renders the runbook, the history and the turn message r names. Values files are read and checked as
// assemble.Program.Render reads them; their problems, a fixture's, and a history file's come back as a
// blocks.Diagnostics (errors.As finds it). A request that names no session values, both kinds, or a session file
// with no turn file is refused before anything renders.
func NewInput(prog *assemble.Program, r Request) (Input, error) {
	switch {
	case r.Fixture == nil && r.SessionFile == nil:
		return Input{}, errors.New("no session values: name a fixture or give a session values file")
	case r.Fixture != nil && r.SessionFile != nil:
		return Input{}, errors.New("a fixture and a session values file both give session values; choose one")
	case r.SessionFile != nil && r.TurnFile == nil:
		return Input{}, errors.New("a session values file has no turns: give the turn's values in a turn values file")
	case r.Turn != 0 && r.TurnFile != nil:
		return Input{}, errors.New("a fixture's turn and a turn values file both give the turn; choose one")
	}
	if err := blocks.CheckTask(r.Task, prog.Project.Tasks); err != nil {
		return Input{}, err
	}
	var in Input
	if r.TurnFile != nil {
		req := assemble.Request{Task: r.Task, Fixture: r.Fixture, SessionFile: r.SessionFile}
		rb, err := prog.Render(req)
		if err != nil {
			return Input{}, err
		}
		req.Turn, req.TurnFile = -1, r.TurnFile
		turn, err := prog.Render(req)
		if err != nil {
			return Input{}, err
		}
		in = Input{Runbook: rb, Turn: turn.Text}
	} else {
		var err error
		if in, err = FixtureInput(prog, r.Task, r.Fixture, r.Turn); err != nil {
			return Input{}, err
		}
	}
	if r.History != nil {
		h, err := ReadHistory(bytes.NewReader(r.History.Data), r.History.Name, prog.Project.Volatile)
		if err != nil {
			return Input{}, err
		}
		in.History = append(in.History, h...)
	}
	return in, nil
}
