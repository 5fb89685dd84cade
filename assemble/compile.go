package assemble

import (
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/templates"
)

// Program is a compiled project: every body parsed and checked, every order list resolved. It is immutable, and its
// methods may be called from many goroutines at once.
type Program struct {
	Project *blocks.Project
	blocks  map[string]*compiled
	runbook []*Slot
	turn    []*Slot
	// sessionVars and turnVars are the declared variables of each scope, sorted by name.
	sessionVars []*blocks.Var
	turnVars    []*blocks.Var
	// renders caches the output of blocks that read no variable; sessionSlots is how many places a cache of the
	// session blocks' outputs for one set of session values needs (see Program.cache).
	renders      renderCache
	sessionSlots int
	// taskIndex gives each task's index in the manifest, the index of compiled.admit.
	taskIndex map[string]int
	// markers are the targets' markers; markerTexts the same as strings, which Prepare neutralises in values.
	markers     []marker
	markerTexts []string
	// counter counts tokens for the turn budget; nil: the o200k_base counter (see SetTokenCounter).
	counter TokenCounter
}

// compiled is a block with its parsed body and its scope.
type compiled struct {
	*blocks.Block
	body    *templates.Body
	scope   blocks.Scope
	heading string
	// admit says, by task index, whether the block's static gate admits the task: AdmitsTask, decided once.
	admit []bool
	// markdown is set when the block may print a markdown value, whose headings nest under the heading level
	// the block sits under: its output depends on that level.
	markdown bool
	// lines is set when the block may print a value that lays out lines of its own (markdown, background, code,
	// or one quoted), which the printer places where it stands (templates.Env.Lines).
	lines bool
	// keep holds where the body names a keep_newlines variable or field (keepUses): the white space an action
	// naming one writes at the output's edges is not trimmed. nil for almost every block.
	keep []int
	// index is the block's place in Project.Blocks, where an artifact notes that the block is present in it.
	index int
	// cacheAt is where the block's outputs start in the cache of its scope, and perTask whether it keeps one per
	// task (see Program.cache).
	cacheAt int
	perTask bool
}

// Slot is one entry of an order list: the block placed there and the blocks that may take its place (docs/reference.md#blockstoml
// replaces). Which one fills it depends on the task, and on when conditions.
type Slot struct {
	Base      *blocks.Block
	Replacers []*blocks.Block // in project order

	base *compiled
	reps []*compiled
}

// Pick returns the block that fills the slot in task: the first replacing block whose gate admits the task, else
// the slot's own block if its gate does, else nil. holds decides a block's when condition; nil takes every
// condition to hold, the static view of a task's order that lints read.
func (s *Slot) Pick(task string, holds func(*blocks.Block) bool) *blocks.Block {
	if c := s.pick(task, holds); c != nil {
		return c.Block
	}
	return nil
}

// PickTask is Pick(task, nil) for the task of index ti in the manifest's tasks (Project.Tasks): the block that fills
// the slot by the gates alone, whatever its when, with the gates decided when the program was compiled. It is what a
// pass over every slot of every task calls. An index outside the tasks picks nothing.
func (s *Slot) PickTask(ti int) *blocks.Block {
	if ti < 0 || ti >= len(s.base.admit) {
		return nil
	}
	for _, r := range s.reps {
		if r.admit[ti] {
			return r.Block
		}
	}
	if s.base.admit[ti] {
		return s.base.Block
	}
	return nil
}

func (s *Slot) pick(task string, holds func(*blocks.Block) bool) *compiled {
	return s.pickBy(func(c *compiled) bool { return c.AdmitsTask(task) && (holds == nil || holds(c.Block)) })
}

// pickIndex is pick for the task of index ti, with the gates decided at compile time and the when conditions by
// data. It is pickBy written out: it runs for every slot of every artifact.
func (s *Slot) pickIndex(ti int, data map[string]any) *compiled {
	for _, r := range s.reps {
		if r.admit[ti] && r.holds(data) {
			return r
		}
	}
	if s.base.admit[ti] && s.base.holds(data) {
		return s.base
	}
	return nil
}

// holds reports whether c's when condition holds for data: always, when it has none.
func (c *compiled) holds(data map[string]any) bool {
	return c.WhenHolds(func(name string) bool { return Truthy(data[name]) })
}

