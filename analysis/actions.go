package analysis

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/lint"
	"github.com/promptc/promptc/source"
)

// Action is a fix an editor can apply: a title, the diagnostic it fixes, and the edits by file.
type Action struct {
	Title      string
	Diagnostic source.Diagnostic
	Edits      map[string][]Edit
}

// CodeActions returns the fixes for the problems whose range meets bytes [start, end] of file name: the lint
// suggestions that are edits (move a block in runbook.order for a scope inversion, replace pasted text by
// {{const "…"}}), and the replacement of a misspelt name by the name the diagnostic suggests. It runs Lint when the
// project compiles.
func (s *Snapshot) CodeActions(name string, start, end int) []Action {
	var out []Action
	meets := func(r source.Range) bool {
		return r.Filename == name && r.Start.Byte <= end && start <= r.End.Byte
	}
	for _, d := range s.diags {
		if d.Subject == nil || !meets(*d.Subject) {
			continue
		}
		if a, ok := s.suggestName(d); ok {
			out = append(out, a)
		}
	}
	if len(s.diags) == 0 {
		for _, f := range s.Findings() {
			if f.Subject == nil || !meets(*f.Subject) {
				continue
			}
			var a Action
			var ok bool
			switch f.Lint {
			case lint.PastedConstant:
				a, ok = s.pasteFix(f)
			case lint.ScopeInversion:
				a, ok = s.moveFix(f)
			}
			if ok {
				out = append(out, a)
			}
		}
	}
	return out
}

// suggestName replaces an unknown name that a diagnostic is about by the closest defined name of its kind.
func (s *Snapshot) suggestName(d source.Diagnostic) (Action, bool) {
	r := *d.Subject
	for _, o := range s.index().byFile[r.Filename] {
		if o.Range.Start.Byte < r.Start.Byte || o.Range.End.Byte > r.End.Byte || len(s.index().defs(o.Symbol)) > 0 {
			continue
		}
		var names []string
		for _, sym := range s.index().symbols(o.Symbol.Kind) {
			names = append(names, shortName(sym))
		}
		if o.Symbol.Kind == KindField {
			continue
		}
		best := suggest.Suggest(o.Symbol.Name, names)
		if best == "" {
			continue
		}
		return Action{
			Title:      fmt.Sprintf("Change %q to %q", o.Symbol.Name, best),
			Diagnostic: d,
			Edits:      map[string][]Edit{o.Range.Filename: {{Range: o.Range, NewText: best}}},
		}, true
	}
	return Action{}, false
}

// pasteFix replaces the pasted text a pasted-constant finding points at by the const call its Extra names (a
// lint.UseConst; none for a raw body, whose fix is not an edit).
func (s *Snapshot) pasteFix(f lint.Finding) (Action, bool) {
	fix, ok := f.Extra.(lint.UseConst)
	if !ok || s.Project.Consts[fix.Name] == nil {
		return Action{}, false
	}
	call := fmt.Sprintf("{{const %q}}", fix.Name)
	return Action{
		Title:      "Replace the pasted text by " + call,
		Diagnostic: f.Diagnostic,
		Edits:      map[string][]Edit{f.Subject.Filename: {{Range: *f.Subject, NewText: s.inBody(f.Block, f.Subject.Filename, call)}}},
	}, true
}

// inBody returns text as it must be written into the body of block id in file name: escaped for a one-line basic
// TOML string ("…"), as it is in a template file, a literal string or a multi-line string.
func (s *Snapshot) inBody(id, name, text string) string {
	b := s.Project.ByID[id]
	if b == nil || b.Template != "" {
		return text
	}
	r := b.Table.Value("body")
	f := s.Files[name]
	if f == nil || r.Filename != name || r.Start.Byte >= len(f.Text) || strings.HasPrefix(f.Text[r.Start.Byte:], `"""`) || f.Text[r.Start.Byte] != '"' {
		return text
	}
	q := strconv.Quote(text)
	return q[1 : len(q)-1]
}

// moveFix moves a block's entry in runbook.order where a scope-inversion finding's Extra (a lint.MoveEntry) says.
// Only the entries between the old and the new place are rewritten, each in place, so comments and line breaks in
// the list stay where they are.
func (s *Snapshot) moveFix(f lint.Finding) (Action, bool) {
	move, ok := f.Extra.(lint.MoveEntry)
	if !ok {
		return Action{}, false
	}
	slot, anchor := move.Entry, move.Anchor
	order := s.Project.Runbook.Order
	from, to := slices.Index(order, slot), slices.Index(order, anchor)
	if from < 0 || to < 0 || from == to {
		return Action{}, false
	}
	moved := slices.Delete(slices.Clone(order), from, from+1)
	at := slices.Index(moved, anchor)
	if move.After {
		at++
	}
	moved = slices.Insert(moved, at, slot)
	var edits []Edit
	for i := range order {
		if order[i] == moved[i] {
			continue
		}
		r := s.Project.Runbook.EntryRange(i)
		f := s.Files[r.Filename]
		if f == nil || r.End.Byte-r.Start.Byte != len(order[i])+2 {
			return Action{}, false
		}
		edits = append(edits, Edit{Range: r, NewText: strconv.Quote(moved[i])})
	}
	if len(edits) == 0 {
		return Action{}, false
	}
	where := "before"
	if move.After {
		where = "after"
	}
	return Action{
		Title:      fmt.Sprintf("Move %q %s %q in runbook.order", slot, where, anchor),
		Diagnostic: f.Diagnostic,
		Edits:      map[string][]Edit{edits[0].Range.Filename: edits},
	}, true
}

// defs returns the definitions of sym.
func (ix *index) defs(sym Symbol) []Occurrence {
	var out []Occurrence
	for _, o := range ix.bySym[sym] {
		if o.Def {
			out = append(out, o)
		}
	}
	return out
}

// symbols returns the defined symbols of kind, sorted by name.
func (ix *index) symbols(kind SymbolKind) []Symbol {
	var out []Symbol
	for sym, occ := range ix.bySym {
		if sym.Kind == kind && slices.ContainsFunc(occ, func(o Occurrence) bool { return o.Def }) {
			out = append(out, sym)
		}
	}
	slices.SortFunc(out, func(a, b Symbol) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	return out
}
