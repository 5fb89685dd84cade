package blocks

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
)

// The loader reads every table through a declarative schema, in the spirit of gohcl: a list of the keys the table
// accepts, each with the kind of value it takes and what to do with it. Type errors, missing keys, keys that do not
// apply and unknown keys (with "did you mean") are handled here, once, for every table.

// keyKind is the kind of value a key takes.
type keyKind uint8

const (
	kindString  keyKind = iota // a string
	kindBool                   // true or false
	kindInt                    // an integer within the key's min and max
	kindNumber                 // an integer or a float, finite, at least the key's min
	kindStrings                // an array of strings
	kindTable                  // a table
	kindTables                 // an array of tables
	kindAny                    // any value: the setter checks it
)

// key declares one key of a table whose entity is of type T.
type key[T any] struct {
	name string
	kind keyKind
	// min and max bound a kindInt value (max = noMax: no upper bound); min bounds a kindNumber value.
	min, max int64
	// need, when set, returns the message to report when the key is missing ("" when it may be missing after all).
	need func(x T) string
	// only, when set, returns why the key does not apply to x ("" when it does), as the end of a sentence that
	// starts with the key's name; the key is then reported and not read.
	only func(x T) string
	// set stores the value; the reader gives the key's ranges for further checks.
	set func(r *tableReader, x T, v value)
}

// noMax is the max of a kindInt key with no upper bound: its messages say "at least".
const noMax = math.MaxInt64

// value is a key's value, converted to the key's kind.
type value struct {
	key    string
	str    string
	b      bool
	n      int64
	f      float64 // a kindNumber value
	list   []string
	table  map[string]any
	tables []map[string]any
	raw    any // the value as decoded, for kindAny
}

// tableReader gives typed, positioned access to one TOML table of one file and remembers which keys were read, so
// that the rest can be reported as unknown.
type tableReader struct {
	l    *loader
	file *source.File
	ix   *tomlIndex
	name string // the table's name as the index knows it: "", "runbook", "vars.x", "block"
	n    int    // occurrence of an array-of-tables header
	// what is how messages name the table: "promptc.toml", "[runbook]", `block "id"`.
	what  string
	m     map[string]any
	known map[string]bool
	// src is where the table and its keys are written.
	src *Table
	// doc and at are set for a fixture's [session] and [[turn]] tables: every key of the fixture's file, and the
	// path of the table among them, to place a mistake in a record (recordRange).
	doc *docKeys
	at  []valueStep
}

func (l *loader) table(file *source.File, ix *tomlIndex, name string, n int, what string, m map[string]any) *tableReader {
	r := &tableReader{l: l, file: file, ix: ix, name: name, n: n, what: what, m: m, known: map[string]bool{}}
	r.src = &Table{Header: r.head(), Keys: make(map[string]Entry, len(m))}
	for k := range m {
		if e, ok := r.entry(k); ok {
			r.src.Keys[k] = e
		}
	}
	return r
}

// entry finds where key is written: in the table itself, or, for a table defined through dotted keys of a parent
// ([vars] agent.scope = …, or vars.agent.scope = … at the root), in that parent.
func (r *tableReader) entry(key string) (Entry, bool) {
	if e, ok := r.ix.entry(r.name, r.n, key); ok {
		return e, true
	}
	if r.n != 0 {
		return Entry{}, false
	}
	for name, rest := r.name, key; name != ""; {
		i := strings.LastIndexByte(name, '.')
		rest = name[i+1:] + "." + rest
		name = name[:max(i, 0)]
		if e, ok := r.ix.entry(name, 0, rest); ok {
			return e, true
		}
	}
	return Entry{}, false
}