func (s *Slot) pickBy(admits func(*compiled) bool) *compiled {
	for _, r := range s.reps {
		if admits(r) {
			return r
		}
	}
	if admits(s.base) {
		return s.base
	}
	return nil
}

// Compile parses and checks every block body of p against the project: unknown variables, constants and references,
// turn variables in runbook blocks (docs/reference.md#the-static-scope-rule), runbook blocks referring to turn blocks. It reports every problem at once.
// The returned Program is usable only when there are no diagnostics.
func Compile(p *blocks.Project) (*Program, source.Diagnostics) { return CompileCached(p, nil) }

// CompileCached is Compile, reusing the parsed bodies of an earlier compile through c for the blocks whose id, raw
// flag and body text have not changed, while the constants and the variables' kinds are as they were (parsing
// depends on nothing else): the result is what Compile returns, and every block is checked against the project
// anew. c may be nil: Compile.
func CompileCached(p *blocks.Project, c *BodyCache) (*Program, source.Diagnostics) {
	prog := &Program{Project: p, blocks: map[string]*compiled{}, taskIndex: make(map[string]int, len(p.Tasks))}
	for i, t := range p.Tasks {
		prog.taskIndex[t] = i
	}
	var diags source.Diagnostics
	consts := templates.Consts{Text: map[string]string{}, Tables: map[string]map[string]string{}, Lists: map[string][]string{}}
	var constNames, tableNames []string
	for name, c := range p.Consts {
		if c.List != nil {
			consts.Lists[name] = c.List
			constNames = append(constNames, name)
			continue
		}
		if c.Lookup != nil {
			consts.Tables[name] = c.Lookup
			tableNames = append(tableNames, name)
			continue
		}
		consts.Text[name] = c.Value
		constNames = append(constNames, name)
	}
	prog.markers = markers(p)
	for _, m := range prog.markers {
		prog.markerTexts = append(prog.markerTexts, m.text)
	}
	consts.Markers = prog.markerTexts
	consts.Tags = authorTags(p)
	consts.Plain = map[string]bool{}
	consts.Scalars = map[string]bool{}
	for name, v := range p.Vars {
		if !v.Type.HasFields() {
			consts.Scalars[name] = true
		}
		switch {
		case v.Type == blocks.TypeBool, v.Type == blocks.TypeInt:
			consts.Plain[name] = true
		case v.Trust == blocks.Trusted && (v.Type.IsText() || v.Type == blocks.TypeList):
			consts.Plain[name] = true
		}
	}
	varNames := make([]string, 0, len(p.Vars)+1)
	for name, v := range p.Vars {
		varNames = append(varNames, name)
		switch v.Scope {
		case blocks.ScopeSession:
			prog.sessionVars = append(prog.sessionVars, v)
		case blocks.ScopeTurn:
			prog.turnVars = append(prog.turnVars, v)
		}
	}
	varNames = append(varNames, "task") // for suggestions: .task is a name a body may use too
	parser, reuse := c.parser(consts, len(p.Blocks))
	defer c.unlock()
	ck := &checker{p: p, vars: suggest.NewSuggester(varNames), consts: suggest.NewSuggester(constNames), tables: suggest.NewSuggester(tableNames)}
	byName := func(vs []*blocks.Var) {
		sort.Slice(vs, func(i, j int) bool { return vs[i].Name < vs[j].Name })
	}
	byName(prog.sessionVars)
	byName(prog.turnVars)

	compiledBlocks := compileBlocks(p, parser, reuse, ck, prog.markers)
	c.keep(compiledBlocks)
	globalSlots := 0 // the places of the program's cache, counted as blocks take them
	for _, cb := range compiledBlocks {
		diags = append(diags, cb.diags...)
		if c := cb.c; c != nil {
			prog.place(c, &globalSlots)
			prog.blocks[c.ID] = c
		}
	}

	prog.renders = make(renderCache, globalSlots)
	prog.runbook = prog.slots(p.Runbook.Order)
	prog.turn = prog.slots(p.Turn.Order)
	return prog, diags.Sort()
}

