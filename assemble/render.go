package assemble

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/templates"
	"github.com/promptc/promptc/values"
)

// Artifact is one compiled output: a runbook or a turn message, with its source map.
type Artifact struct {
	// Path is the artifact's path under the output tree ("issue/basic.runbook.md", see ArtifactPath); empty for
	// artifacts rendered through the runtime API, which belong to no fixture.
	Path    string
	Task    string
	Fixture string // the fixture whose values it was rendered with; "" for values given directly
	Kind    blocks.Kind
	Turn    int // 1-based turn number, for turn messages
	Text    string
	Spans   []Span
	// Budget is what the turn budget did to a turn message ([turn] max_tokens): nil when the project sets none.
	Budget *Budget

	// What Origin needs to trace a byte back to its source: the program and values the artifact was rendered
	// with, and where each value was given.
	prog    *Program
	values  *prepared
	valueAt func(name string) source.Range
	// shrunk holds the values each block the turn budget shrank was last rendered with.
	shrunk map[*compiled]*prepared
}

// Session is one task's runbook rendered for one set of session values. Turn messages of that session render against
// it, since their references point into it. A Session is immutable and safe for concurrent use.
type Session struct {
	prog    *Program
	task    string
	values  *prepared // the session values, prepared
	from    origin    // where the session values come from
	runbook *Artifact
	// rendered says, by index in Project.Blocks, which blocks are present in the runbook.
	rendered []bool
}

// NewSession renders task's runbook with the given session values (Go values: string, bool, int, []string). Values
// are checked against their declarations: unknown names, wrong types and missing required variables are errors.
// The error, as Render's, Runbook's and Session.Turn's, is a source.Diagnostics listing every problem.
func (prog *Program) NewSession(task string, session blocks.Values) (*Session, error) {
	if diags := checkTask(prog, task, origin{}); len(diags) > 0 {
		return nil, diags
	}
	s, diags := prog.newSession(task, session, origin{}, nil, nil)
	if len(diags) > 0 {
		return nil, diags
	}
	return s, nil
}

// Runbook renders task's runbook with the given session values. See NewSession.
func (prog *Program) Runbook(task string, session blocks.Values) (*Artifact, error) {
	s, err := prog.NewSession(task, session)
	if err != nil {
		return nil, err
	}
	return s.Runbook(), nil
}

// Runbook returns the session's runbook. Its Text ends with one newline (none with final_newline = false), or is
// empty when no block renders.
func (s *Session) Runbook() *Artifact { return s.runbook }

// Task returns the session's task.
func (s *Session) Task() string { return s.task }

// Turn renders the per-turn message for the given turn values. The error is a source.Diagnostics, as NewSession's.
func (s *Session) Turn(turn blocks.Values) (*Artifact, error) {
	a, diags := s.renderTurn(turn, origin{}, 0, nil)
	if len(diags) > 0 {
		return nil, diags
	}
	return a, nil
}

// newSession renders task's runbook. task is one of the manifest's: NewSession and renderRequest, where a caller names it,
// check it (checkTask); Build takes its tasks from the manifest. shared caches the session blocks' outputs and once the prepared values for
// every task rendered with vals (Build's fixtures); either may be nil.
func (prog *Program) newSession(task string, vals blocks.Values, from origin, shared renderCache, once *onceValues) (*Session, source.Diagnostics) {
	var diags source.Diagnostics
	pv := &prepared{data: make(map[string]any, len(prog.sessionVars)+1), dropped: map[string]int{}}
	if ov, ok := once.get(prog, vals, blocks.ScopeSession, from, task); ok {
		maps.Copy(pv.data, ov.data)
		maps.Copy(pv.dropped, ov.dropped)
		pv.hits = slices.Clone(ov.hits)
	} else if diags = prog.prepare(pv, vals, blocks.ScopeSession, task, from); len(diags) > 0 {
		return nil, diags.Sort()
	}
	pv.data["task"] = task
	s := &Session{prog: prog, task: task, values: pv, from: from}
	s.runbook, s.rendered, diags = prog.assemble(prog.runbook, task, pv, nil, blocks.Runbook, shared)
	if len(diags) > 0 {
		return nil, diags
	}
	s.runbook.valueAt = from.where
	return s, nil
}

