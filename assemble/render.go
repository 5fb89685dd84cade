package assemble

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/templates"
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
}

// Session is one task's runbook rendered for one set of session values. Turn messages of that session render against
// it, since their references point into it. A Session is immutable and safe for concurrent use.
type Session struct {
	prog    *Program
	task    string
	values  map[string]any // prepared session values
	runbook *Artifact
	// rendered holds the ids of the blocks present in the runbook.
	rendered map[string]bool
}

// NewSession renders task's runbook with the given session values (Go values: string, bool, int, []string). Values
// are checked against their declarations: unknown names, wrong types and missing required variables are errors.
func (prog *Program) NewSession(task string, session blocks.Values) (*Session, error) {
	s, diags := prog.newSession(task, session, origin{}, nil)
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

// Runbook returns the session's runbook. Its Text ends with one newline, or is empty when no block renders.
func (s *Session) Runbook() *Artifact { return s.runbook }

// Task returns the session's task.
func (s *Session) Task() string { return s.task }

// Turn renders the per-turn message for the given turn values.
func (s *Session) Turn(turn blocks.Values) (*Artifact, error) {
	a, diags := s.renderTurn(turn, origin{}, 0)
	if len(diags) > 0 {
		return nil, diags
	}
	return a, nil
}

func (prog *Program) newSession(task string, vals blocks.Values, from origin, shared *sync.Map) (*Session, blocks.Diagnostics) {
	var diags blocks.Diagnostics
	if !slices.Contains(prog.Project.Tasks, task) {
		diags.Errorf(from.rng, "unknown task %q%s; the tasks are: %s", task, blocks.DidYouMean(task, prog.Project.Tasks), strings.Join(prog.Project.Tasks, ", "))
		return nil, diags
	}
	data := make(map[string]any, len(prog.sessionVars)+1)
	diags = append(diags, prog.prepare(data, vals, blocks.ScopeSession, from)...)
	if len(diags) > 0 {
		return nil, diags.Sort()
	}
	data["task"] = task
	s := &Session{prog: prog, task: task, values: data}
	s.runbook, s.rendered, diags = prog.assemble(prog.runbook, task, data, nil, blocks.Runbook, shared)
	if len(diags) > 0 {
		return nil, diags
	}
	return s, nil
}

// origin says where values come from, for diagnostics: a place in a fixture or values file (none for values from
// Go), and whether they come from the implicit fixture that stands in for an empty fixtures/.
type origin struct {
	rng      blocks.Range
	implicit bool
}

func fixtureOrigin(f *blocks.Fixture) origin { return origin{rng: f.Range, implicit: f.Implicit} }

// hint completes a "has no value" message: the implicit fixture sets none, and says where to set them.
func (o origin) hint() string {
	if !o.implicit {
		return ""
	}
	return `; fixtures/ is empty, so the implicit fixture "default" sets no values: add fixtures/NAME.toml with a [session] table`
}

// prepare checks vals against the variables of scope and stores their escaped, limited forms in data; absent optional
// variables get their zero value.
func (prog *Program) prepare(data map[string]any, vals blocks.Values, scope blocks.Scope, from origin) blocks.Diagnostics {
	var diags blocks.Diagnostics
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
			diags.Errorf(from.rng, "unknown %s variable %q%s", scope, name, blocks.DidYouMean(name, cands))
		case v.Scope != scope:
			diags.Errorf(from.rng, "%q is a %s variable, not a %s variable", name, v.Scope, scope)
		}
	}
	for _, v := range vars {
		raw, ok := vals[v.Name]
		if !ok {
			if v.Required {
				diags.Errorf(from.rng, "required %s variable %q has no value%s", scope, v.Name, from.hint())
				continue
			}
			data[v.Name] = templates.Zero(v)
			continue
		}
		val, verr := templates.Prepare(v, raw)
		if verr != nil {
			diags.Errorf(from.rng, "%s", verr.Summary)
			continue
		}
		data[v.Name] = val
	}
	return diags
}

