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
	// SessionOrigin and TurnOrigin name where values came from, for diagnostics (a values file, say), and
	// SessionRanges and TurnRanges where each value is written in it (blocks.Project.ReadValues gives them).
	SessionOrigin, TurnOrigin blocks.Range
	SessionRanges, TurnRanges blocks.ValueRanges
}

// Render renders the artifact a request names.
func (prog *Program) Render(req Request) (*Artifact, blocks.Diagnostics) {
	session, from := req.Session, fileOrigin(req.SessionOrigin, req.SessionRanges)
	if req.Fixture != nil && session == nil {
		session, from = req.Fixture.Session, fixtureOrigin(req.Fixture, 0)
	}
	s, diags := prog.newSession(req.Task, session, from, nil)
	if len(diags) > 0 {
		return nil, diags
	}
	var a *Artifact
	switch {
	case req.Turn == 0:
		rb := *s.runbook
		a = &rb
	case req.Turn > 0:
		if req.Fixture == nil || req.Turn > len(req.Fixture.Turns) {
			var diags blocks.Diagnostics
			diags.Errorf(from.rng, "no turn %d to render: the fixture has %d", req.Turn, fixtureTurns(req.Fixture))
			return nil, diags
		}
		a, diags = s.renderTurn(req.Fixture.Turns[req.Turn-1], fixtureOrigin(req.Fixture, req.Turn), req.Turn)
	default:
		a, diags = s.renderTurn(req.TurnValues, fileOrigin(req.TurnOrigin, req.TurnRanges), 0)
	}
	if a != nil && req.Fixture != nil && req.Session == nil && req.Turn >= 0 {
		a.Fixture = req.Fixture.Name
		a.Path = ArtifactPath(a.Task, a.Fixture, a.Kind, a.Turn)
	}
	return a, diags
}

func fixtureTurns(f *blocks.Fixture) int {
	if f == nil {
		return 0
	}
	return len(f.Turns)
}