// prepared is a set of values as templates see them: the data, how many items each list or records value lost to
// its limits (for dropped), and the trusted values that hold a target's marker, with where each came from.
type prepared struct {
	data    map[string]any
	dropped map[string]int
	hits    []markerHit
}

// markerHit is a trusted value holding a target's marker: if it reaches an artifact, the diagnostic blames it.
type markerHit struct {
	name string // the variable
	m    marker
	at   source.Range
	from string // where the value came from, for the message
}

// with returns a copy of p to which turn values can be added.
func (p *prepared) with(n int) *prepared {
	q := &prepared{data: make(map[string]any, len(p.data)+n), dropped: make(map[string]int, len(p.dropped)), hits: slices.Clone(p.hits)}
	maps.Copy(q.data, p.data)
	maps.Copy(q.dropped, p.dropped)
	return q
}

// origin says where values come from, for diagnostics: the file (none for values from Go), where each value is
// written in it when that is known, how to name the source in a message, and whether they come from the implicit
// fixture that stands in for an empty fixtures/.
type origin struct {
	rng source.Range
	at  func(path string) source.Range // where value path ("name", "name[2]", "name[2].field") is written
	// written reports whether a value for name was written in the source but refused when it was read (and
	// reported then): it is not also missing.
	written  func(name string) bool
	desc     string
	implicit bool
}

func fixtureOrigin(f *blocks.Fixture, k int) origin {
	rng := f.Range
	if k > 0 && k <= len(f.TurnTables) && f.TurnTables[k-1] != nil {
		rng = f.TurnTables[k-1].Header // the [[turn]] table the values come from
	}
	return origin{rng: rng, implicit: f.Implicit, desc: fmt.Sprintf("fixture %q", f.Name),
		at: func(path string) source.Range {
			name, _, _ := strings.Cut(path, "[")
			return f.ValueRange(k, name)
		}}
}

func fileOrigin(file source.Range, ranges *values.Ranges) origin {
	if !file.Known() {
		return origin{} // values from Go
	}
	o := origin{rng: file, desc: "values file " + source.QuoteName(file.Filename)}
	if r := ranges.At(values.RootPath); r.Known() {
		o.rng = r // the table a missing value belongs in, not the file with no place
	}
	if ranges != nil {
		o.written = ranges.Has
		o.at = func(path string) source.Range {
			if r := ranges.At(path); r.Known() {
				return r
			}
			return file
		}
	}
	return o
}

// where is where value path is written, or the source as a whole.
func (o origin) where(path string) source.Range {
	if o.at != nil {
		return o.at(path)
	}
	return o.rng
}

// source names where values came from: a fixture, a values file, or Go.
func (o origin) source() string {
	if o.desc != "" {
		return o.desc
	}
	if o.rng.Known() {
		return source.QuoteName(o.rng.Filename)
	}
	return "the Go API"
}

// hint completes a "has no value" message: the implicit fixture sets none, and says where to set them.
func (o origin) hint() string {
	if !o.implicit {
		return ""
	}
	return `; fixtures/ is empty, so the implicit fixture "default" sets no values: add fixtures/NAME.toml with a [session] table`
}

// prepare checks vals against the variables of scope, as task needs them, and stores their escaped, limited forms in
// pv; absent optional variables get their zero value.
func (prog *Program) prepare(pv *prepared, vals blocks.Values, scope blocks.Scope, task string, from origin) source.Diagnostics {
	return prog.prepareAll(pv, vals, scope, task, from, nil)
}

// onceValues is a set of values prepared once for every task rendered with them (the session, or one turn, of a
// fixture in Build): what prepare makes of the values alone, the problems it found, and the variables they give no
// value for, which it gave their zero values whether a task requires them or not.
type onceValues struct {
	once    sync.Once
	pv      *prepared
	diags   source.Diagnostics
	missing []*blocks.Var
}

