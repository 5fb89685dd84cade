package preview

import (
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/explain"
	"github.com/promptc/promptc/lint"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/stats"
	"github.com/promptc/promptc/tokens"
	"github.com/promptc/promptc/usage"
)

// Page is everything the page shows of a project at one moment: the compiled program and its artifacts, or the
// diagnostics that stopped it. It is immutable; the server builds a new one when a source changes.
type Page struct {
	// Version counts the pages a server has built, from 1: the page reloads its views when it changes.
	Version int
	Root    string
	Prog    *assemble.Program // nil when the project does not compile
	Arts    []*assemble.Artifact
	// Problems are the load, compile and render diagnostics when the project does not build.
	Problems source.Diagnostics
	Findings []lint.Finding

	counter *tokens.Counter
	pl      *promptc.Pipeline // nil when the project does not compile
	byPath  map[string]*assemble.Artifact
	// base is the comparison with Options.Base, nil without one or when the project does not compile.
	base     *comparison
	timeline *usage.Series
}

// Options shape a preview (Load, New, Serve, Export).
type Options struct {
	// Base is a git revision (a commit, branch or tag, as promptc diff takes it) to compare the working tree with:
	// promptc serve --base. Every view then shows what changed since it (docs/preview.md). "" compares nothing.
	Base string
	// Counter counts tokens; nil means an o200k_base counter.
	Counter *tokens.Counter
	// Timeline is the series the page draws as its timeline: hit rate per period, with the commits that invalidated a
	// prefix as markers (usage.Tally.Series, Series.Mark; promptc serve --usage, --by, --log). nil draws none.
	Timeline *usage.Series
}

// Load builds a page of the project at root. A project that does not compile is a page too, holding its
// diagnostics: the page shows them instead of stale bytes. The error is for what no page can show: the token
// vocabulary failing to load, or opts.Base naming no commit of the git repository holding root (or root being in
// none).
func Load(root string, opts Options) (*Page, error) {
	counter := opts.Counter
	if counter == nil {
		counter = tokens.New(tokens.O200k)
	}
	s := &Page{Root: root, counter: counter, byPath: map[string]*assemble.Artifact{}, timeline: opts.Timeline}
	pl, err := promptc.Open(root, promptc.Options{Counter: counter})
	if err != nil {
		s.Problems = pl.Diagnostics()
		return s, nil
	}
	arts, err := pl.Artifacts()
	if err != nil {
		var diags source.Diagnostics
		errors.As(err, &diags)
		s.Problems = diags
		return s, nil
	}
	prog := pl.Program()
	s.Prog, s.Arts, s.pl = prog, arts, pl
	for _, a := range arts {
		s.byPath[a.Path] = a
	}
	s.Findings = lint.Run(prog, arts, counter)
	if opts.Base != "" {
		b, err := compare(s, opts.Base)
		if err != nil {
			return nil, err
		}
		s.base = b
	}
	return s, nil
}

// Problem is a diagnostic as the page shows it.
type Problem struct {
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Message  string `json:"message"`
	// Lint is the lint id of a finding, "" for a diagnostic.
	Lint string `json:"lint,omitempty"`
	Fix  string `json:"fix,omitempty"`
	// Bytes are the places in artifacts the finding concerns: each span of the block it names or sits in.
	Bytes []Place `json:"bytes,omitempty"`
}

