package assemble

import "github.com/promptc/promptc/blocks"

// Request names one artifact to render: a task's runbook or one of its turn messages, with values from a fixture or
// given directly.
type Request struct {
	Task string
	// Fixture supplies the session values (and turns) unless Session is set.
	Fixture *blocks.Fixture
	Session blocks.Values
	// Turn selects what to render: 0 the runbook; K >= 1 turn K of Fixture; -1 the turn message for TurnValues.
	Turn       int
	TurnValues blocks.Values
	// SessionOrigin and TurnOrigin name where values came from, for diagnostics (a file path, say).
	SessionOrigin, TurnOrigin blocks.Pos
}

// Render renders the artifact a request names.
func (prog *Program) Render(req Request) (*Artifact, blocks.Diagnostics) {
	session, from := req.Session, origin{pos: req.SessionOrigin}
	if req.Fixture != nil && session == nil {
		session, from = req.Fixture.Session, fixtureOrigin(req.Fixture)
	}
	s, diags := prog.newSession(req.Task, session, from, nil)
	if len(diags) > 0 {
		return nil, diags
	}
	switch {
	case req.Turn == 0:
		return s.runbook, nil
	case req.Turn > 0:
		if req.Fixture == nil || req.Turn > len(req.Fixture.Turns) {
			return nil, blocks.Diagnostics{{Pos: from.pos, Message: "no such turn"}}
		}
		return s.renderTurn(req.Fixture.Turns[req.Turn-1], fixtureOrigin(req.Fixture), req.Turn)
	default:
		return s.renderTurn(req.TurnValues, origin{pos: req.TurnOrigin}, 0)
	}
}