// get returns the values prepared once, which prepare would store for task, or false when prepare must run for task
// instead, to word its diagnostics: the values have a problem, or lack one that task requires. o may be nil.
func (o *onceValues) get(prog *Program, vals blocks.Values, scope blocks.Scope, from origin, task string) (*prepared, bool) {
	if o == nil {
		return nil, false
	}
	o.once.Do(func() {
		o.pv = &prepared{data: make(map[string]any, len(vals)), dropped: map[string]int{}}
		o.diags = prog.prepareAll(o.pv, vals, scope, "", from, &o.missing) // with missing, the task is not read
	})
	if len(o.diags) > 0 {
		return nil, false
	}
	for _, v := range o.missing {
		if v.RequiredIn(task) && (from.written == nil || !from.written(v.Name)) {
			return nil, false
		}
	}
	return o.pv, true
}

// prepareAll is prepare; with missing set, an absent variable gets its zero value even when task requires it, and
// is appended to missing (see onceValues).
func (prog *Program) prepareAll(pv *prepared, vals blocks.Values, scope blocks.Scope, task string, from origin, missing *[]*blocks.Var) source.Diagnostics {
	var diags source.Diagnostics
	vars := prog.sessionVars
	if scope == blocks.ScopeTurn {
		vars = prog.turnVars
	}
	names := make([]string, 0, len(vals))
	for name := range vals {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		v, ok := prog.Project.Vars[name]
		switch {
		case !ok:
			var cands []string
			for _, v := range vars {
				cands = append(cands, v.Name)
			}
			diags.Errorf(from.where(name), "unknown %s variable %q%s", scope, name, suggest.DidYouMean(name, cands))
		case v.Scope != scope:
			diags.Errorf(from.where(name), "%q is a %s variable, not a %s variable", name, v.Scope, scope)
		}
	}
	for _, v := range vars {
		raw, ok := vals[v.Name]
		if !ok {
			// A value written but refused by the values file's own checks is reported there already.
			if missing != nil {
				*missing = append(*missing, v)
			} else if v.RequiredIn(task) && (from.written == nil || !from.written(v.Name)) {
				what := "required"
				if v.RequiredFor != nil {
					what = fmt.Sprintf("required (for task %q)", task)
				}
				diags.Errorf(from.rng, "%s %s variable %q has no value%s", what, scope, v.Name, from.hint())
				continue
			}
			// An absent value is the zero value, from which the limits dropped nothing: dropped "name" is 0.
			pv.data[v.Name], pv.dropped[v.Name] = templates.Zero(v), 0
			templates.SetPrinted(pv.data, v.Name, pv.data[v.Name], prog.markerTexts)
			continue
		}
		val, dropped, verr := templates.Prepare(v, raw, prog.markerTexts)
		if verr != nil {
			diags.Errorf(from.where(verr.Path(v.Name)), "%s", verr.Summary)
			continue
		}
		pv.data[v.Name], pv.dropped[v.Name] = val, dropped
		templates.SetPrinted(pv.data, v.Name, val, prog.markerTexts)
		for _, m := range prog.markers {
			if path, ok := trustedMarker(v, val, m.text); ok {
				pv.hits = append(pv.hits, markerHit{name: v.Name, m: m, at: from.where(path), from: from.source()})
			}
		}
	}
	return diags
}

// trustedMarker reports whether a trusted part of a prepared value holds marker, and where (as a value path):
// markers in untrusted, background and code values have been neutralised by Prepare.
func trustedMarker(v *blocks.Var, val any, marker string) (string, bool) {
	switch x := val.(type) {
	case string:
		return v.Name, v.Trust == blocks.Trusted && strings.Contains(x, marker)
	case []string:
		if v.Trust == blocks.Trusted {
			for _, it := range x {
				if strings.Contains(it, marker) {
					return v.Name, true
				}
			}
		}
	case []map[string]any:
		for i, rec := range x {
			if p, ok := trustedFieldMarker(v, rec, marker); ok {
				return fmt.Sprintf("%s[%d].%s", v.Name, i+1, p), true
			}
		}
	case map[string]any:
		if p, ok := trustedFieldMarker(v, x, marker); ok {
			return v.Name + "." + p, true
		}
	}
	return "", false
}

