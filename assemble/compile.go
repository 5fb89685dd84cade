package assemble

import (
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/templates"
)

// Program is a compiled project: every body parsed and checked, every order list resolved. It is immutable, and its
// methods may be called from many goroutines at once.
type Program struct {
	Project *blocks.Project
	blocks  map[string]*compiled
	runbook []*slot
	turn    []*slot
	// sessionVars and turnVars are the declared variables of each scope, sorted by name.
	sessionVars []*blocks.Var
	turnVars    []*blocks.Var
	// renders caches the output of blocks that read no variable: see cacheKey.
	renders sync.Map
}

// compiled is a block with its parsed body and its scope.
type compiled struct {
	*blocks.Block
	body    *templates.Body
	scope   string
	heading string
}

// slot is one entry of an order list: the block placed there and the blocks that may take its place.
type slot struct {
	base      *compiled
	replacers []*compiled
}

// Compile parses and checks every block body of p against the project: unknown variables, constants and references,
// turn variables in runbook blocks (§3.7), runbook blocks referring to turn blocks. It reports every problem at once.
// The returned Program is usable only when there are no diagnostics.
func Compile(p *blocks.Project) (*Program, blocks.Diagnostics) {
	prog := &Program{Project: p, blocks: map[string]*compiled{}}
	var diags blocks.Diagnostics
	consts := make(map[string]string, len(p.Consts))
	constNames := make([]string, 0, len(p.Consts))
	for name, c := range p.Consts {
		consts[name] = c.Value
		constNames = append(constNames, name)
	}
	sort.Strings(constNames)
	varNames := make([]string, 0, len(p.Vars))
	for name, v := range p.Vars {
		varNames = append(varNames, name)
		switch v.Scope {
		case blocks.ScopeSession:
			prog.sessionVars = append(prog.sessionVars, v)
		case blocks.ScopeTurn:
			prog.turnVars = append(prog.turnVars, v)
		}
	}
	sort.Strings(varNames)
	varNames = append(varNames, "task") // for suggestions: .task is a name a body may use too
	byName := func(vs []*blocks.Var) {
		sort.Slice(vs, func(i, j int) bool { return vs[i].Name < vs[j].Name })
	}
	byName(prog.sessionVars)
	byName(prog.turnVars)

	for _, b := range p.Blocks {
		if !b.BodyPos.Known() {
			continue // body missing or unreadable: already reported by the loader
		}
		c := &compiled{Block: b, heading: b.Heading()}
		body, errs := templates.Parse(b.ID, b.Body, b.Raw, consts)
		for _, e := range errs {
			diags.Add(bodyPos(b, e.Line, e.Col), "block %q: %s", b.ID, e.Msg)
		}
		if body == nil {
			continue
		}
		c.body = body
		at := func(u templates.Use) blocks.Pos { return b.SourcePos(u.Off) }
		for _, u := range body.Uses.Vars {
			v, ok := p.Vars[u.Name]
			switch {
			case !ok:
				diags.Add(at(u), "block %q uses undeclared variable %q%s: declare it under [vars.%s] in promptc.toml", b.ID, u.Name, blocks.DidYouMean(u.Name, varNames), u.Name)
			case b.Section == blocks.Runbook && v.Scope == blocks.ScopeTurn:
				diags.Add(at(u), "runbook block %q uses turn variable %q: runbook bytes must not depend on the turn; move this text into a turn block", b.ID, u.Name)
			}
		}
		for _, u := range body.Uses.Consts {
			if _, ok := consts[u.Name]; !ok && !p.Incomplete {
				diags.Add(at(u), "block %q uses unknown constant %q%s: define it under [const] in a blocks/ file", b.ID, u.Name, blocks.DidYouMean(u.Name, constNames))
			}
		}
		for _, u := range body.Uses.Refs {
			target, ok := p.ByID[u.Name]
			// A ref to an unknown id is checked when it runs, like every ref (§3.2); lint reports it statically.
			switch {
			case ok && b.Section == blocks.Runbook && target.Section == blocks.Turn:
				diags.Add(at(u), "runbook block %q refers to turn block %q: a runbook must not point into the per-turn message", b.ID, u.Name)
			}
		}
		c.scope = scopeOf(p, b, body.Uses)
		prog.blocks[b.ID] = c
	}

	prog.runbook = prog.slots(p.Runbook.Order)
	prog.turn = prog.slots(p.Turn.Order)
	return prog, diags.Sort()
}

func (prog *Program) slots(order []string) []*slot {
	var out []*slot
	for _, id := range order {
		c, ok := prog.blocks[id]
		if !ok || c.Slot != id {
			continue
		}
		s := &slot{base: c}
		for _, r := range c.ReplacedBy {
			if rc, ok := prog.blocks[r.ID]; ok {
				s.replacers = append(s.replacers, rc)
			}
		}
		out = append(out, s)
	}
	return out
}

// bodyPos maps a line and column inside a block body (col 0: unknown, the start of the line) to its source file.
func bodyPos(b *blocks.Block, line, col int) blocks.Pos {
	if line <= 0 {
		return blocks.Pos{File: b.BodyPos.File}
	}
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(b.Body[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	for c := 1; c < col && off < len(b.Body) && b.Body[off] != '\n'; c++ {
		_, size := utf8.DecodeRuneInString(b.Body[off:])
		off += size
	}
	return b.SourcePos(off)
}

// scopeOf decides a block's scope (§3.11).
func scopeOf(p *blocks.Project, b *blocks.Block, uses templates.Uses) string {
	if b.Section == blocks.Turn {
		return blocks.ScopeTurn
	}
	session := false
	for _, u := range uses.Vars {
		if v, ok := p.Vars[u.Name]; ok && v.Scope == blocks.ScopeSession {
			session = true
		}
	}
	if name, _ := b.WhenVar(); name != "" {
		if v, ok := p.Vars[name]; ok && v.Scope == blocks.ScopeSession {
			session = true
		}
	}
	if uses.Data {
		// The whole data is every session variable and the task.
		for _, v := range p.Vars {
			if v.Scope == blocks.ScopeSession {
				session = true
			}
		}
	}
	if session {
		return blocks.ScopeSession
	}
	if uses.Task || uses.Data || b.Replaces != "" || len(b.ReplacedBy) > 0 {
		return blocks.ScopeTask
	}
	for _, t := range p.Tasks {
		if !b.AdmitsTask(t) {
			return blocks.ScopeTask
		}
	}
	return blocks.ScopeGlobal
}

// Scope returns the scope of block id (§3.11), or "" for an unknown block.
func (prog *Program) Scope(id string) string {
	if c, ok := prog.blocks[id]; ok {
		return c.scope
	}
	return ""
}

// Body returns block id's body as parsed at compile time: what it uses (variables, constants, refs) and its literal
// text. It returns nil for a block whose body did not compile.
func (prog *Program) Body(id string) *templates.Body {
	if c, ok := prog.blocks[id]; ok {
		return c.body
	}
	return nil
}
