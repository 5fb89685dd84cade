package blocks

import (
	"fmt"
	"strings"
)

// tomlValueRanges places the names of a TOML values file, and the records and fields of the names records reports,
// using the loader's scanner. A name is placed at its key (`name = …`), or at its table header ([name], the first
// [[name]]), or at the first dotted key or header that defines it (`name.x = …`, [name.x]). A record is its inline
// table in `name = [{…}, {…}]`, or its [[name]] header; a field is its key in that inline table or under that header.
func tomlValueRanges(f *File, ix *tomlIndex, m map[string]any, records func(string) bool) ValueRanges {
	ranges := make(ValueRanges, len(m))
	var dotted map[string]Range // first place that defines each name through a dotted key or header; built on demand
	for name, val := range m {
		if table, ok := val.(map[string]any); ok && records != nil && records(name) {
			keyedRanges(ix, ranges, name, table) // a records value given as a table: keyed records
		}
		if e, ok := ix.entry("", 0, name); ok {
			ranges[name] = e.Key
			if records != nil && records(name) {
				cur := &posCursor{f: f}
				for i, it := range e.Items {
					rec := fmt.Sprintf("%s[%d]", name, i+1)
					ranges[rec] = it
					inlineTableKeys(cur, it, func(key string, rng Range) {
						if _, seen := ranges[rec+"."+key]; !seen {
							ranges[rec+"."+key] = rng
						}
					})
				}
			}
			continue
		}
		if h, ok := ix.headerRange(name, 0); ok {
			ranges[name] = h
			if tables, ok := val.([]map[string]any); ok && records != nil && records(name) {
				for i := 0; i < ix.count(name) && i < len(tables); i++ {
					rec := fmt.Sprintf("%s[%d]", name, i+1)
					if h, ok := ix.headerRange(name, i); ok {
						ranges[rec] = h
					}
					for key := range tables[i] {
						if e, ok := ix.entry(name, i, key); ok {
							ranges[rec+"."+key] = e.Key
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
			ranges[name] = r
		}
	}
	return ranges
}

// firstDotted returns, for each name that a dotted key of the root table (`name.x = …`) or a table header
// ([name.x]) defines, the first place that does, in one pass over the index.
func firstDotted(ix *tomlIndex) map[string]Range {
	out := map[string]Range{}
	keep := func(name string, r Range) {
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

// inlineTableKeys calls found with where each key of the inline table written at r is, by its first part (the field
// a dotted key defines), in the order written. It reads only within r.
func inlineTableKeys(cur *posCursor, r Range, found func(key string, rng Range)) {
	f := cur.f
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
		found(name, cur.rangeOf(start, end))
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
// RECORD.field = … under [name]), and their fields: "name.RECORD" and "name.RECORD.field", as ValueError.Path names
// them.
func keyedRanges(ix *tomlIndex, ranges ValueRanges, name string, table map[string]any) {
	for rec, val := range table {
		path := name + "." + rec
		if h, ok := ix.headerRange(path, 0); ok {
			ranges[path] = h
		} else if e, ok := ix.entry(name, 0, rec); ok {
			ranges[path] = e.Key
		}
		fields, _ := val.(map[string]any)
		for key := range fields {
			if e, ok := ix.entry(path, 0, key); ok {
				ranges[path+"."+key] = e.Key
			}
		}
	}
}