// renderTurn renders the message of turn k; once holds the turn's values prepared for every task (Build), or is nil.
func (s *Session) renderTurn(turn blocks.Values, from origin, k int, once *onceValues) (*Artifact, source.Diagnostics) {
	prog := s.prog
	pv := s.values.with(len(prog.turnVars))
	if ov, ok := once.get(prog, turn, blocks.ScopeTurn, from, s.task); ok {
		maps.Copy(pv.data, ov.data)
		maps.Copy(pv.dropped, ov.dropped)
		pv.hits = append(pv.hits, ov.hits...)
	} else if diags := prog.prepare(pv, turn, blocks.ScopeTurn, s.task, from); len(diags) > 0 {
		return nil, diags.Sort()
	}
	a, _, diags := prog.assemble(prog.turn, s.task, pv, s.rendered, blocks.Turn, nil)
	if a != nil {
		a.Turn = k
		a.valueAt = func(name string) source.Range {
			if v, ok := prog.Project.Vars[name]; ok && v.Scope == blocks.ScopeSession {
				return s.from.where(name)
			}
			return from.where(name)
		}
	}
	return a, diags
}

// refCall is a reference that ran while a block rendered.
type refCall struct {
	from *compiled
	id   string
}

// assemble renders the blocks of an order list for one task (docs/reference.md#how-a-runbook-is-assembled). For a turn message, runbook says which blocks
// are present in the task's runbook (by index in Project.Blocks), which its references must point into.
//
// shared caches the output of session blocks for one set of session values across tasks; nil for none.
func (prog *Program) assemble(slots []*Slot, task string, pv *prepared, runbook []bool, kind blocks.Kind, shared renderCache) (*Artifact, []bool, source.Diagnostics) {
	data := pv.data
	var diags source.Diagnostics
	section := &prog.Project.Runbook
	if kind == blocks.Turn {
		section = &prog.Project.Turn
	}
	sep := section.Separator
	a := &Artifact{Task: task, Kind: kind, prog: prog, values: pv}
	present := make([]bool, len(prog.Project.Blocks)) // the blocks rendered, by index in Project.Blocks
	var refs []refCall
	ti := prog.taskIndex[task]
	// Render every block first, then join them into a text allocated once at its final size: runbooks run to
	// hundreds of kilobytes, and growing them piece by piece copied each one several times.
	// The pieces are dead once the text is joined; their buffer, as long as the slots, is reused by the next
	// artifact rather than allocated (and cleared) for each of them.
	buf := piecesPool.Get().(*[]piece)
	if cap(*buf) < len(slots) {
		*buf = make([]piece, 0, len(slots))
	}
	pieces := (*buf)[:0]
	used := 0 // how many of buf the loop below filled
	defer func() {
		clear((*buf)[:min(used, cap(*buf))]) // hold no text while pooled
		*buf = (*buf)[:0]
		piecesPool.Put(buf)
	}()
	size := 0
	level := 0 // the level of the last titled block rendered so far, which markdown values nest under
	for _, sl := range slots {
		c := sl.pickIndex(ti, data)
		if c == nil {
			continue
		}
		under := level
		if c.Title != "" {
			under = c.Level
		}
		r := prog.render(c, ti, under, pv, shared)
		if r.err != nil {
			diags = append(diags, *r.err)
			continue
		}
		for _, id := range r.refs {
			refs = append(refs, refCall{from: c, id: id})
		}
		if r.text == "" {
			continue
		}
		if c.Title != "" {
			level = c.Level
		}
		pieces = append(pieces, piece{c: c, text: r.text, level: under, lead: r.lead, trail: r.trail})
		size += len(sep) + len(c.heading) + 2 + len(r.text)
	}
	used = len(pieces)
	if kind == blocks.Turn && prog.Project.Turn.MaxTokens > 0 && len(diags) == 0 {
		pieces, a.Budget, a.shrunk = prog.budget(pieces, ti, pv, sep)
	}
	var out strings.Builder
	out.Grow(size + 1)
	a.Spans = make([]Span, 0, len(pieces))
	trail := templates.BreakNone // what the last piece written asks of the text after it
	for i, p := range pieces {
		if p.text == "" {
			continue // omitted by the turn budget
		}
		span := Span{Start: out.Len(), Block: p.c.Block, Scope: p.c.scope}
		if len(a.Spans) > 0 {
			// A value that ends a block or starts an untitled one and lays out lines keeps its distance from the
			// neighbouring block even where the separator gives none (docs/values.md#markdown-and-structure).
			need := trail
			if p.c.heading == "" {
				need = max(need, p.lead)
			}
			if extra := missingBreak(sep, need); extra != "" {
				out.WriteString(extra)
				a.Spans[len(a.Spans)-1].End = out.Len()
				span.Start = out.Len()
			}
			out.WriteString(sep)
		}
		trail = p.trail
		span.TextStart = out.Len()
		if p.c.heading != "" {
			out.WriteString(p.c.heading)
			out.WriteString("\n\n")
		}
		pieces[i].body = out.Len()
		out.WriteString(p.text)
		span.End = out.Len()
		a.Spans = append(a.Spans, span)
		present[p.c.index] = true
	}
	// The joined blocks end with one newline (docs/reference.md#how-a-runbook-is-assembled), unless the project
	// says final_newline = false for this part.
	if len(a.Spans) > 0 && !section.OmitFinalNewline {
		out.WriteByte('\n')
		a.Spans[len(a.Spans)-1].End = out.Len()
	}
	a.Text = out.String()
	marked := prog.holdsMarker(a.Text) // rarely: then markers are broken, and those left are errors
	if marked {
		// Values may assemble a marker with one another or with the text around them: break it in a value. Which
		// bytes values wrote is asked of the bodies again, here only: artifacts rarely hold a marker at all.
		var marks []valueSpan
		for _, p := range pieces {
			if p.text == "" {
				continue
			}
			vals := pv
			if cut, ok := a.shrunk[p.c]; ok {
				vals = cut // the turn budget rendered this block with fewer items
			}
			for _, m := range prog.valueSpans(p.c, ti, p.level, vals) {
				marks = append(marks, valueSpan{p.body + m.start, p.body + m.end})
			}
		}
		var at []int
		if a.Text, at = breakAssembled(a.Text, marks, prog.markerTexts); at != nil {
			shiftSpans(a.Spans, at)
		}
	}

	// A runbook block's references point into its own runbook; a turn block's into its task's runbook.
	inRunbook := present
	if kind == blocks.Turn {
		inRunbook = runbook
	}
	for _, r := range refs {
		if c, ok := prog.blocks[r.id]; !ok || !inRunbook[c.index] {
			diags.Errorf(refRange(r), "block %q: ref %q points at a block that is not rendered in task %q's runbook; gate the ref with the same tasks and when, or refer to a block that is there", r.from.ID, r.id, task)
		}
	}
	if marked { // else there is none to find: breaking them is all that changes the text
		diags = append(diags, prog.checkMarkers(a, pv)...)
	}
	if len(diags) > 0 {
		return nil, nil, diags.Sort()
	}
	return a, present, nil
}

