package blocks

import (
	"slices"
	"strings"

	"github.com/promptc/promptc/source"
)

// ValuePlaces receives where the parts of a values file are written, as byte offsets [start, end) of its text:
// package values keeps them (values.Ranges) for its messages and the compiler's.
type ValuePlaces interface {
	// Name places a name of the file's table, unless it is placed already; Placed returns where it is.
	Name(name string, start, end int)
	Placed(name string) (start, end int, ok bool)
	// Record places the next record of records value name; NamedRecord the next record of keyed records given as
	// a table, by its name. RecordKey places a key of the last record of name placed.
	Record(name string, start, end int)
	NamedRecord(name, record string, start, end int)
	RecordKey(name, key string, start, end int)
}

// DecodeTOMLValues decodes a values file written in TOML, f, as Load decodes a source file (the TOML limits checked
// first: MaxNesting, MaxKeyParts), and places its names in places, with the records and fields of the names
// records reports (nil: none). A name is placed at its key (`name = …`), or at its table header ([name], the first
// [[name]]), or at the first dotted key or header that defines it (`name.x = …`, [name.x]). A record is its inline
// table in `name = [{…}, {…}]`, or its [[name]] header; a field is its key in that inline table or under that
// header; a record of keyed records given as a table its [name.RECORD] header or its key. A file that does not
// decode is a nil map and the diagnostic that says why.
func DecodeTOMLValues(f *source.File, records func(string) bool, places ValuePlaces) (map[string]any, *source.Diagnostic) {
	m, ix, d := parseTOML(f)
	if d != nil {
		return nil, d
	}
	if m == nil {
		m = map[string]any{}
	}
	placeTOMLValues(f, ix, m, records, places)
	return m, nil
}

// placeTOMLValues places the parts of a TOML values file, as DecodeTOMLValues says, using the loader's scanner.
func placeTOMLValues(f *source.File, ix *tomlIndex, m map[string]any, records func(string) bool, places ValuePlaces) {
	place := func(name string, r source.Range) { places.Name(name, r.Start.Byte, r.End.Byte) }
	var dotted map[string]source.Range // first place that defines each name through a dotted key or header; built on demand
	var keyed []string                 // the records values given as tables: keyed records
	for name, val := range m {
		if _, ok := val.(map[string]any); ok && records != nil && records(name) {
			keyed = append(keyed, name)
		}
		if e, ok := ix.entry("", 0, name); ok {
			place(name, e.Key)
			if records != nil && records(name) {
				for _, it := range e.Items {
					places.Record(name, it.Start.Byte, it.End.Byte)
					inlineTableKeys(f, it, func(key string, start, end int) { places.RecordKey(name, key, start, end) })
				}
			}
			continue
		}
		if h, ok := ix.headerRange(name, 0); ok {
			place(name, h)
			if tables, ok := val.([]map[string]any); ok && records != nil && records(name) {
				for i := 0; i < ix.count(name) && i < len(tables); i++ {
					hi, ok := ix.headerRange(name, i)
					if !ok {
						hi = h
					}
					places.Record(name, hi.Start.Byte, hi.End.Byte)
					for _, key := range sortedKeys(tables[i]) {
						if e, ok := ix.entry(name, i, key); ok {
							places.RecordKey(name, key, e.Key.Start.Byte, e.Key.End.Byte)
						}
					}
				}
			}
			continue
		}
		if dotted == nil {
			dotted = firstDotted(ix)
		}
		if r, ok := dotted[name]; ok {
			place(name, r)
		}
	}
	slices.Sort(keyed)
	for _, name := range keyed {
		keyedRanges(ix, places, name, m[name].(map[string]any))
	}
}

// firstDotted returns, for each name that a dotted key of the root table (`name.x = …`) or a table header
// ([name.x]) defines, the first place that does, in one pass over the index.
func firstDotted(ix *tomlIndex) map[string]source.Range {
	out := map[string]source.Range{}
	keep := func(name string, r source.Range) {
		if old, ok := out[name]; !ok || r.Start.Byte < old.Start.Byte {
			out[name] = r
		}
	}
	for k, i := range ix.keys {
		if k.table.name == "" {
			if name, _, ok := strings.Cut(k.key, "."); ok {
				keep(name, ix.entries[i].Key)
			}
		}
	}
	for t, r := range ix.tables {
		name, _, _ := strings.Cut(t.name, ".")
		keep(name, r)
	}
	return out
}

// inlineTableKeys calls found with where each key of the inline table written at r is (bytes [start, end)), by its
// first part (the field a dotted key defines), in the order written. It reads only within r.
func inlineTableKeys(f *source.File, r source.Range, found func(key string, start, end int)) {
	s := &tomlScanner{src: f.Text[:min(r.End.Byte, len(f.Text))], i: r.Start.Byte}
	if !s.eat('{') {
		return
	}
	for {
		s.skipSpaceAndComments()
		switch s.peek(0) {
		case tomlEOF, '}':
			return
		case ',':
			s.i++
			continue
		}
		start := s.i
		key, end, ok := s.dottedKey()
		if !ok {
			return
		}
		name, _, _ := strings.Cut(key, ".")
		found(name, start, end)
		s.skipBlank()
		if !s.eat('=') {
			return
		}
		s.skipBlank()
		before := s.i
		w := valueWalk{s: s, f: f}
		w.value(1, 0)
		if s.i == before {
			return
		}
	}
}

// keyedRanges places the records of keyed records name, given as a table of tables ([name.RECORD] headers, or
// RECORD.field = … under [name]), and their fields: "name.RECORD" and "name.RECORD.field", as values.ValueError.Path
// names them. A record written where neither is found (in an inline table) is placed at the name.
func keyedRanges(ix *tomlIndex, places ValuePlaces, name string, table map[string]any) {
	for _, rec := range sortedKeys(table) {
		path := name + "." + rec
		if h, ok := ix.headerRange(path, 0); ok {
			places.NamedRecord(name, rec, h.Start.Byte, h.End.Byte)
		} else if e, ok := ix.entry(name, 0, rec); ok {
			places.NamedRecord(name, rec, e.Key.Start.Byte, e.Key.End.Byte)
		} else if start, end, ok := places.Placed(name); ok {
			places.NamedRecord(name, rec, start, end)
		} else {
			continue
		}
		fields, _ := table[rec].(map[string]any)
		for _, key := range sortedKeys(fields) {
			if e, ok := ix.entry(path, 0, key); ok {
				places.RecordKey(name, key, e.Key.Start.Byte, e.Key.End.Byte)
			}
		}
	}
}
