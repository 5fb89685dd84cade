package blocks

import (
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
)

var fixtureKeys = []key[*Fixture]{
	{name: "extends", kind: kindString, set: func(r *tableReader, f *Fixture, v value) { f.Extends = v.str }},
	{name: "tasks", kind: kindStrings, set: func(r *tableReader, f *Fixture, v value) {
		f.Tasks, f.tasksSet = v.list, true
		r.l.checkTaskNames(r, "tasks", v.list, true)
	}},
	{name: "session", kind: kindTable, set: func(r *tableReader, f *Fixture, v value) {
		sr := r.l.table(r.file, r.ix, "session", 0, "[session]", v.table)
		sr.doc, sr.at = f.keys, []valueStep{{key: "session", index: -1}}
		f.SessionTable = sr.src
		f.SessionTable.ValueKeys = f.keys.valueKeys(r.file, r.l.p.Vars, fixtureTable{name: "session", turn: -1})
		f.RawSession = r.l.values(sr, f, ScopeSession, 0)
	}},
	{name: "turn", kind: kindTables, set: func(r *tableReader, f *Fixture, v value) {
		for i, m := range v.tables {
			tr := r.l.table(r.file, r.ix, "turn", i, "[[turn]]", m)
			tr.doc, tr.at = f.keys, []valueStep{{key: "turn", index: -1}, {index: i}}
			tr.src.ValueKeys = f.keys.valueKeys(r.file, r.l.p.Vars, fixtureTable{name: "turn", turn: i})
			f.TurnTables = append(f.TurnTables, tr.src)
			f.Replies = append(f.Replies, reply(tr))
			f.After = append(f.After, after(tr))
			f.RawTurns = append(f.RawTurns, r.l.values(tr, f, ScopeTurn, i+1))
		}
	}},
}

func (l *loader) fixture(sf *sourceFile) {
	r := l.table(sf.file, sf.ix, "", 0, sf.name, sf.m)
	f := &Fixture{
		Name:  strings.TrimSuffix(path.Base(sf.name), ".toml"),
		Tasks: []string{"*"},
		Range: sf.file.Range(0, 0),
		Table: r.src,
		file:  sf.file,
		keys:  walkKeys(sf.file.Text),
	}
	decode(r, f, fixtureKeys)
	f.keys, f.place = nil, nil // the tables hold the placer
	l.p.Fixtures = append(l.p.Fixtures, f)
}

// resolveFixtures applies extends (docs/reference.md#fixturestoml) as far as it concerns what the fixtures' files
// say, once every fixture is read: a fixture keeps the tasks of the fixture it extends unless it sets its own, and
// its turns unless it has [[turn]] entries of its own, and Base is set once its chain resolves. The values are
// package values' (docs/values.md): it checks them after loading, starts each fixture's session values from those
// of its Base, and reports the required ones missing.
func (l *loader) resolveFixtures() {
	byName := map[string]*Fixture{}
	for _, f := range l.p.Fixtures {
		byName[f.Name] = f
	}
	names := sortedKeys(byName)
	state := map[*Fixture]int{} // 1 resolving, 2 resolved, 3 broken
	var resolve func(f *Fixture, chain []string) bool
	resolve = func(f *Fixture, chain []string) bool {
		switch state[f] {
		case 1:
			l.errorf(f.Table.Value("extends"), "fixture %q extends itself through %s: fixtures may extend each other in chains, not in cycles", f.Name, strings.Join(append(chain, f.Name), " → "))
			return false
		case 2:
			return true
		case 3:
			return false
		}
		if f.Extends == "" {
			state[f] = 2
			return true
		}
		state[f] = 1
		base, ok := byName[f.Extends]
		switch {
		case !ok && l.brokenFixtures[f.Extends]:
			// Its file was reported as unreadable or not parsing: what it holds is unknown, not missing.
		case !ok:
			l.errorf(f.Table.Value("extends"), "fixture %q extends unknown fixture %q%s: extends names a file of fixtures/ without .toml", f.Name, f.Extends, suggest.DidYouMean(f.Extends, names))
		case !resolve(base, append(chain, f.Name)):
			ok = false
		default:
			f.Base = base
			if !f.tasksSet {
				f.Tasks = base.Tasks
				if len(f.Tasks) == 0 {
					l.errorf(f.Table.Value("extends"), "fixture %q inherits tasks = [] from %q, so it renders nothing: set its own tasks (tasks = [\"*\"] for every task)", f.Name, f.Extends)
				}
			}
			if f.RawTurns == nil {
				f.TurnTables, f.Replies, f.After = base.TurnTables, base.Replies, base.After
			}
		}
		state[f] = 2
		if !ok {
			state[f] = 3
		}
		return ok
	}
	for _, f := range l.p.Fixtures {
		resolve(f, nil) // a broken chain is reported once
	}
}