// missingBreak returns the line feeds to put before between (the text between two blocks) so that it separates
// them as br asks: a line feed before its first visible byte (templates.BreakLine), or a blank line
// (templates.BreakBlank).
func missingBreak(between string, br templates.Break) string {
	if br == templates.BreakNone {
		return ""
	}
	lfs := 0
	for i := 0; i < len(between); i++ {
		switch between[i] {
		case ' ', '\t':
			continue
		case '\n':
			lfs++
			if br == templates.BreakLine || lfs == 2 {
				return ""
			}
			continue
		}
		break
	}
	if br == templates.BreakLine || lfs == 1 {
		return "\n"
	}
	return "\n\n"
}

// rendered is one execution of a block body: its trimmed text, the refs that ran, or the error.
type rendered struct {
	text string
	refs []string
	err  *source.Diagnostic
	// lead and trail are what must separate the text from the artifact's text before and after it, for a value
	// it starts or ends with that lays out lines of its own (templates.Output).
	lead, trail templates.Break
}

// renderCache holds block outputs, each at the place its block and key give (see Program.cache). The layout is
// decided at compile time, so that a lookup is an index; a place is filled by whichever goroutine renders the block
// first, and every one of them stores the same bytes.
type renderCache []atomic.Pointer[rendered]

// cacheLevels is how many heading levels (0 to 7) a markdown block's outputs are kept for; a block under another
// level is rendered every time.
const cacheLevels = 8

