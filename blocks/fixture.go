package blocks

import (
	"path"
	"strings"
)

var fixtureKeys = []key[*Fixture]{
	{name: "tasks", kind: kindStrings, set: func(r *tableReader, f *Fixture, v value) {
		f.Tasks = v.list
		r.l.checkTaskNames(r, "tasks", v.list, true)
	}},
	{name: "session", kind: kindTable, set: func(r *tableReader, f *Fixture, v value) {
		sr := r.l.table(r.file, r.ix, "session", 0, "[session]", v.table)
		f.SessionTable = sr.src
		f.Session = r.l.values(sr, ScopeSession)
	}},
	{name: "turn", kind: kindTables, set: func(r *tableReader, f *Fixture, v value) {
		for i, m := range v.tables {
			tr := r.l.table(r.file, r.ix, "turn", i, "[[turn]]", m)
			f.TurnTables = append(f.TurnTables, tr.src)
			f.Turns = append(f.Turns, r.l.values(tr, ScopeTurn))
		}
	}},
}

func (l *loader) fixture(sf *sourceFile) {
	r := l.table(sf.file, sf.ix, "", 0, sf.name, sf.m)
	f := &Fixture{
		Name:    strings.TrimSuffix(path.Base(sf.name), ".toml"),
		Tasks:   []string{"*"},
		Session: Values{},
		Range:   sf.file.Range(0, 0),
		Table:   r.src,
	}
	decode(r, f, fixtureKeys)
	if f.SessionTable == nil {
		l.requireAll(r.src.Header, Values{}, ScopeSession, "[session]")
	}
	l.p.Fixtures = append(l.p.Fixtures, f)
}

// values reads the variable values of a [session] or [[turn]] table, checking names, scopes and types.
func (l *loader) values(r *tableReader, scope Scope) Values {
	vals := Values{}
	for _, k := range sortedKeys(r.m) {
		r.known[k] = true
		v, declared := l.p.Vars[k]
		if !declared {
			r.errorf(k, "unknown variable %q in %s%s", k, r.what, DidYouMean(k, l.varNamesOfScope(scope)))
			continue
		}
		if v.Scope != scope && v.scopeSet() {
			where := "[[turn]]"
			if v.Scope == ScopeSession {
				where = "[session]"
			}
			r.errorf(k, "%q is a %s variable: set it in %s, not in %s", k, v.Scope, where, r.what)
			continue
		}
		val, verr := v.Check(r.m[k])
		if verr != nil {
			r.errorf(k, "%s", verr.Summary)
			continue
		}
		vals[k] = val
	}
	l.requireAll(r.src.Header, vals, scope, r.what)
	return vals
}

// requireAll reports the required variables of scope that vals lacks.
func (l *loader) requireAll(at Range, vals Values, scope Scope, what string) {
	for _, name := range sortedKeys(l.p.Vars) {
		v := l.p.Vars[name]
		if v.Required && v.Scope == scope {
			if _, ok := vals[name]; !ok {
				l.errorf(at, "required %s variable %q is missing from %s", scope, name, what)
			}
		}
	}
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
