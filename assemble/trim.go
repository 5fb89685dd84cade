package assemble

import (
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/templates"
)

// The block's trim (docs/reference.md#how-a-runbook-is-assembled): a body's output loses its leading newlines and
// its trailing spaces, tabs and newlines, and a body left with nothing is omitted. The white space that an action
// naming a keep_newlines variable or field writes is kept, so that a value that begins or ends with newlines keeps
// them where it begins or ends the block. Which action wrote which byte is asked of the body's trace, and only when a
// block that prints such a value has white space at an edge to trim.

// keepUses returns where, in the body's source, the body names a variable or field with keep_newlines: the byte
// offsets of those uses (templates.Use.Off, FieldUse.Off). nil when it names none, which is almost every block.
func keepUses(p *blocks.Project, uses templates.Uses) []int {
	var at []int
	for _, u := range uses.Vars {
		if v := p.Vars[u.Name]; v != nil && v.KeepNewlines {
			at = append(at, u.Off)
		}
	}
	for _, f := range uses.Fields {
		if fd := fieldOf(p, f); fd != nil && fd.KeepNewlines {
			at = append(at, f.Off)
		}
	}
	return at
}

// fieldOf returns the declaration of the field a body reads, or nil when it is not declared (a compile error).
func fieldOf(p *blocks.Project, f templates.FieldUse) *blocks.Var {
	v := p.Vars[f.Var]
	if v == nil {
		return nil
	}
	if f.Path != "" {
		for _, part := range strings.Split(f.Path, ".") {
			if v = v.Field(part); v == nil {
				return nil
			}
		}
	}
	return v.Field(f.Name)
}

// trimmed returns the part of raw, an output of c's body, that the block keeps, and how many bytes of raw's start
// the trim removed: raw[lead:lead+len(text)] is the text. trace runs the body again with its source map, which
// must give raw again; it is called only when a keep_newlines value might have written white space at an edge.
func (c *compiled) trimmed(raw string, trace func() (string, []templates.Piece, bool)) (text string, lead int) {
	lead = len(raw) - len(strings.TrimLeft(raw, "\n"))
	end := len(strings.TrimRight(raw, " \t\n"))
	if end <= lead {
		return "", len(raw) // nothing but white space: the block is omitted, whatever wrote it
	}
	if len(c.keep) == 0 || lead == 0 && end == len(raw) {
		return raw[lead:end], lead
	}
	again, pieces, ok := trace()
	if !ok || again != raw {
		return raw[lead:end], lead
	}
	kept := c.keptBytes(pieces)
	lead = 0
	for lead < len(raw) && raw[lead] == '\n' && !kept(lead) {
		lead++
	}
	end = len(raw)
	for end > lead && strings.IndexByte(" \t\n", raw[end-1]) >= 0 && !kept(end-1) {
		end--
	}
	return raw[lead:end], lead
}

// keptBytes returns whether byte i of a traced output was written by an action that names a keep_newlines value.
func (c *compiled) keptBytes(pieces []templates.Piece) func(i int) bool {
	return func(i int) bool {
		for _, p := range pieces {
			if i < p.Start || i >= p.End {
				continue
			}
			if !p.Action {
				return false
			}
			for _, off := range c.keep {
				if off >= p.Src && off < p.SrcEnd {
					return true
				}
			}
			return false
		}
		return false
	}
}

// traceFor returns the trace function trimmed needs for one execution of c's body with these values and
// environment (no refs noted: the execution being trimmed noted them).
func (prog *Program) traceFor(c *compiled, ti, level int, pv *prepared) func() (string, []templates.Piece, bool) {
	return func() (string, []templates.Piece, bool) {
		env := prog.env(ti, pv, func(string) {})
		if c.markdown {
			env.Level = level
		}
		env.Lines = c.lines
		raw, pieces, d := c.body.Trace(pv.data, env)
		return raw, pieces, d == nil
	}
}