// ReplyKey is the key of a fixture's [[turn]] that holds the assistant's reply to the turn rather than a variable's
// value; no variable may take its name.
const ReplyKey = "assistant"

// reply reads the assistant's reply of a [[turn]] table: "" when the turn has none.
func reply(r *tableReader) string {
	raw, ok := r.m[ReplyKey]
	if !ok {
		return ""
	}
	r.known[ReplyKey] = true
	s, ok := raw.(string)
	if !ok {
		r.errorf(ReplyKey, "assistant in [[turn]] is the assistant's reply to the turn, so it must be a string, not %s", DescribeValue(raw))
		return ""
	}
	return s
}

// AfterKey is the key of a fixture's [[turn]] that gives the time since the previous turn ("4m30s"), which a
// session simulator waits; no variable may take its name.
const AfterKey = "after"

// after reads a [[turn]]'s after: 0 when the turn has none.
func after(r *tableReader) time.Duration {
	raw, ok := r.m[AfterKey]
	if !ok {
		return 0
	}
	r.known[AfterKey] = true
	s, ok := raw.(string)
	d, err := time.ParseDuration(s)
	if !ok || err != nil || d <= 0 {
		got := DescribeValue(raw)
		if ok {
			got = strconv.Quote(s)
		}
		r.errorf(AfterKey, `after in [[turn]] is the time since the previous turn, a positive duration such as "30s" or "4m30s", not %s`, got)
		return 0
	}
	return d
}

// values reads the variable values of a [session] or [[turn]] table (turn 0 for [session], k for the k-th
// [[turn]]), checking their names and scopes: the values themselves are handed back as read, for package values to
// check against their declarations after loading. A declared variable given in the wrong table is reported and
// listed in Misplaced: it is there, just wrong, and must not be reported as missing too.
func (l *loader) values(r *tableReader, f *Fixture, scope Scope, turn int) *TableValues {
	if f.place == nil {
		f.place = &placer{}
	}
	t := &TableValues{Table: r.src, Turn: turn, Raw: Values{}, place: f.place}
	for _, k := range sortedKeys(r.m) {
		if scope == ScopeTurn && (k == ReplyKey || k == AfterKey) {
			continue // the assistant's reply and the turn's time, read by reply and after
		}
		r.known[k] = true
		v, declared := l.p.Vars[k]
		if !declared {
			names := l.varNamesOfScope(scope)
			if scope == ScopeTurn {
				names = append(names, ReplyKey, AfterKey)
			}
			r.errorf(k, "unknown variable %q in %s%s", k, r.what, suggest.DidYouMean(k, names))
			continue
		}
		if v.Scope != scope && v.scopeSet() {
			where := "[[turn]]"
			if v.Scope == ScopeSession {
				where = "[session]"
			}
			r.errorf(k, "%q is a %s variable: set it in %s, not in %s", k, v.Scope, where, r.what)
			t.Misplaced = append(t.Misplaced, k)
			continue
		}
		t.Raw[k] = r.m[k] // the table's maps are the loader's own, read once: the check may make them its own
	}
	return t
}

