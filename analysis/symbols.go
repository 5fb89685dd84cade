package analysis

import (
	"slices"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// DocSymbol is one entry of a file's outline: a block, a constant, a variable (with its fields as Children).
// Range covers the whole definition, Selection its name.
type DocSymbol struct {
	Name, Detail     string
	Kind             SymbolKind
	Range, Selection source.Range
	Children         []DocSymbol
}

// Symbols returns the outline of file name, in source order: the blocks and constants of a blocks/ file, the
// tasks and variables (with their fields) of promptc.toml.
func (s *Snapshot) Symbols(name string) []DocSymbol {
	p := s.Project
	var out []DocSymbol
	def := func(sym Symbol) (source.Range, bool) {
		for _, o := range s.index().bySym[sym] {
			if o.Def && o.Range.Filename == name {
				return o.Range, true
			}
		}
		return source.Range{}, false
	}
	for _, b := range p.Blocks {
		sel, ok := def(Symbol{KindBlock, b.ID})
		if !ok {
			continue
		}
		out = append(out, DocSymbol{Name: b.ID, Detail: b.Title, Kind: KindBlock, Range: s.tableRange(b.Table), Selection: sel})
	}
	for _, n := range sortedKeys(p.Consts) {
		c := p.Consts[n]
		if sel, ok := def(Symbol{KindConst, n}); ok {
			r := c.Range
			if c.LookupTable != nil {
				r = s.tableRange(c.LookupTable)
			}
			out = append(out, DocSymbol{Name: n, Detail: "constant", Kind: KindConst, Range: r, Selection: sel})
		}
	}
	for _, n := range sortedKeys(p.Vars) {
		v := p.Vars[n]
		sel, ok := def(Symbol{KindVar, n})
		if !ok {
			continue
		}
		d := DocSymbol{Name: n, Detail: v.Scope.String() + " " + v.Type.String(), Kind: KindVar, Range: s.tableRange(v.Table), Selection: sel}
		for _, f := range v.Fields {
			if fsel, ok := def(Symbol{KindField, n + "." + f.Name}); ok {
				d.Children = append(d.Children, DocSymbol{Name: f.Name, Detail: f.Type.String(), Kind: KindField, Range: s.tableRange(f.Table), Selection: fsel})
			}
		}
		out = append(out, d)
	}
	for _, t := range p.Tasks {
		if sel, ok := def(Symbol{KindTask, t}); ok {
			out = append(out, DocSymbol{Name: t, Detail: "task", Kind: KindTask, Range: sel, Selection: sel})
		}
	}
	slices.SortStableFunc(out, func(a, b DocSymbol) int { return a.Selection.Start.Byte - b.Selection.Start.Byte })
	return out
}

// tableRange is the span of a table: from its header to the end of its last key's value.
func (s *Snapshot) tableRange(t *blocks.Table) source.Range {
	if t == nil {
		return source.Range{}
	}
	r := t.Header
	for _, e := range t.Keys {
		if e.Value.Filename == r.Filename && e.Value.End.Byte > r.End.Byte {
			r.End = e.Value.End
		}
	}
	return r
}
