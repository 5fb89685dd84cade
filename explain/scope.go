package explain

import (
	"fmt"
	"slices"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// scopeWhy lists what gives b its scope (§3.11), as the compiler decided it: for a session block every use of a
// session variable (body and when), for a task block every use of .task, its replaces links, a tools call and the
// tasks its gate leaves out. The rules are those of the compiler's scopeOf; the scope itself is the compiler's.
func scopeWhy(prog *assemble.Program, b *blocks.Block, scope blocks.Scope) []Reason {
	p := prog.Project
	body := prog.Body(b.ID)
	var out []Reason
	switch scope {
	case blocks.ScopeTurn:
		sec := p.Turn
		if i := slices.Index(sec.Order, b.Slot); i >= 0 {
			what := "it is in turn.order"
			if b.Slot != b.ID {
				what = fmt.Sprintf("it replaces %q, which is in turn.order", b.Slot)
			}
			out = append(out, Reason{"turn", what + ": it is part of the per-turn message", sec.EntryRange(i)})
		}
	case blocks.ScopeSession:
		session := func(name string) bool {
			v := p.Vars[name]
			return v != nil && v.Scope == blocks.ScopeSession
		}
		if body != nil {
			for _, u := range body.Uses.Vars {
				if session(u.Name) {
					out = append(out, Reason{"session", fmt.Sprintf("its body reads session variable %q", u.Name), b.SourceRange(u.Off, u.End)})
				}
			}
			for _, u := range body.Uses.Dropped {
				if session(u.Name) {
					out = append(out, Reason{"session", fmt.Sprintf("its body calls dropped on session variable %q", u.Name), b.SourceRange(u.Off, u.End)})
				}
			}
			if body.Uses.Data || body.Uses.DynamicDropped {
				out = append(out, Reason{"session", "its body uses the data as a whole (. or $, or dropped with a computed name), which holds every session variable", b.BodyRange})
			}
		}
		if name, _ := b.WhenVar(); name != "" && session(name) {
			out = append(out, Reason{"session", fmt.Sprintf("when = %q names session variable %q", b.When, name), b.WhenRange})
		}
	case blocks.ScopeTask:
		if body != nil {
			for _, u := range body.Uses.TaskUses {
				out = append(out, Reason{"task", "its body reads .task", b.SourceRange(u.Off, u.End)})
			}
			if body.Uses.Data {
				out = append(out, Reason{"task", "its body uses the data as a whole (. or $), which holds .task", b.BodyRange})
			}
			for _, u := range body.Uses.Tools {
				out = append(out, Reason{"tools", "its body calls tools, and some tools are gated by task", b.SourceRange(u.Off, u.End)})
			}
		}
		if b.Replaces != "" {
			out = append(out, Reason{"replaces", fmt.Sprintf("it replaces %q", b.Replaces), b.Table.Key("replaces")})
		}
		for _, r := range b.ReplacedBy {
			out = append(out, Reason{"replaced", fmt.Sprintf("block %q replaces it", r.ID), r.Range})
		}
		var left []string
		for _, t := range p.Tasks {
			if !b.AdmitsTask(t) {
				left = append(left, t)
			}
		}
		if len(left) > 0 {
			at := b.Table.Value("tasks")
			if len(b.Except) > 0 {
				at = b.Table.Value("except")
			}
			out = append(out, Reason{"gate", "its gate leaves out " + list(left), at})
		}
	default:
		out = append(out, Reason{"global", "it reads no session variable and not .task, and its gate admits every task", b.Range})
	}
	return out
}

// plural picks the singular or the plural form for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
