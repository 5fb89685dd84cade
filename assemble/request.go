package assemble

import (
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/values"
)

// RenderRequest names one artifact to render: a task's runbook or one of its turn messages, with values from a fixture,
// given directly, or read from values files.
type RenderRequest struct {
	Task string
	// Fixture supplies the session values (and turns) unless Session or SessionFile is set.
	Fixture *blocks.Fixture
	Session blocks.Values
	// Turn selects what to render: 0 the runbook; K >= 1 turn K of Fixture; -1 the turn message for TurnValues
	// (or TurnFile's values).
	Turn       int
	TurnValues blocks.Values
	// SessionOrigin and TurnOrigin name where values came from, for diagnostics (a values file, say), and
	// SessionRanges and TurnRanges where each value is written in it (values.ReadFile gives them).
	SessionOrigin, TurnOrigin source.Range
	SessionRanges, TurnRanges *values.Ranges
	// SessionFile, when set, supplies the session values in place of Session (and of Fixture's), with their
	// origin and ranges; TurnFile likewise the turn values of Turn -1. See ValuesFile.
	SessionFile, TurnFile *ValuesFile
}

// ValuesFile is a values file as a user gives it (docs/values.md): a JSON object or a TOML table of name = value.
// Name is the file's name as diagnostics print it, relative to the project root; "-" stands for standard input
// (printed "<stdin>"). Data is its bytes.
type ValuesFile struct {
	Name string
	Data []byte
}

// Render renders the artifact a request names. The error, when there is one, is a source.Diagnostics listing every
// problem (errors.As finds it), sorted by position.
//
// Values files are read and checked against the declarations of their scope (values.ReadFile), each
// value placed at its key. A file with problems does not stop the render: the compiler runs with the values that
// passed, so that its own problems (a required value missing) are reported along with the file's; a file that
// could not be decoded at all does, after both files are read. A TurnFile needs Turn -1.
func (prog *Program) Render(req RenderRequest) (*Artifact, error) {
	fileDiags, decoded := prog.readFiles(&req)
	if !decoded {
		return nil, fileDiags.Sort()
	}
	a, diags := prog.renderRequest(req)
	if diags = append(fileDiags, diags...); len(diags) > 0 {
		return nil, diags.Sort()
	}
	return a, nil
}

// readFiles replaces req's SessionFile and TurnFile by the values they hold, their origin and ranges, and returns
// the files' diagnostics; decoded is false when a file could not be decoded at all.
func (prog *Program) readFiles(req *RenderRequest) (diags source.Diagnostics, decoded bool) {
	decoded = true
	read := func(f *ValuesFile, scope blocks.Scope) (blocks.Values, source.Range, *values.Ranges) {
		vals, ranges, ds := values.ReadFile(prog.Project, f.Name, f.Data, scope)
		diags, decoded = append(diags, ds...), decoded && vals != nil
		return vals, f.origin(), ranges
	}
	if f := req.SessionFile; f != nil {
		req.Session, req.SessionOrigin, req.SessionRanges = read(f, blocks.ScopeSession)
	}
	if f := req.TurnFile; f != nil {
		if req.Turn != -1 {
			diags.Errorf(f.origin(), "a turn values file gives the turn message of Turn -1, not of turn %d", req.Turn)
			return diags, false
		}
		req.TurnValues, req.TurnOrigin, req.TurnRanges = read(f, blocks.ScopeTurn)
	}
	req.SessionFile, req.TurnFile = nil, nil
	return diags, decoded
}

// origin is the file as a whole, where diagnostics about it point.
func (f *ValuesFile) origin() source.Range {
	if f.Name == "-" {
		return source.FileRange(values.StdinName)
	}
	return source.FileRange(f.Name)
}

// renderRequest renders a request whose values are all given.
func (prog *Program) renderRequest(req RenderRequest) (*Artifact, source.Diagnostics) {
	session, from := req.Session, fileOrigin(req.SessionOrigin, req.SessionRanges)
	if req.Fixture != nil && session == nil {
		session, from = req.Fixture.Session, fixtureOrigin(req.Fixture, 0)
	}
	if diags := checkTask(prog, req.Task, from); len(diags) > 0 {
		return nil, diags
	}
	s, diags := prog.newSession(req.Task, session, from, nil, nil)
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
			var diags source.Diagnostics
			diags.Errorf(from.rng, "no turn %d to render: the fixture has %d", req.Turn, fixtureTurns(req.Fixture))
			return nil, diags
		}
		a, diags = s.renderTurn(req.Fixture.Turns[req.Turn-1], fixtureOrigin(req.Fixture, req.Turn), req.Turn, nil)
	default:
		a, diags = s.renderTurn(req.TurnValues, fileOrigin(req.TurnOrigin, req.TurnRanges), 0, nil)
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