func (s *Session) renderTurn(turn blocks.Values, from origin, k int) (*Artifact, blocks.Diagnostics) {
	prog := s.prog
	data := make(map[string]any, len(s.values)+len(prog.turnVars))
	for k, v := range s.values {
		data[k] = v
	}
	if diags := prog.prepare(data, turn, blocks.ScopeTurn, from); len(diags) > 0 {
		return nil, diags.Sort()
	}
	a, _, diags := prog.assemble(prog.turn, s.task, data, s.rendered, blocks.Turn, nil)
	if a != nil {
		a.Turn = k
	}
	return a, diags
}

// refCall is a reference that ran while a block rendered.
type refCall struct {
	from *compiled
	id   string
}

// assemble renders the blocks of an order list for one task (§3.3–3.6). For a turn message, runbook holds the ids of
// the blocks of the task's runbook, which its references must point into.
//
// shared caches the output of session blocks for one set of session values across tasks; nil for none.
func (prog *Program) assemble(slots []*Slot, task string, data map[string]any, runbook map[string]bool, kind blocks.Kind, shared *sync.Map) (*Artifact, map[string]bool, blocks.Diagnostics) {
	var diags blocks.Diagnostics
	sep := prog.Project.Runbook.Separator
	if kind == blocks.Turn {
		sep = prog.Project.Turn.Separator
	}
	a := &Artifact{Task: task, Kind: kind}
	rendered := map[string]bool{}
	var refs []refCall
	holds := func(b *blocks.Block) bool {
		name, negated := b.WhenVar()
		return b.When == "" || truthy(data[name]) != negated
	}
	ti := prog.taskIndex[task]
	// Render every block first, then join them into a text allocated once at its final size: runbooks run to
	// hundreds of kilobytes, and growing them piece by piece copied each one several times.
	type piece struct {
		c    *compiled
		text string
	}
	pieces := make([]piece, 0, len(slots))
	size := 0
	for _, sl := range slots {
		c := sl.pickIndex(ti, holds)
		if c == nil {
			continue
		}
		r := prog.render(c, ti, data, shared)
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
		pieces = append(pieces, piece{c, r.text})
		size += len(sep) + len(c.heading) + 2 + len(r.text)
	}
	var out strings.Builder
	out.Grow(size + 1)
	a.Spans = make([]Span, 0, len(pieces))
	for i, p := range pieces {
		span := Span{Start: out.Len(), Block: p.c.Block, Scope: p.c.scope}
		if i > 0 {
			out.WriteString(sep)
		}
		span.TextStart = out.Len()
		if p.c.heading != "" {
			out.WriteString(p.c.heading)
			out.WriteString("\n\n")
		}
		out.WriteString(p.text)
		span.End = out.Len()
		a.Spans = append(a.Spans, span)
		rendered[p.c.ID] = true
	}
	if len(a.Spans) > 0 {
		out.WriteByte('\n')
		a.Spans[len(a.Spans)-1].End = out.Len()
	}
	a.Text = out.String()

	// A runbook block's references point into its own runbook; a turn block's into its task's runbook.
	present := rendered
	if kind == blocks.Turn {
		present = runbook
	}
	for _, r := range refs {
		if !present[r.id] {
			diags.Errorf(refRange(r), "block %q: ref %q points at a block that is not rendered in task %q's runbook; gate the ref with the same tasks and when, or refer to a block that is there", r.from.ID, r.id, task)
		}
	}
	diags = append(diags, prog.checkMarkers(a)...)
	if len(diags) > 0 {
		return nil, nil, diags.Sort()
	}
	return a, rendered, nil
}

// rendered is one execution of a block body: its trimmed text, the refs that ran, or the error.
type rendered struct {
	text string
	refs []string
	err  *blocks.Diagnostic
}

// renderKey identifies a block's output in a cache: the block, and the task (its index, -1 for any) when the output
// depends on it.
type renderKey struct {
	c    *compiled
	task int
}