// Place is a byte range of one artifact.
type Place struct {
	Artifact string `json:"artifact"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
}

// Entry is one artifact in the index.
type Entry struct {
	Path    string `json:"path"`
	Task    string `json:"task"`
	Fixture string `json:"fixture"`
	Kind    string `json:"kind"` // "runbook" or "turn"
	Turn    int    `json:"turn,omitempty"`
	Bytes   int    `json:"bytes"`
	Tokens  int    `json:"tokens"`
	// GlobalPrefix and TaskPrefix are where the runbook's global and task prefixes end, in bytes.
	GlobalPrefix int `json:"global_prefix"`
	TaskPrefix   int `json:"task_prefix"`
	// Status is the artifact against the base revision (Options.Base): "same", "changed", "added" or "removed";
	// absent without one.
	Status string `json:"status,omitempty"`
}

// Index is the page's table of contents: the tasks and fixtures, every artifact, and what is wrong.
type Index struct {
	Version   int      `json:"version"`
	Project   string   `json:"project"`
	Tasks     []string `json:"tasks"`
	Fixtures  []string `json:"fixtures"`
	Providers []string `json:"providers"`
	// Artifacts are in build order: task by task (manifest order), fixtures by name, each runbook before its turns.
	Artifacts []Entry `json:"artifacts"`
	// Problems are the diagnostics when the project does not build (Artifacts is then empty), else the lint
	// findings.
	Problems []Problem `json:"problems"`
	OK       bool      `json:"ok"`
	// Base is the base revision the artifacts are compared with (Options.Base), "" without one. Artifacts the
	// revision builds and the working tree does not follow the others, in path order, with status "removed".
	Base string `json:"base,omitempty"`
}

// Index returns the page's index.
func (s *Page) Index() Index {
	ix := Index{Version: s.Version, OK: s.Prog != nil, Artifacts: []Entry{}, Problems: []Problem{}, Tasks: []string{}, Fixtures: []string{}}
	ix.Providers = provider.Names()
	for _, d := range s.Problems {
		ix.Problems = append(ix.Problems, problem(d))
	}
	if s.Prog == nil {
		return ix
	}
	p := s.Prog.Project
	ix.Project, ix.Tasks = p.Name, slices.Clone(p.Tasks)
	for _, f := range p.Fixtures {
		ix.Fixtures = append(ix.Fixtures, f.Name)
	}
	sort.Strings(ix.Fixtures)
	for _, a := range s.Arts {
		ix.Artifacts = append(ix.Artifacts, s.entry(a))
	}
	if c := s.base; c != nil {
		ix.Base = c.rev
		for _, p := range c.removed {
			ix.Artifacts = append(ix.Artifacts, s.entry(c.old[p]))
		}
	}
	for _, f := range s.Findings {
		pr := problem(f.Diagnostic)
		pr.Lint, pr.Fix = string(f.Lint), f.Suggestion
		pr.Bytes = s.places(f)
		ix.Problems = append(ix.Problems, pr)
	}
	return ix
}

// entry is artifact a as the index lists it.
func (s *Page) entry(a *assemble.Artifact) Entry {
	e := Entry{Path: a.Path, Task: a.Task, Fixture: a.Fixture, Kind: "runbook", Turn: a.Turn, Bytes: len(a.Text),
		Tokens: s.counter.Count(a.Text)}
	if a.Kind == blocks.Turn {
		e.Kind = "turn"
	} else {
		e.GlobalPrefix, e.TaskPrefix = a.PrefixEnd(blocks.ScopeGlobal), a.PrefixEnd(blocks.ScopeTask)
	}
	if s.base != nil {
		e.Status = s.base.status(a.Path)
	}
	return e
}

func problem(d source.Diagnostic) Problem {
	r := d.Range()
	return Problem{Severity: d.Severity.String(), File: r.Filename, Line: r.Start.Line, Col: r.Start.Column, Message: d.Summary}
}

// places are the artifact bytes a finding concerns: every span of the block it names, else of the block whose
// source holds its position.
func (s *Page) places(f lint.Finding) []Place {
	var out []Place
	r := f.Range()
	for _, a := range s.Arts {
		for _, sp := range a.Spans {
			b := sp.Block
			if b.ID == f.Block || f.Block == "" && r.Filename != "" && holds(b, r) {
				out = append(out, Place{Artifact: a.Path, Start: sp.TextStart, End: sp.End})
			}
		}
	}
	return out
}

// holds reports whether r starts in block b's body (a template file's, or the TOML string's), or between its id and
// the end of its body in its blocks file.
func holds(b *blocks.Block, r source.Range) bool {
	in := func(from, to source.Range) bool {
		return from.Filename == r.Filename && to.Filename == r.Filename &&
			from.Start.Line <= r.Start.Line && r.Start.Line <= max(to.End.Line, to.Start.Line)
	}
	return in(b.BodyRange, b.BodyRange) || in(b.Range, b.BodyRange)
}

// BlockSpan is one rendered block of an artifact.
type BlockSpan struct {
	ID    string `json:"id"`
	Title string `json:"title,omitempty"`
	Scope string `json:"scope"`
	// Start and End are the span's bytes, the separator before the block included; TextStart is where the block's
	// own text starts.
	Start     int    `json:"start"`
	TextStart int    `json:"text_start"`
	End       int    `json:"end"`
	Source    string `json:"source"` // path:line:col of the block's definition
	Tasks     string `json:"tasks"`
}

// Segment is a stretch of a runbook of one scope (Artifact.Segments).
type Segment struct {
	Scope string `json:"scope"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// Breakpoint is where a provider's request puts a cache marker in the runbook: after byte Offset.
type Breakpoint struct {
	Offset int `json:"offset"`
	// Tokens is the request's prefix up to the marker.
	Tokens int `json:"tokens"`
}

// View is one artifact as the page draws it.
type View struct {
	Entry
	Text     string      `json:"text"`
	Blocks   []BlockSpan `json:"blocks"`
	Segments []Segment   `json:"segments"`
	// Provider and Model are the ones Breakpoints were placed for (runbooks only).
	Provider    string       `json:"provider,omitempty"`
	Model       string       `json:"model,omitempty"`
	Breakpoints []Breakpoint `json:"breakpoints"`
	// Note says why a runbook has no breakpoint for the provider, when it has none.
	Note string `json:"note,omitempty"`
	// Base is how the artifact differs from the base revision (Options.Base); nil without one. For an artifact
	// only the revision builds (status "removed"), Text is empty, the entry is the revision's and Base.Old holds
	// its bytes.
	Base *Comparison `json:"base,omitempty"`
}

// ErrNoArtifact is returned for an artifact path the page does not hold.
var ErrNoArtifact = errors.New("no such artifact")

// Artifact returns the view of the artifact at path (TASK/FIXTURE.runbook.md or .turn-K.md), with the cache
// breakpoints provider's request places in it (a runbook; "" for none): provider's default model, as promptc
// project places them.
//
// With a base revision (Options.Base), the view also holds its comparison with the revision's (View.Base); an
// artifact only the revision builds is a view too.
func (s *Page) Artifact(path, provider string) (*View, error) {
	a, ok := s.byPath[path]
	var v *View
	var err error
	switch {
	case ok:
		v, err = s.view(a, provider)
	case s.base != nil && s.base.old[path] != nil:
		// Gone from the working tree: the revision's entry, no bytes of its own; Base.Old draws it.
		v = &View{Entry: s.entry(s.base.old[path]), Blocks: []BlockSpan{}, Segments: []Segment{}, Breakpoints: []Breakpoint{}}
	default:
		return nil, ErrNoArtifact
	}
	if err != nil {
		return nil, err
	}
	if s.base != nil {
		if v.Base, err = s.comparisonOf(path, provider); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// view is artifact a as the page draws it, with provider's breakpoints in a runbook ("" for none).
func (s *Page) view(a *assemble.Artifact, provider string) (*View, error) {
	// One artifact's entry, not the whole index: the page asks for a view at every click and every edit.
	v := &View{Entry: s.entry(a), Text: a.Text, Blocks: []BlockSpan{}, Segments: []Segment{}, Breakpoints: []Breakpoint{}}
	for _, sp := range a.Spans {
		b := sp.Block
		tasks := strings.Join(b.Tasks, ", ")
		if slices.Contains(b.Tasks, "*") {
			tasks = "every task"
		}
		if len(b.Except) > 0 {
			tasks += " except " + strings.Join(b.Except, ", ")
		}
		v.Blocks = append(v.Blocks, BlockSpan{ID: b.ID, Title: b.Title, Scope: sp.Scope.String(), Start: sp.Start,
			TextStart: sp.TextStart, End: sp.End, Source: b.Range.String(), Tasks: tasks})
	}
	if a.Kind == blocks.Turn {
		return v, nil
	}
	for _, g := range a.Segments() {
		v.Segments = append(v.Segments, Segment{Scope: g.Scope.String(), Start: g.Start, End: g.End})
	}
	if provider == "" {
		return v, nil
	}
	if err := s.breakpoints(v, a, provider); err != nil {
		return nil, err
	}
	return v, nil
}

// breakpoints places provider's cache markers: the runbook's system parts tile its text, so a marker after one is
// a byte offset of the runbook.
func (s *Page) breakpoints(v *View, a *assemble.Artifact, provider string) error {
	p, m, err := s.model(provider)
	if err != nil {
		return err
	}
	pr, err := projection.New(projection.Input{Runbook: a, Turn: "(the turn)"}, projection.Options{Model: m, Counter: s.counter})
	if err != nil {
		return err
	}
	v.Provider, v.Model = p.String(), m.Name
	off := 0
	for _, pt := range pr.Parts {
		if pt.Kind != projection.SystemPart {
			continue
		}
		off += len(pt.Text)
		if pt.Marker {
			v.Breakpoints = append(v.Breakpoints, Breakpoint{Offset: min(off, len(a.Text)), Tokens: pt.Prefix})
		}
	}
	if len(v.Breakpoints) == 0 {
		v.Note = "no cache breakpoint in the runbook for " + m.Name + ": either the provider caches prefixes automatically (no markers), or no segment's prefix reaches the model's minimum"
	}
	return nil
}

// model returns provider, parsed, and its default model in the project's catalog (the built-in models and the
// project's [[model]] rows), as promptc project and promptc simulate take them with no --model.
func (s *Page) model(provider string) (projection.Provider, projection.Model, error) {
	p, err := projection.ParseProvider(provider)
	if err != nil {
		return p, projection.Model{}, err
	}
	cat, err := s.pl.Catalog()
	if err != nil {
		return p, projection.Model{}, err
	}
	m, err := cat.Model(p, "")
	return p, m, err
}

// Stats is the page's pipeline's Stats, as promptc stats reports them: bytes and tokens per task, block and
// scope, and the shared prefixes.
func (s *Page) Stats() *stats.Report {
	if s.pl == nil {
		return &stats.Report{}
	}
	r, err := s.pl.Stats("")
	if err != nil { // "" names every task's first fixture: only a fixture named and missing fails
		return &stats.Report{}
	}
	return r
}

// Simulate replays task's session fixtures (projection.ReplayFixtures) under provider's default model, as promptc
// simulate does with no --fixture: the per-turn reads, writes and relative cost of promptc's layout and the naive
// ones. A task with no fixture that has turns gives a simulation with no turns.
func (s *Page) Simulate(task, provider string) (*projection.Simulation, error) {
	if s.Prog == nil {
		return nil, errors.New("the project does not compile")
	}
	t, err := s.pl.Task(task)
	if err != nil {
		return nil, err
	}
	_, m, err := s.model(provider)
	if err != nil {
		return nil, err
	}
	sessions, err := t.Replays()
	var none *promptc.NoReplaysError
	if err != nil && !errors.As(err, &none) {
		return nil, err
	}
	return t.Simulate(sessions, projection.Options{Model: m})
}

// Explain is explain.Line for line n of the artifact at path.
func (s *Page) Explain(path string, n int) (*explain.LineReport, error) {
	if _, ok := s.byPath[path]; !ok {
		return nil, ErrNoArtifact
	}
	return explain.Line(s.Prog, path, n)
}

// Timeline returns the series the page draws as its timeline (Options.Timeline): its periods with their hit rates
// and the commits marked in them. nil when the preview was given none.
func (s *Page) Timeline() *usage.Series { return s.timeline }