// head is where the table starts: its header, or for a table defined only through dotted keys or inline, the first
// key that defines it.
func (r *tableReader) head() source.Range {
	if rng, ok := r.ix.headerRange(r.name, r.n); ok {
		return rng
	}
	if r.name != "" && r.n == 0 {
		i := strings.LastIndexByte(r.name, '.')
		parent, last := r.name[:max(i, 0)], r.name[i+1:]
		if e, ok := r.ix.entry(parent, 0, last); ok {
			return e.Key
		}
		// The first key of the table written with a dotted name: a.b.c = 1 defines a.b.
		first, found := source.Range{}, false
		for k, i := range r.ix.keys {
			if e := r.ix.entries[i]; k.table.n == 0 && strings.HasPrefix(joinKey(k.table.name, k.key), r.name+".") &&
				(!found || e.Key.Start.Byte < first.Start.Byte) {
				first, found = e.Key, true
			}
		}
		if found {
			return first
		}
	}
	return source.FileRange(r.file.Name)
}

// keyRange is where key is written: its entry, else the first header of a subtable under it ([a.key] or
// [a.key.x]), else the table's head.
func (r *tableReader) keyRange(key string) source.Range {
	if _, ok := r.src.Keys[key]; ok {
		return r.src.Key(key)
	}
	name := joinKey(r.name, key)
	first, found := source.Range{}, false
	for ref, rng := range r.ix.tables {
		if ref.n == r.n && (ref.name == name || strings.HasPrefix(ref.name, name+".")) && (!found || rng.Start.Byte < first.Start.Byte) {
			first, found = rng, true
		}
	}
	if found {
		return first
	}
	return r.src.Header
}

// valueRange is where key's value is written, or the table's head.
func (r *tableReader) valueRange(key string) source.Range { return r.src.Value(key) }

// contentRange is the content of key's string value, quotes excluded; else where the value is written.
func (r *tableReader) contentRange(key string) source.Range {
	e, ok := r.src.Keys[key]
	if !ok {
		return r.src.Header
	}
	start := contentStart(r.file.Text, e.Value.Start.Byte)
	end := e.Value.End.Byte
	if n := start - e.Value.Start.Byte; n > 0 {
		end = max(start, end-min(n, 3)) // the closing delimiter matches the opening one
	}
	return r.file.Range(start, end)
}

func (r *tableReader) errorf(key string, format string, args ...any) {
	r.l.errorf(r.keyRange(key), format, args...)
}

// decode reads the keys of r that specs declare, in the order they are declared (so a key can depend on one read
// before it), and reports the others as unknown.
func decode[T any](r *tableReader, x T, specs []key[T]) {
	for _, sp := range specs {
		raw, present := r.m[sp.name]
		if !present {
			if sp.need != nil {
				if msg := sp.need(x); msg != "" {
					r.l.errorf(r.src.Header, "%s", msg)
					r.markBad(sp.name)
				}
			}
			continue
		}
		r.known[sp.name] = true
		if sp.only != nil {
			if msg := sp.only(x); msg != "" {
				r.errorf(sp.name, "%s %s", sp.name, msg)
				continue
			}
		}
		v, ok := r.convert(sp.name, sp.kind, sp.min, sp.max, raw)
		if !ok {
			r.markBad(sp.name)
		} else if sp.set != nil {
			sp.set(r, x, v)
		}
	}
	names := make([]string, len(specs))
	for i, sp := range specs {
		names[i] = sp.name
	}
	r.unknown(names)
}

// markBad records that key of a promptc.toml table is missing where required, or has a value of the wrong type
// (loader.badKeys).
func (r *tableReader) markBad(key string) {
	if r.file != nil && r.file.Name == ManifestFile {
		r.l.badKeys[r.name+"."+key] = true
	}
}

