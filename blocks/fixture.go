package blocks

import (
	"encoding/json"
	"path"
	"sort"
	"strings"
)

var fixtureKeys = []string{"tasks", "session", "turn"}

func (l *loader) fixture(file string, m map[string]any, ix *keyIndex) {
	f := &Fixture{
		Name:    strings.TrimSuffix(path.Base(file), ".toml"),
		Tasks:   []string{"*"},
		Session: Values{},
		Pos:     Pos{File: file, Line: 1, Col: 1},
	}
	t := l.table(file, ix, "", 0, file, m)
	if tasks, ok := t.strList("tasks"); ok {
		f.Tasks = tasks
		l.checkTaskNames(t, "tasks", tasks, true)
	}
	if session, ok := t.sub("session"); ok {
		st := l.table(file, ix, "session", 0, "[session]", session)
		f.Session = l.values(st, ScopeSession)
	} else {
		l.requireAll(t.head(), Values{}, ScopeSession, "[session]")
	}
	if turns, ok := t.tables("turn"); ok {
		for i, tm := range turns {
			tt := l.table(file, ix, "turn", i, "[[turn]]", tm)
			f.Turns = append(f.Turns, l.values(tt, ScopeTurn))
		}
	}
	t.unknown(fixtureKeys...)
	l.p.Fixtures = append(l.p.Fixtures, f)
}

// values reads the variable values of a [session] or [[turn]] table, checking names, scopes and types.
func (l *loader) values(t *table, scope string) Values {
	vals := Values{}
	keys := make([]string, 0, len(t.m))
	for k := range t.m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.known[k] = true
		v, declared := l.p.Vars[k]
		if !declared {
			t.errorf(k, "unknown variable %q in %s%s", k, t.what, DidYouMean(k, l.varNamesOfScope(scope)))
			continue
		}
		if v.Scope != scope && v.Scope != "" {
			where := "[[turn]]"
			if v.Scope == ScopeSession {
				where = "[session]"
			}
			t.errorf(k, "%q is a %s variable: set it in %s, not in %s", k, v.Scope, where, t.what)
			continue
		}
		val, msg := CheckValue(v, t.m[k])
		if msg != "" {
			t.errorf(k, "%s", msg)
			continue
		}
		vals[k] = val
	}
	l.requireAll(t.head(), vals, scope, t.what)
	return vals
}

// requireAll reports the required variables of scope that vals lacks.
func (l *loader) requireAll(pos Pos, vals Values, scope, what string) {
	for _, name := range l.varNames() {
		v := l.p.Vars[name]
		if v.Required && v.Scope == scope {
			if _, ok := vals[name]; !ok {
				l.errorf(pos, "required %s variable %q is missing from %s", scope, name, what)
			}
		}
	}
}

func (l *loader) varNamesOfScope(scope string) []string {
	var names []string
	for _, name := range l.varNames() {
		if l.p.Vars[name].Scope == scope {
			names = append(names, name)
		}
	}
	return names
}

// CheckValue converts a decoded TOML or JSON value for variable v into its Values form (string, bool, int64 or
// []string), or returns a message saying what was expected. JSON numbers (float64) are accepted for int variables
// when they are whole.
func CheckValue(v *Var, raw any) (any, string) {
	switch v.Type {
	case TypeString, TypeText:
		if s, ok := raw.(string); ok {
			return s, ""
		}
		return nil, "variable " + quoteName(v.Name) + " is a " + v.Type + ", so its value must be a string, not " + tomlType(raw)
	case TypeBool:
		if b, ok := raw.(bool); ok {
			return b, ""
		}
		return nil, "variable " + quoteName(v.Name) + " is a bool, so its value must be true or false, not " + tomlType(raw)
	case TypeInt:
		if n, ok := wholeNumber(raw); ok {
			return n, ""
		}
		return nil, "variable " + quoteName(v.Name) + " is an int, so its value must be a whole number, not " + tomlType(raw)
	case TypeList:
		switch a := raw.(type) {
		case []string:
			return append([]string(nil), a...), ""
		case []any:
			out := make([]string, 0, len(a))
			for _, e := range a {
				s, ok := e.(string)
				if !ok {
					return nil, "variable " + quoteName(v.Name) + " is a list of strings, but an item is " + tomlType(e)
				}
				out = append(out, s)
			}
			return out, ""
		}
		return nil, "variable " + quoteName(v.Name) + " is a list, so its value must be an array of strings, not " + tomlType(raw)
	}
	// The variable's own declaration is broken and already reported; accept the value as it is.
	return raw, ""
}

// wholeNumber accepts every Go integer type that fits an int64, and whole float64 values (JSON numbers).
func wholeNumber(raw any) (int64, bool) {
	switch n := raw.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case int16:
		return int64(n), true
	case int8:
		return int64(n), true
	case uint8:
		return int64(n), true
	case uint16:
		return int64(n), true
	case uint32:
		return int64(n), true
	case uint:
		return int64(n), n <= 1<<63-1
	case uint64:
		return int64(n), n <= 1<<63-1
	case float64:
		return int64(n), n == float64(int64(n)) && n >= -1<<53 && n <= 1<<53
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}
