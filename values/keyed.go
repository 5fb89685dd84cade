package values

import (
	"slices"
	"strings"

	"github.com/promptc/promptc/blocks"
)

// Keyed records (docs/reference.md#keyed-records): see blocks/keyed.go for the declaration.

// keyed checks a keyed records value of v at p: a table of records by name, each checked with its name in the key
// field, in the byte order of the names. It also takes the form TypeCheck gives such a value, and Go callers may: an
// array of records, each holding its name in the key field, no name twice; they are put in the names' order. A
// record of the check's own (ownRecords) takes its name in place; another is copied to take it. An array whose
// records are all canonical and in order is returned as given, for shareRecords.
func (c *nestedCheck) keyed(v *blocks.Var, raw any, p valuePath) (any, []*ValueError) {
	type entry struct {
		name string
		rec  map[string]any
		at   valuePath
		i    int // in the array given; -1 for a table
	}
	w := c.f.words()
	var entries []entry
	var errs []*ValueError
	before := c.problems
	given, same := raw.([]map[string]any)
	if table, ok := keyedTable(raw); ok {
		same = false
		for _, name := range sortedKeys(table) {
			at := p.named(name)
			rec, ok := recordFields(table[name])
			if !ok {
				if c.problem(at) {
					e := c.errorf(p, " is keyed records, but record %s is %s, not %s", quoteName(name), w.describe(table[name]), w.table)
					e.Record, e.Field = at.record, at.field
					errs = append(errs, e)
				}
				continue
			}
			if _, given := rec[v.Key]; given {
				if c.problem(at.dot(v.Key)) {
					e := c.errorf(at, " gives field %q, which holds the record's name (key = %q): remove it; the record is named by its key in the table", v.Key, v.Key)
					e.Field = at.dot(v.Key).field
					errs = append(errs, e)
				}
				continue
			}
			named := rec
			if c.mode != ownRecords {
				named = make(map[string]any, len(rec)+1)
				for k, x := range rec {
					named[k] = x
				}
			}
			named[v.Key] = name
			entries = append(entries, entry{name, named, at, -1})
		}
	} else if items, ok := recordList(raw); ok {
		first := map[string]int{}
		for i, item := range items {
			at := p.index(i + 1)
			rec, ok := recordFields(item)
			name, named := rec[v.Key].(string)
			var e *ValueError
			switch {
			case !ok:
				if c.problem(at) {
					e = c.errorf(p, " is keyed records, but record %d is %s, not %s", i+1, w.describe(item), w.table)
					e.Record, e.Field = at.record, at.field
				}
			case !named:
				if c.problem(at.dot(v.Key)) {
					e = c.errorf(at, " has no name: as an array, keyed records hold their names in field %q (key = %q), a string; or give them as %s", v.Key, v.Key, w.keyed)
					e.Field = at.dot(v.Key).field
				}
			case first[name] > 0:
				if c.problem(at.dot(v.Key)) {
					e = c.errorf(at, " has the name %s of record %d: the names of keyed records are unique", quoteName(name), first[name])
					e.Field = at.dot(v.Key).field
				}
			default:
				first[name] = i + 1
				entries = append(entries, entry{name, rec, at, i})
				continue
			}
			if e != nil {
				errs = append(errs, e)
			}
		}
		slices.SortStableFunc(entries, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	} else {
		if !c.problem(p) {
			return nil, nil
		}
		return nil, []*ValueError{c.errorf(p, " is keyed records (key = %q), so its value must be %s, not %s", v.Key, w.keyed, w.describe(raw))}
	}
	out := make([]map[string]any, 0, len(entries))
	for k, en := range entries {
		checked, es := c.record(v, en.rec, en.at)
		errs = append(errs, es...)
		if c.problems == before {
			out = append(out, checked)
			same = same && c.mode == shareRecords && en.i == k && identical(checked, given[en.i])
		}
	}
	if c.problems > before {
		return nil, errs
	}
	if same && len(out) == len(given) {
		return given, nil
	}
	return out, nil
}

// keyedTable returns the records of a keyed records value by name, from any of the map shapes a decoder or a Go
// caller gives.
func keyedTable(raw any) (map[string]any, bool) {
	switch m := raw.(type) {
	case map[string]any:
		return m, true
	case blocks.Values:
		return m, true
	case map[string]map[string]any:
		out := make(map[string]any, len(m))
		for k, r := range m {
			out[k] = r
		}
		return out, true
	case map[string]map[string]string:
		out := make(map[string]any, len(m))
		for k, r := range m {
			out[k] = r
		}
		return out, true
	}
	return nil, false
}

// named is the path of the record called name of a keyed records value at p.
func (p valuePath) named(name string) valuePath {
	q := valuePath{record: p.record, field: name}
	at := 0
	if p.field != "" {
		at, q.field = len(p.field)+1, p.field+"."+name
	}
	q.names = &nameStep{parent: p.names, at: at, name: name}
	return q
}