// cache says where a block's output can be reused, and under which key. A runbook block that reads no variable
// (scope global or task) renders the same bytes for every session: the program's cache holds it. A session block
// renders the same bytes for every task of one set of session values: the session values' cache (shared, when the
// caller has one) holds it. Either is keyed by task when the block reads .task or the whole data. Refs are replayed
// from the cache, so every runbook still checks them.
func (prog *Program) cache(c *compiled, task int, shared *sync.Map) (*sync.Map, renderKey) {
	key := renderKey{c: c, task: -1}
	if c.body.Uses.Task || c.body.Uses.Data {
		key.task = task
	}
	switch c.scope {
	case blocks.ScopeGlobal, blocks.ScopeTask:
		return &prog.renders, key
	case blocks.ScopeSession:
		return shared, key
	}
	return nil, key
}

// render executes a block body, or returns its cached output.
func (prog *Program) render(c *compiled, task int, data map[string]any, shared *sync.Map) *rendered {
	cache, key := prog.cache(c, task, shared)
	if cache != nil {
		if r, ok := cache.Load(key); ok {
			return r.(*rendered)
		}
	}
	r := &rendered{}
	ref := func(id string) (string, error) {
		target, ok := prog.Project.ByID[id]
		if !ok {
			ids := make([]string, 0, len(prog.Project.Blocks))
			for _, b := range prog.Project.Blocks {
				ids = append(ids, b.ID)
			}
			return "", fmt.Errorf("ref %q: no block has this id%s", id, blocks.DidYouMean(id, ids))
		}
		if target.Title == "" {
			return "", fmt.Errorf("ref %q: block %q has no title, so there is no heading to refer to; give it a title", id, id)
		}
		r.refs = append(r.refs, id)
		return target.Heading(), nil
	}
	r.text, r.err = c.body.Execute(data, ref)
	// Trim (§3.3): leading newlines, trailing spaces, tabs and newlines; an empty result omits the block.
	r.text = strings.TrimRight(strings.TrimLeft(r.text, "\n"), " \t\n")
	if cache != nil {
		cache.Store(key, r)
	}
	return r
}

// truthy: bool true, non-empty string, non-zero int, non-empty list.
func truthy(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return v != ""
	case int:
		return v != 0
	case int64:
		return v != 0
	case []string:
		return len(v) > 0
	case []any:
		return len(v) > 0
	}
	return false
}

// refRange is where a ref call is: the first literal ref to the same id in the block, else the block itself.
func refRange(r refCall) blocks.Range {
	for _, u := range r.from.body.Uses.Refs {
		if u.Name == r.id {
			return r.from.SourceRange(u.Off, u.End)
		}
	}
	return r.from.Range
}

// checkMarkers enforces §3.9: no artifact may contain a target's begin or end marker, since installing it would
// corrupt the context file's managed block.
func (prog *Program) checkMarkers(a *Artifact) blocks.Diagnostics {
	var diags blocks.Diagnostics
	for _, t := range prog.Project.Targets {
		for _, m := range []struct{ which, marker string }{{"begin", t.Begin}, {"end", t.End}} {
			if m.marker == "" {
				continue
			}
			i := strings.Index(a.Text, m.marker)
			if i < 0 {
				continue
			}
			at := t.Range
			owner := ""
			if sp, ok := a.SpanAt(i); ok {
				at, owner = sp.Block.Range, " (from block "+quote(sp.Block.ID)+")"
			}
			diags.Errorf(at, "the %s of task %q contains the %s marker of target %q%s: installing it would corrupt %s; remove or reword that text", kindName(a.Kind), a.Task, m.which, t.Name, owner, blocks.QuoteName(t.File))
		}
	}
	return diags
}

func kindName(kind blocks.Kind) string {
	if kind == blocks.Turn {
		return "turn message"
	}
	return "runbook"
}

func quote(s string) string { return `"` + s + `"` }
