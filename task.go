package promptc

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/explain"
	"github.com/promptc/promptc/internal/overlay"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/projection"
)

// Overlay returns a file system that reads the files of over (slash paths relative to base's root, mapped to their
// text) instead of base's: an editor's unsaved buffers over the files on disk. A directory lists base's entries and
// over's together, so a file never saved is read too. OpenOverlay opens a project through it.
func Overlay(base fs.FS, over map[string]string) fs.FS { return overlay.FS(base, over) }

// Task is one task of an opened project, checked once by Pipeline.Task: a Task always names a task the manifest
// lists. Its zero value names none, and every method refuses it.
type Task struct {
	p    *Pipeline
	name string
}

// Name returns the task's name, as promptc.toml's tasks list writes it.
func (t Task) Name() string { return t.name }

// errNoTask is what the zero Task answers.
var errNoTask = errors.New("no task: take one with Pipeline.Task")

func (t Task) usable() error {
	if t.p == nil {
		return errNoTask
	}
	return t.p.usable()
}

// Request names what to render for a task, as promptc render and promptc project take it (docs/reference.md): the
// session's values and, for a turn message, the turn's. Each comes from a fixture, a values file or Go values.
//
// The session's values come from SessionFile, or Session, or else the fixture named Fixture ("" for the task's only
// fixture: blocks.Project.FixtureFor, whose *blocks.FixtureError says why none is found). Turn names the turn.
type Request struct {
	Fixture     string
	SessionFile *assemble.ValuesFile
	Session     blocks.Values
	// Turn is nil for the runbook (Render), or for turn 1 of the fixture (Projection).
	Turn *Turn
	// History, a JSON Lines file of messages (projection.ReadHistory), is appended to a projection's history;
	// volatile fields are left out as the project's [history] volatile says. Render ignores it.
	History *assemble.ValuesFile
}

// Turn names a turn message's values: turn K (from 1) of the session's fixture, or the values of File, or Values.
type Turn struct {
	K      int
	File   *assemble.ValuesFile
	Values blocks.Values
}

// SourceProblem is a way a Request names its sources wrongly (Request.Check).
type SourceProblem uint8

const (
	// TwoSessions: more than one of Fixture, SessionFile and Session gives the session's values.
	TwoSessions SourceProblem = iota + 1
	// TwoTurns: a fixture's turn (Turn.K) and turn values (Turn.File or Turn.Values) both give the turn.
	TwoTurns
	// TurnOfValues: a fixture's turn is asked of a session given as values, which has no turns.
	TurnOfValues
	// NoTurnValues: a provider request's session is given as values, with no turn values: it has no turn 1 to take.
	NoTurnValues
)

var sourceMessages = [...]string{
	TwoSessions:  "two sources both give session values (a fixture, a session values file, session values); choose one",
	TwoTurns:     "a fixture's turn and turn values both give the turn; choose one",
	TurnOfValues: "a turn of a fixture needs the fixture's session: give the turn's values instead",
	NoTurnValues: "a session values file has no turns: give the turn's values in a turn values file",
}

// SourceError is a Request Check refuses: its sources contradict each other, or one is missing.
type SourceError struct{ Problem SourceProblem }

func (e *SourceError) Error() string { return sourceMessages[e.Problem] }

// Check returns a *SourceError unless r names each source once: the session's values from one of a fixture, a
// values file and Go values, and the turn's from one of a fixture's turn and turn values, a fixture's turn only with
// the fixture's session. A provider request (input, as Input and Project take it) always has a turn, turn 1 of the
// fixture when r.Turn is nil, so a session given as values needs turn values. Render and Input check their request
// with it, the one place these rules are written; a command checks the request its flags name with it before it
// reads a file (a ValuesFile's Data is not looked at).
func (r Request) Check(input bool) error {
	byValues := r.SessionFile != nil || r.Session != nil
	turnK := r.Turn != nil && r.Turn.K != 0
	turnValues := r.Turn != nil && (r.Turn.File != nil || r.Turn.Values != nil)
	problem := SourceProblem(0)
	switch {
	case r.Fixture != "" && byValues || r.SessionFile != nil && r.Session != nil:
		problem = TwoSessions
	case turnK && turnValues:
		problem = TwoTurns
	case turnK && byValues:
		problem = TurnOfValues
	case input && byValues && !turnValues:
		problem = NoTurnValues
	}
	if problem != 0 {
		return &SourceError{Problem: problem}
	}
	return nil
}

// ErrNoTurnMessage is Render's error for a turn message of a project whose [turn] order is empty.
var ErrNoTurnMessage = errors.New("this project has no turn message ([turn] order is empty)")

// session resolves the session source of r: a *blocks.FixtureError when the fixture it names (or the default one)
// cannot be had.
func (t Task) session(r Request) (assemble.RenderRequest, error) {
	req := assemble.RenderRequest{Task: t.name, Session: r.Session, SessionFile: r.SessionFile}
	if r.SessionFile != nil || r.Session != nil {
		return req, nil
	}
	f, err := t.p.prog.Project.FixtureFor(t.name, r.Fixture)
	req.Fixture = f
	return req, err
}