// cache says where a block's output can be reused: nil when it cannot. A runbook block that reads no variable
// (scope global or task) renders the same bytes for every session: the program's cache holds it. A session block
// renders the same bytes for every task of one set of session values: the session values' cache (shared, when the
// caller has one) holds it. Either keeps one output per task when the block reads .task or the whole data, or calls
// tools, and, for a block that may print a markdown value, one per heading level it sits under, since the value's
// headings nest under it. Refs are replayed from the cache, so every runbook still checks them.
func (prog *Program) cache(c *compiled, task, level int, shared renderCache) *atomic.Pointer[rendered] {
	var cache renderCache
	switch c.scope {
	case blocks.ScopeGlobal, blocks.ScopeTask:
		cache = prog.renders
	case blocks.ScopeSession:
		cache = shared
	}
	if cache == nil {
		return nil
	}
	i := 0
	if c.perTask {
		i = task
	}
	if c.markdown {
		if level < 0 || level >= cacheLevels {
			return nil
		}
		i = i*cacheLevels + level
	}
	return &cache[c.cacheAt+i]
}

// piecesPool holds the buffers assemble lays an artifact's pieces out in.
var piecesPool = sync.Pool{New: func() any { return new([]piece) }}

// render executes a block body, or returns its cached output.
// level is the heading level the block sits under (templates.Env.Level).
func (prog *Program) render(c *compiled, task, level int, pv *prepared, shared renderCache) *rendered {
	at := prog.cache(c, task, level, shared)
	if at != nil {
		if r := at.Load(); r != nil {
			return r
		}
	}
	r := &rendered{}
	var env templates.Env
	if c.body.CallsEnv() { // most bodies call none of its functions: building them allocated more than executing
		env = prog.env(task, pv, func(id string) { r.refs = append(r.refs, id) })
	}
	if c.markdown {
		env.Level = level
	}
	env.Lines = c.lines
	var out templates.Output
	out, r.err = c.body.Run(pv.data, env)
	r.lead, r.trail = out.Lead, out.Trail
	// Trim (docs/reference.md#how-a-runbook-is-assembled): leading newlines, trailing spaces, tabs and newlines,
	// but for what keep_newlines values wrote; an empty result omits the block.
	if r.err == nil {
		r.text, _ = c.trimmed(out.Text, prog.traceFor(c, task, level, pv))
	}
	if at != nil {
		at.Store(r)
	}
	return r
}

// env binds a body's functions to one rendering: task's tools, pv's dropped counts, and refs and titles that note
// each block they point at with noteRef (assemble checks that it renders beside the referring block).
func (prog *Program) env(task int, pv *prepared, noteRef func(id string)) templates.Env {
	target := func(fn, id string) (*blocks.Block, error) {
		b, ok := prog.Project.ByID[id]
		if !ok {
			ids := make([]string, 0, len(prog.Project.Blocks))
			for _, b := range prog.Project.Blocks {
				ids = append(ids, b.ID)
			}
			return nil, fmt.Errorf("%s %q: no block has this id%s", fn, id, suggest.DidYouMean(id, ids))
		}
		if b.Title == "" {
			return nil, fmt.Errorf("%s %q: block %q has no title, so there is no heading to refer to; give it a title", fn, id, id)
		}
		noteRef(id)
		return b, nil
	}
	return templates.Env{
		Ref: func(id string) (string, error) {
			b, err := target("ref", id)
			if err != nil {
				return "", err
			}
			return b.Heading(), nil
		},
		Title: func(id string) (string, error) {
			b, err := target("title", id)
			if err != nil {
				return "", err
			}
			return b.Title, nil
		},
		Dropped: func(name string) (int, error) {
			v, ok := prog.Project.Vars[name]
			if !ok || v.Type != blocks.TypeList && v.Type != blocks.TypeRecords {
				return 0, fmt.Errorf("dropped %q: not a list or records variable", name)
			}
			n, ok := pv.dropped[name]
			if !ok {
				return 0, fmt.Errorf("dropped %q: the variable is not in scope here", name)
			}
			return n, nil
		},
		Tools: func() ([]*blocks.Tool, error) {
			return prog.Project.ToolsFor(prog.Project.Tasks[task]), nil
		},
	}
}