// place gives c its places in the cache of its scope (Program.cache): one, or one per task when its output
// depends on the task; times cacheLevels when it also depends on the heading level. Turn blocks are not cached.
func (prog *Program) place(c *compiled, globalSlots *int) {
	n := 1
	if u := c.body.Uses; u.Task || u.Data || len(u.Tools) > 0 {
		c.perTask, n = true, len(prog.Project.Tasks)
	}
	if c.markdown {
		n *= cacheLevels
	}
	switch c.scope {
	case blocks.ScopeGlobal, blocks.ScopeTask:
		c.cacheAt, *globalSlots = *globalSlots, *globalSlots+n
	case blocks.ScopeSession:
		c.cacheAt, prog.sessionSlots = prog.sessionSlots, prog.sessionSlots+n
	}
}

// compiledBlock is what compiling one block gave: the block compiled (nil when its body is missing or did not
// parse), and the problems found, in the order the steps found them.
type compiledBlock struct {
	c     *compiled
	diags source.Diagnostics
}

// compileBlocks compiles the blocks of p on as many goroutines as there are processors: parsing the bodies is most
// of compiling, and each block compiles on its own (parsing, then the checks of what it uses, its scope, the
// markers in its text). The results are by index, so that Compile reads them in block order.
func compileBlocks(p *blocks.Project, parser *templates.Parser, reuse map[string]cachedBody, ck *checker, markers []marker) []compiledBlock {
	bs := p.Blocks
	out := make([]compiledBlock, len(bs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(bs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(bs); i = int(next.Add(1)) - 1 {
				if bs[i].BodyRange.Known() { // else the body is missing or unreadable: already reported by the loader
					out[i] = compileBlock(p, parser, reuse, ck, markers, i)
				}
			}
		}()
	}
	wg.Wait()
	return out
}

// compileBlock compiles block k of p, taking its body from reuse when it is there as it was parsed.
func compileBlock(p *blocks.Project, parser *templates.Parser, reuse map[string]cachedBody, ck *checker, markers []marker, k int) compiledBlock {
	b := p.Blocks[k]
	var body *templates.Body
	var diags source.Diagnostics
	if e, ok := reuse[b.ID]; ok && e.text == b.Body && e.raw == b.Raw {
		body = e.body.For(b)
	} else {
		body, diags = parser.Parse(b)
	}
	if body == nil {
		return compiledBlock{diags: diags}
	}
	c := &compiled{Block: b, body: body, heading: b.Heading(), admit: make([]bool, len(p.Tasks)), index: k}
	for i, t := range p.Tasks {
		c.admit[i] = b.AdmitsTask(t)
	}
	diags = append(diags, ck.block(b, body)...)
	c.scope = scopeOf(p, b, body.Uses)
	c.markdown = usesMarkdown(p, body.Uses)
	c.lines = c.markdown || usesLines(p, b, body.Uses)
	c.keep = keepUses(p, body.Uses)
	diags = append(diags, textMarkers(markers, b, body)...)
	return compiledBlock{c: c, diags: diags}
}

func (prog *Program) slots(order []string) []*Slot {
	var out []*Slot
	for _, id := range order {
		c, ok := prog.blocks[id]
		if !ok || c.Slot != id {
			continue
		}
		s := &Slot{Base: c.Block, base: c}
		for _, r := range c.ReplacedBy {
			if rc, ok := prog.blocks[r.ID]; ok {
				s.Replacers = append(s.Replacers, r)
				s.reps = append(s.reps, rc)
			}
		}
		out = append(out, s)
	}
	return out
}

// Slots returns the slots of the runbook's or the turn message's order list, in order. Slots whose block did not
// compile are left out.
func (prog *Program) Slots(kind blocks.Kind) []*Slot {
	if kind == blocks.Turn {
		return prog.turn
	}
	return prog.runbook
}

// ScopeReason is one fact that gives a block its scope (docs/reference.md#scopes): a place in turn.order, a use of a session variable
// or of .task, a call of tools, a replaces link, a gate that leaves tasks out.
type ScopeReason struct {
	// Scope is the scope this fact alone gives the block; the block's scope is the highest of its reasons'.
	Scope blocks.Scope
	// Kind names the rule: "turn", "session", "task", "tools", "replaces", "replaced", "gate", or "global" for the
	// one reason of a block that has none of the others.
	Kind string
	Text string // the fact for people: "its body reads .task"
	// At is where the fact is written: the use in the body, the key, the order entry, the replacing block.
	At source.Range
}

// ScopeReasons returns what gives block id its scope: the reasons of that scope, in the order the rules are
// applied, with where each is written. A global block has one reason, of kind "global". It returns nil for a block
// that is unknown or did not compile. The scope Scope reports is computed from these same reasons.
func (prog *Program) ScopeReasons(id string) []ScopeReason {
	c, ok := prog.blocks[id]
	if !ok {
		return nil
	}
	facts := scopeFacts{detail: true}
	facts.collect(prog.Project, c.Block, c.body.Uses)
	var out []ScopeReason
	for _, r := range facts.out {
		if r.Scope == c.scope {
			out = append(out, r)
		}
	}
	return out
}

// scopeOf decides a block's scope: the highest of its reasons', found without writing them out (Compile decides
// the scope of every block; only explain and lint read the reasons).
func scopeOf(p *blocks.Project, b *blocks.Block, uses templates.Uses) blocks.Scope {
	var facts scopeFacts
	facts.collect(p, b, uses)
	return facts.max
}

// scopeFacts gathers the facts that raise a block's scope: their highest scope always, the reasons themselves (text
// and place) only with detail.
type scopeFacts struct {
	detail bool
	max    blocks.Scope
	n      int
	out    []ScopeReason
}

// add records one fact of scope s; fact tells it for people and where it is written, and is called only with detail.
func (f *scopeFacts) add(s blocks.Scope, kind string, fact func() (string, source.Range)) {
	f.n++
	f.max = max(f.max, s)
	if f.detail {
		text, at := fact()
		f.out = append(f.out, ScopeReason{Scope: s, Kind: kind, Text: text, At: at})
	}
}

// collect finds every fact that raises a block's scope above global (docs/reference.md#scopes), or a single
// "global" reason when none does. A block that calls tools prints the task's tools, so it is of scope task like a
// block that reads .task, unless no tool is gated (every task then has the same tools, and the block may be global).
// The data as a whole (. or $) holds .task and every session variable.
func (f *scopeFacts) collect(p *blocks.Project, b *blocks.Block, uses templates.Uses) {
	if b.Section == blocks.Turn {
		f.add(blocks.ScopeTurn, "turn", func() (string, source.Range) {
			what := "it is in turn.order"
			if b.Slot != b.ID {
				what = fmt.Sprintf("it replaces %q, which is in turn.order", b.Slot)
			}
			var at source.Range
			if i := slices.Index(p.Turn.Order, b.Slot); i >= 0 {
				at = p.Turn.EntryRange(i)
			}
			return what + ": it is part of the per-turn message", at
		})
		return
	}

	session := func(name string) bool {
		v, ok := p.Vars[name]
		return ok && v.Scope == blocks.ScopeSession
	}
	for _, u := range uses.Vars {
		if session(u.Name) {
			f.add(blocks.ScopeSession, "session", func() (string, source.Range) {
				return fmt.Sprintf("its body reads session variable %q", u.Name), b.SourceRange(u.Off, u.End)
			})
		}
	}
	for _, u := range uses.Dropped {
		if session(u.Name) {
			f.add(blocks.ScopeSession, "session", func() (string, source.Range) {
				return fmt.Sprintf("its body calls dropped on session variable %q", u.Name), b.SourceRange(u.Off, u.End)
			})
		}
	}
	if uses.Data || uses.DynamicDropped {
		for _, v := range p.Vars {
			if v.Scope == blocks.ScopeSession {
				f.add(blocks.ScopeSession, "session", func() (string, source.Range) {
					return "its body uses the data as a whole (. or $, or dropped with a computed name), which holds every session variable", b.BodyRange
				})
				break
			}
		}
	}
	for _, u := range b.Cond.Vars() {
		if session(u.Name) {
			f.add(blocks.ScopeSession, "session", func() (string, source.Range) {
				return fmt.Sprintf("when = %q names session variable %q", b.When, u.Name), u.Range
			})
		}
	}

	for _, u := range uses.TaskUses {
		f.add(blocks.ScopeTask, "task", func() (string, source.Range) { return "its body reads .task", b.SourceRange(u.Off, u.End) })
	}
	if uses.Task && len(uses.TaskUses) == 0 {
		f.add(blocks.ScopeTask, "task", func() (string, source.Range) { return "its body reads .task", b.BodyRange })
	}
	if uses.Data {
		f.add(blocks.ScopeTask, "task", func() (string, source.Range) {
			return "its body uses the data as a whole (. or $), which holds .task", b.BodyRange
		})
	}
	// tools prints the task's tools: the same text in every task only when no tool is gated.
	if len(uses.Tools) > 0 && !toolsUngated(p) {
		for _, u := range uses.Tools {
			f.add(blocks.ScopeTask, "tools", func() (string, source.Range) {
				return "its body calls tools, and some tools are gated by task", b.SourceRange(u.Off, u.End)
			})
		}
	}
	if b.Replaces != "" {
		f.add(blocks.ScopeTask, "replaces", func() (string, source.Range) {
			return fmt.Sprintf("it replaces %q", b.Replaces), b.Table.Key("replaces")
		})
	}
	for _, r := range b.ReplacedBy {
		f.add(blocks.ScopeTask, "replaced", func() (string, source.Range) { return fmt.Sprintf("block %q replaces it", r.ID), r.Range })
	}
	if slices.ContainsFunc(p.Tasks, func(t string) bool { return !b.AdmitsTask(t) }) {
		f.add(blocks.ScopeTask, "gate", func() (string, source.Range) {
			var left []string
			for _, t := range p.Tasks {
				if !b.AdmitsTask(t) {
					left = append(left, strconv.Quote(t))
				}
			}
			at := b.Table.Value("tasks")
			if len(b.Except) > 0 {
				at = b.Table.Value("except")
			}
			return "its gate leaves out [" + strings.Join(left, ", ") + "]", at
		})
	}

	if f.n == 0 {
		f.add(blocks.ScopeGlobal, "global", func() (string, source.Range) {
			return "it reads no session variable and not .task, and its gate admits every task", b.Range
		})
	}
}

// toolsUngated reports whether every tool of p is offered in every task, so that the tools function prints the same
// text whatever the task.
func toolsUngated(p *blocks.Project) bool {
	for _, t := range p.Tools {
		for _, task := range p.Tasks {
			if !t.AdmitsTask(task) {
				return false
			}
		}
	}
	return true
}

// Scope returns the scope of block id (docs/reference.md#scopes), and false for a block that is unknown or did not compile.
func (prog *Program) Scope(id string) (blocks.Scope, bool) {
	if c, ok := prog.blocks[id]; ok {
		return c.scope, true
	}
	return 0, false
}

// Body returns block id's body as parsed at compile time: what it uses (variables, constants, refs) and its literal
// text. It returns nil for a block whose body did not compile.
func (prog *Program) Body(id string) *templates.Body {
	if c, ok := prog.blocks[id]; ok {
		return c.body
	}
	return nil
}

// marker is one begin or end marker of a target (docs/workspaces.md).
type marker struct {
	text, which string
	target      *blocks.Target
}

// markers lists every non-empty marker of the project's targets.
func markers(p *blocks.Project) []marker {
	var out []marker
	for _, t := range p.Targets {
		if t.Begin != "" {
			out = append(out, marker{t.Begin, "begin", t})
		}
		if t.End != "" {
			out = append(out, marker{t.End, "end", t})
		}
	}
	return out
}

// textMarkers finds the targets' markers in a block's own text (docs/reference.md#target): its title and the literal text of its body.
// Each is a compile error at the source line that holds it, since installing an artifact holding it would corrupt
// the context file. A constant holding one is a load error at the constant, which blocks.Load reports.
func textMarkers(ms []marker, b *blocks.Block, body *templates.Body) source.Diagnostics {
	var diags source.Diagnostics
	for _, m := range ms {
		fix := func() string {
			return fmt.Sprintf("installing it would corrupt %s; remove or reword that text", source.QuoteName(m.target.File))
		}
		if strings.Contains(b.Title, m.text) {
			diags.Errorf(b.Table.Value("title"), "the title of block %q holds the %s marker of target %q: %s", b.ID, m.which, m.target.Name, fix())
		}
		for _, lit := range body.Literals {
			if i := strings.Index(lit.Text, m.text); i >= 0 {
				diags.Errorf(b.SourceRange(lit.Off+i, lit.Off+i+len(m.text)), "the text of block %q holds the %s marker of target %q: %s", b.ID, m.which, m.target.Name, fix())
			}
		}
	}
	return diags
}