// Render renders the runbook (r.Turn nil) or one turn message of the task, as promptc render prints it. Values files
// are read and checked as assemble.Program.Render reads them; their problems, and the compiler's, come back as a
// source.Diagnostics (errors.As finds it). A turn message over [turn] max_tokens is cut by the turn budget: the
// artifact's Budget says what it cut.
func (t Task) Render(r Request) (*assemble.Artifact, error) {
	if err := t.usable(); err != nil {
		return nil, err
	}
	if r.Turn != nil && len(t.p.prog.Project.Turn.Order) == 0 {
		return nil, ErrNoTurnMessage
	}
	if err := r.Check(false); err != nil {
		return nil, err
	}
	req, err := t.session(r)
	if err != nil {
		return nil, err
	}
	if tr := r.Turn; tr != nil {
		switch {
		case tr.File != nil || tr.Values != nil:
			req.Turn, req.TurnFile, req.TurnValues = -1, tr.File, tr.Values
		default:
			switch n := len(req.Fixture.Turns); {
			case n == 0:
				return nil, fmt.Errorf("fixture %q has no [[turn]] entries; add one, or give turn values with --turn-file", req.Fixture.Name)
			case tr.K < 1 || tr.K > n:
				return nil, fmt.Errorf("fixture %q has %s; --turn must be between 1 and %d", req.Fixture.Name, plural.Count(n, "turn"), n)
			}
			req.Turn = tr.K
		}
	}
	return t.p.prog.Render(req)
}

// Explain says whether block renders in the task and why, what makes its scope, and where it sits in the task's
// artifacts rendered with fixture ("" for the default: the only fixture rendering the task, else the first by name),
// as promptc explain --task does (docs/explain.md). A fixture that cannot be had, or does not render the task, is a
// *blocks.FixtureError; an unknown block is an error that suggests a known one.
func (t Task) Explain(block, fixture string) (*explain.BlockReport, error) {
	if err := t.usable(); err != nil {
		return nil, err
	}
	var f *blocks.Fixture
	if fixture != "" {
		var err error
		if f, err = t.p.prog.Project.FixtureFor(t.name, fixture); err != nil {
			return nil, err
		}
	}
	return explain.Block(t.p.prog, t.name, block, f)
}

// Input renders the runbook, the history and the turn message of one provider request, as promptc project builds
// it (docs/providers.md): with a fixture's turn K, the history is turns 1 to K-1 each followed by its reply; with
// turn values, the history is empty. r.History is appended after it. A session given as values needs the turn's
// values too (it has no turns). Problems of values files, a fixture's and a history file's come back as a
// source.Diagnostics (errors.As finds it).
func (t Task) Input(r Request) (projection.Input, error) {
	if err := t.usable(); err != nil {
		return projection.Input{}, err
	}
	tr := r.Turn
	if tr == nil {
		tr = &Turn{K: 1}
	}
	byValues := tr.File != nil || tr.Values != nil
	if err := r.Check(true); err != nil {
		return projection.Input{}, err
	}
	req, err := t.session(r)
	if err != nil {
		return projection.Input{}, err
	}
	var in projection.Input
	if byValues {
		rb, err := t.p.prog.Render(req)
		if err != nil {
			return projection.Input{}, err
		}
		req.Turn, req.TurnFile, req.TurnValues = -1, tr.File, tr.Values
		turn, err := t.p.prog.Render(req)
		if err != nil {
			return projection.Input{}, err
		}
		in = projection.Input{Runbook: rb, Turn: turn.Text}
	} else if in, err = projection.FixtureInput(t.p.prog, t.name, req.Fixture, tr.K); err != nil {
		return projection.Input{}, err
	}
	if r.History != nil {
		h, err := projection.ReadHistory(bytes.NewReader(r.History.Data), r.History.Name, t.p.prog.Project.Volatile)
		if err != nil {
			return projection.Input{}, err
		}
		in.History = append(in.History, h...)
	}
	return in, nil
}

// Choice is what a provider request is projected for, as promptc project's and simulate's flags choose it
// (docs/providers.md): the provider, its model, how tools are sent, the cache mode and lifetime, and the history
// budget. Options turns it into projection.Options.
type Choice struct {
	Provider projection.Provider
	// Model is the model's name; "" for the provider's default (a [[model]] row of the project included).
	Model string
	// Tools says how the task's [[tool]]s reach the model.
	Tools projection.ToolsMode
	// Cache and TTL are the zero values (the model's first mode, its default lifetime) unless chosen.
	Cache projection.CacheMode
	TTL   projection.TTL
	// MaxHistoryTokens, MaxTokens and Gap are projection.Options' (0: no budget, Anthropic's 4096, each turn's
	// after).
	MaxHistoryTokens, MaxTokens int
	Gap                         time.Duration
}