// Truthy is whether a variable's prepared value makes a when condition naming it hold: bool true, a non-empty
// string, a non-zero int, a non-empty list or records, a record with a truthy field. Rendering decides when with it, and explain says why.
func Truthy(v any) bool { return templates.Truthy(v) }

// refRange is where a ref call is: the first literal ref to the same id in the block, else the block itself.
func refRange(r refCall) source.Range {
	for _, u := range r.from.body.Uses.Refs {
		if u.Name == r.id {
			return r.from.SourceRange(u.Off, u.End)
		}
	}
	return r.from.Range
}

// checkMarkers enforces the marker rule (docs/reference.md#target): no artifact may contain a target's begin or end marker, since installing it would
// corrupt the context file's managed block. Markers in a block's own text are compile errors and in untrusted,
// background and code values are neutralised, so one found here came from a trusted value (blamed with where it
// was given) or from elsewhere in a block's output (blamed on the block).
func (prog *Program) checkMarkers(a *Artifact, pv *prepared) source.Diagnostics {
	var diags source.Diagnostics
	for _, m := range prog.markers {
		i := strings.Index(a.Text, m.text)
		if i < 0 {
			continue
		}
		t := m.target
		fix := fmt.Sprintf("installing it would corrupt %s", source.QuoteName(t.File))
		if hit, ok := blame(pv.hits, m, a, i, prog); ok {
			diags.Errorf(hit.at, "trusted variable %q holds the %s marker of target %q (value from %s), which reaches the %s of task %q: %s; remove the marker from the value, or declare the variable untrusted, background or code so that markers in it are neutralised",
				hit.name, m.which, t.Name, hit.from, kindName(a.Kind), a.Task, fix)
			continue
		}
		at := t.Range
		owner := ""
		if sp, ok := a.SpanAt(i); ok {
			at, owner = sp.Block.Range, " (from block "+quote(sp.Block.ID)+")"
		}
		diags.Errorf(at, "the %s of task %q contains the %s marker of target %q%s: %s; remove or reword that text", kindName(a.Kind), a.Task, m.which, t.Name, owner, fix)
	}
	return diags
}

// blame returns the trusted value that most likely put marker m at byte i of a: one that holds m and is used by
// the block that wrote byte i.
func blame(hits []markerHit, m marker, a *Artifact, i int, prog *Program) (markerHit, bool) {
	sp, ok := a.SpanAt(i)
	if !ok {
		return markerHit{}, false
	}
	body := prog.Body(sp.Block.ID)
	for _, h := range hits {
		if h.m != m || body == nil {
			continue
		}
		uses := body.Uses.Data || slices.ContainsFunc(body.Uses.Vars, func(u templates.Use) bool { return u.Name == h.name })
		if uses || slices.Contains(sp.Block.Cond.Names(), h.name) {
			return h, true
		}
	}
	return markerHit{}, false
}

func kindName(kind blocks.Kind) string {
	if kind == blocks.Turn {
		return "turn message"
	}
	return "runbook"
}

func quote(s string) string { return `"` + s + `"` }

// checkTask is the diagnostic of a task name the manifest does not list (blocks.CheckTask), at from: the check of
// the render entry points a caller names a task to (NewSession, Render). promptc.Pipeline.Task checks the same rule
// for the pipeline's handle.
func checkTask(prog *Program, task string, from origin) source.Diagnostics {
	var diags source.Diagnostics
	if err := blocks.CheckTask(task, prog.Project.Tasks); err != nil {
		diags.Errorf(from.rng, "%v", err)
	}
	return diags
}
