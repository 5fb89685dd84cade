package assemble

import (
	"sort"

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
	byName := func(vs []*blocks.Var) {
		sort.Slice(vs, func(i, j int) bool { return vs[i].Name < vs[j].Name })
	}
	byName(prog.sessionVars)
	byName(prog.turnVars)
	ids := make([]string, 0, len(p.Blocks))
	for _, b := range p.Blocks {
		ids = append(ids, b.ID)
	}

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
		at := func(u templates.Use) blocks.Pos {
			line, col := body.Position(u)
			return bodyPos(b, line, col)
		}
		for _, u := range body.Uses.Vars {
			v, ok := p.Vars[u.Name]
			switch {
			case !ok:
				diags.Add(at(u), "block %q uses undeclared variable %q%s: declare it under [vars.%s] in promptc.toml", b.ID, u.Name, blocks.DidYouMean(u.Name, append(varNames, "task")), u.Name)
			case b.Section == blocks.Runbook && v.Scope == blocks.ScopeTurn:
				diags.Add(at(u), "runbook block %q uses turn variable %q: runbook bytes must not depend on the turn; move this text into a turn block", b.ID, u.Name)
			}
		}
		for _, u := range body.Uses.Consts {
			if _, ok := consts[u.Name]; !ok {
				diags.Add(at(u), "block %q uses unknown constant %q%s: define it under [const] in a blocks/ file", b.ID, u.Name, blocks.DidYouMean(u.Name, constNames))
			}
		}
		for _, u := range body.Uses.Refs {
			target, ok := p.ByID[u.Name]
			switch {
			case !ok:
				diags.Add(at(u), "block %q refers to unknown block %q%s", b.ID, u.Name, blocks.DidYouMean(u.Name, ids))
			case b.Section == blocks.Runbook && target.Section == blocks.Turn:
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

// bodyPos maps a line and column inside a block body to a position in its source file. Line 1 of a body written
// inline starts at the column of the TOML value; later lines start at column 1. Col 0 (unknown) maps to the start of
// the line.
func bodyPos(b *blocks.Block, line, col int) blocks.Pos {
	pos := b.BodyPos
	if line <= 0 {
		return blocks.Pos{File: pos.File}
	}
	if col <= 0 {
		col = 1
	}
	if line == 1 {
		return blocks.Pos{File: pos.File, Line: pos.Line, Col: pos.Col + col - 1}
	}
	return blocks.Pos{File: pos.File, Line: pos.Line + line - 1, Col: col}
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