// Set sets what the flag named name chooses, from its text value, as promptc project's and simulate's flags do:
// "provider", "model", "tools", "cache" or "ttl" (each field's own Set parses it, did-you-mean included). Any other
// name is an error.
func (c *Choice) Set(name, value string) error {
	var v interface{ Set(string) error }
	switch name {
	case "provider":
		v = &c.Provider
	case "model":
		c.Model = value
		return nil
	case "tools":
		v = &c.Tools
	case "cache":
		v = &c.Cache
	case "ttl":
		v = &c.TTL
	default:
		return fmt.Errorf("no choice %q: provider, model, tools, cache or ttl", name)
	}
	return v.Set(value)
}

// ChoiceError is a Choice the catalog or the model's rules refuse: Field names what was chosen ("model"), or is ""
// for a combination.
type ChoiceError struct {
	Field string
	Err   error
}

func (e *ChoiceError) Error() string { return e.Err.Error() }
func (e *ChoiceError) Unwrap() error { return e.Err }

// Options returns the projection options c chooses for the task: the model from the project's catalog, the task's
// tools as c.Tools sends them, and the pipeline's token counter. A model the catalog does not hold, or a mode or
// lifetime the model does not offer, is a *ChoiceError.
func (t Task) Options(c Choice) (projection.Options, error) {
	var opt projection.Options
	if err := t.usable(); err != nil {
		return opt, err
	}
	cat, err := t.p.Catalog()
	if err != nil {
		return opt, err
	}
	if opt.Model, err = cat.Model(c.Provider, c.Model); err != nil {
		return opt, &ChoiceError{Field: "model", Err: err}
	}
	opt.Tools = c.Tools.Tools(t.p.prog.Project, t.name)
	opt.Cache, opt.TTL = c.Cache, c.TTL
	opt.MaxHistoryTokens, opt.MaxTokens, opt.Gap = c.MaxHistoryTokens, c.MaxTokens, c.Gap
	opt.Counter = t.p.counter
	if err := opt.Check(); err != nil {
		return opt, &ChoiceError{Err: err}
	}
	return opt, nil
}

// Projection returns the provider request of r (Input) under opt (Options): the JSON body a client sends, with cache
// markers placed where the model's rules let them pay, as promptc project prints it. opt.Counter nil means the
// pipeline's counter.
func (t Task) Projection(r Request, opt projection.Options) (*projection.Projection, error) {
	in, err := t.Input(r)
	if err != nil {
		return nil, err
	}
	if opt.Counter == nil {
		opt.Counter = t.p.counter
	}
	return projection.New(in, opt)
}

// Replays renders the sessions promptc simulate replays for the task: the fixtures named, in that order (each must
// render the task and have [[turn]] entries), or with none every fixture that renders the task and has turns, by
// name (projection.ReplayFixtures), a *NoReplaysError when there is none. A fixture that cannot be had is a *blocks.FixtureError; its render's problems
// are a source.Diagnostics.
func (t Task) Replays(fixtures ...string) ([]projection.Replay, error) {
	if err := t.usable(); err != nil {
		return nil, err
	}
	p := t.p.prog.Project
	var fs []*blocks.Fixture
	for _, name := range fixtures {
		if name == "" {
			return nil, errors.New("a fixture to replay needs a name")
		}
		f, err := p.FixtureFor(t.name, name)
		if err != nil {
			return nil, err
		}
		if len(f.Turns) == 0 {
			return nil, fmt.Errorf("fixture %q has no [[turn]] entries: a session to replay needs turns", f.Name)
		}
		fs = append(fs, f)
	}
	if len(fixtures) == 0 {
		if fs = projection.ReplayFixtures(p, t.name); len(fs) == 0 {
			return nil, &NoReplaysError{Task: t.name}
		}
	}
	out := make([]projection.Replay, 0, len(fs))
	for _, f := range fs {
		s, err := projection.FixtureReplay(t.p.prog, t.name, f)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// Simulate replays sessions (Replays) against a simulated prompt cache under opt (Options), as promptc simulate
// reports it: per turn, the tokens read from the cache, written to it and sent uncached, and the cost, for
// promptc's layout and the naive ones. opt.Counter nil means the pipeline's counter.
func (t Task) Simulate(sessions []projection.Replay, opt projection.Options) (*projection.Simulation, error) {
	if err := t.usable(); err != nil {
		return nil, err
	}
	if opt.Counter == nil {
		opt.Counter = t.p.counter
	}
	return projection.Simulate(sessions, opt)
}

// NoReplaysError is Replays' error for a task no fixture with [[turn]] entries renders.
type NoReplaysError struct{ Task string }

func (e *NoReplaysError) Error() string {
	return fmt.Sprintf("no fixture renders task %q with [[turn]] entries: add one to replay", e.Task)
}
