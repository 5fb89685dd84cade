package analysis

import (
	"slices"
	"sort"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// SymbolKind is the kind of a symbol: what a name in a project's files names.
type SymbolKind uint8

const (
	// KindBlock is a block id: in an order list, a ref or title call, replaces, a [[lint.allow]] block key.
	KindBlock SymbolKind = iota + 1
	// KindConst is a constant or a lookup table: in [const], a const or lookup call.
	KindConst
	// KindVar is a variable: [vars.NAME], .NAME in a body, when, dropped, a fixture's key.
	KindVar
	// KindField is a field of a record or records variable, named by its path: "var.field" for a field of the
	// variable, "var.field.sub" for a field of that field (docs/reference.md#nested-data), and so on. It is written
	// in [vars.VAR.fields.FIELD], .field inside a range over the variable (or .field.sub), and in the keys of the
	// fixtures' records.
	KindField
	// KindTemplate is a file under templates/, named by its path there: template = "x.md".
	KindTemplate
	// KindFixture is a fixture, named by its file name without .toml: extends = "base".
	KindFixture
	// KindTask is a task: in the manifest's tasks, a gate's tasks and except, a fixture's tasks, required.
	KindTask
)

var kindNames = []string{"", "block", "constant", "variable", "field", "template", "fixture", "task"}

func (k SymbolKind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return "unknown"
}

// Symbol is one named thing of a project.
type Symbol struct {
	Kind SymbolKind
	Name string
}

// Occurrence is where a symbol's name is written: exactly the name's characters (no quotes, no leading dot), so
// that a rename replaces Range and nothing else. The one exception is a fixture's quoted key written with escapes
// ("\u0075rl" = …), whose range is the whole key, quotes included: a rename writes the new name there bare, which
// TOML accepts, since variable and field names are bare keys ([a-z][a-z0-9_]*). Def marks the definition.
type Occurrence struct {
	Symbol Symbol
	Range  source.Range
	Def    bool
}

// index holds every occurrence of every symbol, by file (sorted by start) and by symbol (in file order).
type index struct {
	byFile map[string][]Occurrence
	bySym  map[Symbol][]Occurrence
}

type indexer struct {
	s    *Snapshot
	seen map[[2]any]bool
	occ  []Occurrence
}

func buildIndex(s *Snapshot) *index {
	ix := &indexer{s: s, seen: map[[2]any]bool{}}
	p := s.Project
	for _, t := range p.Tasks {
		ix.quoted(KindTask, t, p.TaskRange(t), true)
	}
	tasks := func(t *blocks.Table, key string, names []string) {
		for i, n := range names {
			if n != "*" {
				ix.quoted(KindTask, n, t.Item(key, i), false)
			}
		}
	}
	for _, v := range p.Vars {
		if v.RequiredFor != nil {
			tasks(v.Table, "required", v.RequiredFor)
		}
	}
	for _, f := range p.Fixtures {
		if !f.Implicit && f.Table != nil {
			if _, own := f.Table.Keys["tasks"]; own {
				tasks(f.Table, "tasks", f.Tasks)
			}
		}
	}
	for _, b := range p.Blocks {
		if _, own := b.Table.Keys["tasks"]; own {
			tasks(b.Table, "tasks", b.Tasks)
		}
		tasks(b.Table, "except", b.Except)
	}
	for i, id := range p.Runbook.Order {
		ix.quoted(KindBlock, id, p.Runbook.EntryRange(i), false)
	}
	for i, id := range p.Turn.Order {
		ix.quoted(KindBlock, id, p.Turn.EntryRange(i), false)
	}
	for _, name := range sortedKeys(p.Consts) {
		c := p.Consts[name]
		ix.named(KindConst, name, c.Range, true)
	}
	for _, name := range sortedKeys(p.Vars) {
		v := p.Vars[name]
		ix.named(KindVar, name, v.Range, true)
		ix.fields(name, v)
	}
	for _, name := range sortedKeys(p.Templates) {
		ix.add(Occurrence{Symbol: Symbol{KindTemplate, name}, Range: source.Range{Filename: "templates/" + name, Start: source.Pos{Line: 1, Column: 1}, End: source.Pos{Line: 1, Column: 1}}, Def: true})
	}
	for _, b := range p.Blocks {
		ix.block(b)
	}
	for _, f := range p.Fixtures {
		if f.Implicit {
			continue
		}
		ix.add(Occurrence{Symbol: Symbol{KindFixture, f.Name}, Range: source.Range{Filename: f.Range.Filename, Start: source.Pos{Line: 1, Column: 1}, End: source.Pos{Line: 1, Column: 1}}, Def: true})
		if f.Extends != "" {
			ix.quoted(KindFixture, f.Extends, f.Table.Value("extends"), false)
		}
		tables := append([]*blocks.Table{f.SessionTable}, f.TurnTables...)
		for _, t := range tables {
			if t == nil {
				continue
			}
			for _, k := range t.ValueKeys {
				if k.Field == "" {
					ix.key(KindVar, k.Var, k.Var, k.Range)
				} else {
					ix.key(KindField, k.Var+"."+k.Field, k.Field[strings.LastIndexByte(k.Field, '.')+1:], k.Range)
				}
			}
		}
	}
	for _, a := range p.Allow {
		if a.Block == "" {
			continue
		}
		kind := KindBlock
		if _, ok := p.ByID[a.Block]; !ok {
			if _, ok := p.Consts[a.Block]; ok {
				kind = KindConst
			} else if _, ok := p.Vars[a.Block]; ok {
				kind = KindVar
			}
		}
		ix.quoted(kind, a.Block, a.Table.Value("block"), false)
	}

	out := &index{byFile: map[string][]Occurrence{}, bySym: map[Symbol][]Occurrence{}}
	slices.SortStableFunc(ix.occ, func(a, b Occurrence) int {
		if c := strings.Compare(a.Range.Filename, b.Range.Filename); c != 0 {
			return c
		}
		return a.Range.Start.Byte - b.Range.Start.Byte
	})
	for _, o := range ix.occ {
		out.bySym[o.Symbol] = append(out.bySym[o.Symbol], o)
		if o.Range.End.Byte > o.Range.Start.Byte {
			out.byFile[o.Range.Filename] = append(out.byFile[o.Range.Filename], o)
		}
	}
	return out
}

func (ix *indexer) block(b *blocks.Block) {
	if b.ID != "" {
		ix.quoted(KindBlock, b.ID, b.Table.Value("id"), true)
	}
	if b.Replaces != "" {
		ix.quoted(KindBlock, b.Replaces, b.Table.Value("replaces"), false)
	}
	if b.Template != "" {
		ix.quoted(KindTemplate, b.Template, b.Table.Value("template"), false)
	}
	for _, u := range b.Cond.Vars() {
		if u.Range.Known() {
			ix.named(KindVar, u.Name, u.Range, false)
		}
	}
	body := ix.s.Program.Body(b.ID)
	if body == nil || body.Block != b {
		return
	}
	u := body.Uses
	for _, x := range u.Vars {
		ix.bodyUse(b, KindVar, x.Name, x.Name, x.Off, x.End)
	}
	for _, x := range u.Dropped {
		ix.bodyUse(b, KindVar, x.Name, x.Name, x.Off, x.End)
	}
	for _, x := range u.Fields {
		sym := x.Var + "."
		if x.Path != "" {
			sym += x.Path + "." // a field of a nested field: {{.ref.url}} inside a range over resources
		}
		ix.bodyUse(b, KindField, sym+x.Name, x.Name, x.Off, x.End)
	}
	for _, x := range u.Consts {
		ix.bodyUse(b, KindConst, x.Name, x.Name, x.Off, x.End)
	}
	for _, x := range u.Lookups {
		ix.bodyUse(b, KindConst, x.Name, x.Name, x.Off, x.End)
	}
	for _, x := range u.Refs {
		ix.bodyUse(b, KindBlock, x.Name, x.Name, x.Off, x.End)
	}
	for _, x := range u.Titles {
		ix.bodyUse(b, KindBlock, x.Name, x.Name, x.Off, x.End)
	}
}

// bodyUse records a use of sym at body bytes [off, end) of b: ".name", or a quoted "name", whose delimiters are
// dropped. written is the name as the body writes it (a field's own name for a field).
func (ix *indexer) bodyUse(b *blocks.Block, kind SymbolKind, sym, written string, off, end int) {
	if off < 0 || end > len(b.Body) || off >= end {
		return
	}
	switch c := b.Body[off]; {
	case c == '.':
		off++
	case (c == '"' || c == '`') && end-off >= 2:
		off, end = off+1, end-1
	}
	if b.Body[off:end] != written {
		return
	}
	r := b.SourceRange(off, end)
	if f := ix.s.Files[r.Filename]; f == nil || r.End.Byte > len(f.Text) || f.Text[r.Start.Byte:r.End.Byte] != written {
		return // written with escapes: no range holds exactly the name, so it cannot be renamed in place
	}
	ix.add(Occurrence{Symbol: Symbol{kind, sym}, Range: r})
}

// quoted records a TOML string value at r (quotes included) that holds name.
func (ix *indexer) quoted(kind SymbolKind, name string, r source.Range, def bool) {
	f := ix.s.Files[r.Filename]
	if f == nil || r.Start.Line == 0 || r.End.Byte > len(f.Text) || r.End.Byte-r.Start.Byte != len(name)+2 {
		return
	}
	if q := f.Text[r.Start.Byte]; q != '"' && q != '\'' || f.Text[r.Start.Byte+1:r.End.Byte-1] != name {
		return
	}
	ix.add(Occurrence{Symbol: Symbol{kind, name}, Range: f.Range(r.Start.Byte+1, r.End.Byte-1), Def: def})
}

// named records name written at the start of r (a key, "key = value"), quoted or not, or at the end of a table
// header r ([vars.NAME], [const.NAME]).
func (ix *indexer) named(kind SymbolKind, name string, r source.Range, def bool) {
	f := ix.s.Files[r.Filename]
	if f == nil || r.Start.Line == 0 || r.End.Byte > len(f.Text) || r.Start.Byte >= r.End.Byte {
		return
	}
	short := name
	if kind == KindField {
		short = name[strings.LastIndexByte(name, '.')+1:]
	}
	text := f.Text[r.Start.Byte:r.End.Byte]
	start := -1
	switch {
	case strings.HasPrefix(text, "["):
		t := strings.TrimSuffix(strings.TrimSpace(strings.TrimRight(text, "]")), `"`)
		if strings.HasSuffix(t, short) {
			start = r.Start.Byte + len(t) - len(short)
		}
	case strings.HasPrefix(text, short):
		start = r.Start.Byte
	case (text[0] == '"' || text[0] == '\'') && strings.HasPrefix(text[1:], short):
		start = r.Start.Byte + 1
	}
	if start < 0 {
		return
	}
	ix.add(Occurrence{Symbol: Symbol{kind, name}, Range: f.Range(start, start+len(short)), Def: def})
}

// fields records the declarations of the fields of v, at every depth, named by their paths below v.
func (ix *indexer) fields(v string, decl *blocks.Var) {
	var walk func(path string, f *blocks.Var)
	walk = func(path string, f *blocks.Var) {
		ix.named(KindField, v+"."+path, f.Range, true)
		ix.fieldHeaders(v, f)
		for _, g := range f.Fields {
			walk(path+"."+g.Name, g)
		}
	}
	for _, f := range decl.Fields {
		walk(f.Name, f)
	}
}

// fieldHeaders records the names of variable v and of the fields written in the header of field f's table
// ([vars.V.fields.A], [vars.V.fields.A.fields.B]), so that renaming the variable or any of those fields renames
// every table that declares a part of it. Only the plain form is read: bare keys, no spaces; anything else keeps
// its names unindexed.
func (ix *indexer) fieldHeaders(v string, f *blocks.Var) {
	r := f.Range
	file := ix.s.Files[r.Filename]
	if file == nil || r.Start.Line == 0 || r.End.Byte > len(file.Text) || r.Start.Byte >= r.End.Byte {
		return
	}
	text := file.Text[r.Start.Byte:r.End.Byte]
	prefix := "[vars." + v
	if !strings.HasPrefix(text, prefix+".fields.") || !strings.HasSuffix(text, "]") {
		return
	}
	at := r.Start.Byte + len("[vars.")
	ix.add(Occurrence{Symbol: Symbol{KindVar, v}, Range: file.Range(at, at+len(v))})
	at += len(v)
	sym := v
	for rest := text[len(prefix) : len(text)-1]; rest != ""; {
		name, ok := strings.CutPrefix(rest, ".fields.")
		if !ok {
			return
		}
		name, rest, _ = strings.Cut(name, ".")
		if rest != "" {
			rest = "." + rest
		}
		at += len(".fields.")
		sym += "." + name
		if !isName(name) {
			return
		}
		ix.add(Occurrence{Symbol: Symbol{KindField, sym}, Range: file.Range(at, at+len(name))})
		at += len(name)
	}
}

// key records the name of a variable or field written as the TOML key at r (quotes included, as blocks.ValueKey
// holds it): the name's characters, or for a quoted key with escapes the whole key (see Occurrence).
func (ix *indexer) key(kind SymbolKind, sym, short string, r source.Range) {
	f := ix.s.Files[r.Filename]
	if f == nil || r.Start.Line == 0 || r.End.Byte > len(f.Text) || r.Start.Byte >= r.End.Byte {
		return
	}
	start, end := r.Start.Byte, r.End.Byte
	if q := f.Text[start]; (q == '"' || q == '\'') && end-start >= 2 && f.Text[start+1:end-1] == short {
		start, end = start+1, end-1
	}
	ix.add(Occurrence{Symbol: Symbol{kind, sym}, Range: f.Range(start, end)})
}

func (ix *indexer) add(o Occurrence) {
	k := [2]any{o.Symbol, [2]any{o.Range.Filename, o.Range.Start.Byte}}
	if ix.seen[k] {
		return
	}
	ix.seen[k] = true
	ix.occ = append(ix.occ, o)
}

// At returns the occurrence of a symbol at byte offset off of file name: the one whose range holds off, or ends at
// it (a cursor just after a name is on it).
func (s *Snapshot) At(name string, off int) (Occurrence, bool) {
	occ := s.index().byFile[name]
	i := sort.Search(len(occ), func(i int) bool { return occ[i].Range.End.Byte >= off })
	for ; i < len(occ) && occ[i].Range.Start.Byte <= off; i++ {
		if off <= occ[i].Range.End.Byte {
			return occ[i], true
		}
	}
	return Occurrence{}, false
}

// Occurrences returns every occurrence of sym, definition included, in file and position order.
func (s *Snapshot) Occurrences(sym Symbol) []Occurrence { return s.index().bySym[sym] }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
