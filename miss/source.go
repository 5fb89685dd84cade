package miss

import (
	"strings"
	"unicode/utf8"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/prefix"
)

// Source is what the project at hand wrote at the byte where B leaves A's prefix.
type Source struct {
	// Side is "A" or "B": the body whose system text the project renders.
	Side string
	// Task and Fixture are the render that matched.
	Task, Fixture string
	// Exact is true when that render is the body's whole system text; otherwise it agrees with it past the
	// differing byte (the global and task prefixes of a body rendered with other session values).
	Exact bool
	// Line and Column (in runes) place the byte in the runbook.
	Line, Column int
	// Block is the block that wrote the byte, and Scope its scope.
	Block *blocks.Block
	Scope blocks.Scope
	// Origin is the finer source, when there is one: a constant, a template line or a value (kinds OriginConstant,
	// OriginTemplate, OriginValue; nil: the block's own text).
	Origin *assemble.Origin
}

// Attribute names the project's source of the byte where r's bodies part, when the difference is in the system
// prompt and the project renders a runbook that B's (else A's) system text starts with up to and including that
// byte: every task is rendered with every fixture that renders it, an exact match preferred. It returns nil when
// no render matches (the bodies came from elsewhere, or from a version of the project too far from this one).
func Attribute(prog *assemble.Program, r *Result) *Source {
	if r.Extends || r.SystemOffset < 0 {
		return nil
	}
	type render struct {
		task, fixture string
		a             *assemble.Artifact
	}
	var renders []render
	for _, task := range prog.Project.Tasks {
		for _, f := range prog.Project.Fixtures {
			if !f.AdmitsTask(task) {
				continue
			}
			a, err := prog.Render(assemble.RenderRequest{Task: task, Fixture: f})
			if err == nil {
				renders = append(renders, render{task, f.Name, a})
			}
		}
	}
	off := r.SystemOffset
	for _, side := range []struct {
		name string
		body *Body
	}{{"B", r.B}, {"A", r.A}} {
		sys := side.body.System()
		if off >= len(sys) {
			continue
		}
		best, bestLen, exact := -1, off, false
		for i, rd := range renders {
			switch n := prefix.Common(rd.a.Text, sys); {
			case rd.a.Text == sys && !exact:
				best, exact = i, true
			case !exact && n > bestLen:
				best, bestLen = i, n
			}
		}
		if best < 0 {
			continue
		}
		rd := renders[best]
		s := &Source{Side: side.name, Task: rd.task, Fixture: rd.fixture, Exact: exact}
		s.Line, s.Column = lineCol(rd.a.Text, off)
		if sp, ok := rd.a.SpanAt(off); ok {
			s.Block, s.Scope = sp.Block, sp.Scope
		}
		if o, ok := rd.a.Origin(off); ok {
			s.Origin = origin(o)
			if s.Block == nil {
				s.Block = o.Block
			}
		}
		return s
	}
	return nil
}

// origin keeps the sources finer than a block, as check's report does: a constant, a template file's line, a value.
func origin(o assemble.Origin) *assemble.Origin {
	switch o.Kind {
	case assemble.OriginConstant, assemble.OriginTemplate, assemble.OriginValue:
		return &o
	}
	return nil
}

func lineCol(text string, off int) (int, int) {
	before := text[:off]
	line := strings.Count(before, "\n") + 1
	col := utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
	return line, col
}