// convert checks that raw is of kind and converts it, reporting a value of the wrong kind.
func (r *tableReader) convert(key string, kind keyKind, lo, hi int64, raw any) (value, bool) {
	v := value{key: key, raw: raw}
	switch kind {
	case kindString:
		s, ok := raw.(string)
		if !ok {
			r.errorf(key, "%s must be a string, not %s", key, DescribeValue(raw))
			return v, false
		}
		v.str = s
	case kindBool:
		b, ok := raw.(bool)
		if !ok {
			r.errorf(key, "%s must be true or false, not %s", key, DescribeValue(raw))
			return v, false
		}
		v.b = b
	case kindInt:
		n, ok := raw.(int64)
		if !ok {
			r.errorf(key, "%s must be an integer, not %s", key, DescribeValue(raw))
			return v, false
		}
		if hi == noMax && n < lo {
			r.errorf(key, "%s must be at least %d, not %d", key, lo, n)
			return v, false
		}
		if n < lo || n > hi {
			r.errorf(key, "%s must be between %d and %d, not %d", key, lo, hi, n)
			return v, false
		}
		v.n = n
	case kindNumber:
		switch x := raw.(type) {
		case int64:
			v.f = float64(x)
		case float64:
			v.f = x
		default:
			r.errorf(key, "%s must be a number, not %s", key, DescribeValue(raw))
			return v, false
		}
		if math.IsNaN(v.f) || math.IsInf(v.f, 0) {
			r.errorf(key, "%s must be a finite number, not %v", key, raw)
			return v, false
		}
		if v.f < float64(lo) {
			r.errorf(key, "%s must be at least %d, not %v", key, lo, raw)
			return v, false
		}
	case kindStrings:
		arr, ok := raw.([]any)
		if !ok {
			r.errorf(key, "%s must be a list of strings, not %s", key, DescribeValue(raw))
			return v, false
		}
		v.list = make([]string, 0, len(arr))
		for i, e := range arr {
			s, ok := e.(string)
			if !ok {
				r.l.errorf(r.item(key, i), "%s[%d] must be a string, not %s", key, i, DescribeValue(e))
				return v, false
			}
			v.list = append(v.list, s)
		}
	case kindTable:
		m, ok := raw.(map[string]any)
		if !ok {
			r.errorf(key, "%s must be a table, not %s", key, DescribeValue(raw))
			return v, false
		}
		v.table = m
	case kindTables:
		switch a := raw.(type) {
		case []map[string]any:
			v.tables = a
		case []any:
			v.tables = make([]map[string]any, 0, len(a))
			for _, e := range a {
				m, ok := e.(map[string]any)
				if !ok {
					r.errorf(key, "%s must be an array of tables ([[%s]]), not an array of %s", key, key, DescribeValue(e))
					return v, false
				}
				v.tables = append(v.tables, m)
			}
		default:
			r.errorf(key, "%s must be an array of tables ([[%s]]), not %s", key, key, DescribeValue(raw))
			return v, false
		}
	}
	return v, true
}

// item is where item i of key's array value is written.
func (r *tableReader) item(key string, i int) source.Range { return r.src.Item(key, i) }

// unknown reports every key of the table that was never read, suggesting the closest of allowed.
func (r *tableReader) unknown(allowed []string) {
	var keys []string
	for k := range r.m {
		if !r.known[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	where := ""
	if r.what != "" {
		where = " in " + r.what
	}
	for _, k := range keys {
		rng := r.keyRange(k)
		if h, ok := r.ix.headerRange(joinKey(r.name, k), r.n); ok && rng == r.src.Header {
			rng = h // a subtable such as [block.meta]: its own header
		}
		hint := suggest.DidYouMean(k, allowed)
		if hint == "" && len(allowed) > 0 {
			hint = " (known keys: " + strings.Join(allowed, ", ") + ")"
		}
		r.l.errorf(rng, "unknown key %q%s%s", k, where, hint)
	}
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func joinKey(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// enumKey is a kindString key whose value must be one of names; set receives the parsed value.
func enumKey[T any, E ~uint8](name string, names []string, describe func(x T) string, set func(x T, e E)) key[T] {
	return key[T]{name: name, kind: kindString, set: func(r *tableReader, x T, v value) {
		e, ok := parseEnum[E](names, v.str)
		if !ok {
			r.errorf(name, "%s, not %q%s", describe(x), v.str, suggest.DidYouMean(v.str, names))
			return
		}
		set(x, e)
	}}
}

// quoted formats a user-supplied name for a message: Go-quoted, so that no character of it can act on a terminal or
// a log, or forge a line.
func quoted(s string) string { return fmt.Sprintf("%q", s) }