// TableValues are the variable values of one [session] or [[turn]] table of a fixture's file as Load reads them:
// each decoded from TOML, but not yet checked against its declaration (docs/values.md: package values checks them
// after loading, and places its messages with Fixture.PlaceValue).
type TableValues struct {
	// Table is where the table is written; Turn is 0 for [session], k for the k-th [[turn]] (from 1).
	Table *Table
	Turn  int
	// Raw holds the value of each variable of the table's scope that the table gives, by name, as decoded: its
	// records are promptc's own maps, read for this table alone.
	Raw Values
	// Misplaced lists the variables of the other scope that the table gives (reported by Load), sorted: given,
	// just in the wrong table, so not to be reported as missing from the table they belong in.
	Misplaced []string
	// place is what PlaceValue reads of the fixture's file, shared by the fixture's tables: it goes when they do.
	place *placer
}

// PlaceValue returns where a part of the value of variable key in table t of the fixture's own file is written:
// record (from 1; 0 for the whole value) and field as a ValueError names them, and for keyed records (keyed) the
// record by its name at the start of field. It reads the file again at its first call, so it is for messages: the
// key of the field (at any depth), or else the record's [[table.key]] header, or an item of an inline array, or the
// key of the variable.
func (f *Fixture) PlaceValue(t *TableValues, key string, record int, field string, keyed bool) source.Range {
	pl := t.place
	if pl.ix == nil {
		pl.ix, pl.doc = scanTOML(f.file), walkKeys(f.file.Text)
	}
	r := &tableReader{file: f.file, ix: pl.ix, name: "session", src: t.Table, doc: pl.doc, at: []valueStep{{key: "session", index: -1}}}
	if t.Turn > 0 {
		r.name, r.n, r.at = "turn", t.Turn-1, []valueStep{{key: "turn", index: -1}, {index: t.Turn - 1}}
	}
	at := r.recordRange(key, record, field)
	if keyed && record == 0 && field != "" {
		at = r.namedRange(key, field, at) // a record of keyed records, by its name
	}
	return at
}

// placer is what Fixture.PlaceValue reads of a fixture's file, read at its first call.
type placer struct {
	ix  *tomlIndex
	doc *docKeys
}

func (l *loader) varNamesOfScope(scope Scope) []string {
	var names []string
	for _, name := range sortedKeys(l.p.Vars) {
		if l.p.Vars[name].Scope == scope {
			names = append(names, name)
		}
	}
	return names
}

// recordRange is where record n (from 1; 0 for the whole value) of key's records value is written, and its field
// when it is one of the record's keys: in a fixture's table, the key of the field (at any depth) or else the
// record's [[table.key]] header, which the fixture's walk (walkKeys) counts within the table; elsewhere an item of
// an inline array, or the n-th [[table.key]] of the file.
func (r *tableReader) recordRange(key string, n int, field string) source.Range {
	if n == 0 {
		return r.keyRange(key)
	}
	if r.doc != nil {
		if rng, ok := r.doc.place(r.file, append(slices.Clip(r.at), valueStep{key: key, index: -1}, valueStep{index: n - 1}), field); ok {
			return rng
		}
	}
	if e, ok := r.src.Keys[key]; ok {
		return e.Item(n - 1)
	}
	name := joinKey(r.name, key)
	if i := strings.IndexAny(field, ".["); i >= 0 {
		field = field[:i] // a nested field is placed at the key of the record's field that holds it
	}
	if e, ok := r.ix.entry(name, n-1, field); ok && field != "" {
		return e.Key
	}
	if h, ok := r.ix.headerRange(name, n-1); ok {
		return h
	}
	return r.keyRange(key)
}

// namedRange is where the part at field ("web", "web.addr") of keyed records key is written in a fixture's table:
// the record's header or key, or its field's key; else def.
func (r *tableReader) namedRange(key, field string, def source.Range) source.Range {
	if r.doc == nil {
		return def
	}
	if rng, ok := r.doc.place(r.file, append(slices.Clip(r.at), valueStep{key: key, index: -1}), field); ok {
		return rng
	}
	return def
}
