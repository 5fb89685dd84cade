package blocks

import (
	"slices"
	"strconv"
	"strings"
)

// A fixture gives a record or records value (docs/reference.md#nested-data) in any of TOML's shapes: an array of
// tables ([[session.repos]], [[turn.changed]] under each [[turn]]), sub-tables of its records
// ([session.resources.ref]), dotted keys (ref.url = …), inline tables and arrays of them, nested to
// MaxRecordDepth. The tomlIndex knows the keys of each table header by its occurrence across the whole file, which
// cannot tell the records of the second [[turn]] from those of the first, and it does not look inside inline
// tables. So the loader walks a fixture's text once more, tracking which element of which array of tables each
// header opens, and records where every key naming a variable or one of its fields is written: what an editor
// needs to find and rename them (ValueKey).

// ValueKey is where a key naming a variable, or a field of a record or records variable at any depth, is written
// in a fixture's [session] table or one of its [[turn]] tables: a plain key (name = …), one part of a dotted key
// (ref.url = …) or of a table header ([[session.repos]], [session.resources.ref]), or a key of an inline table
// ({url = …}).
type ValueKey struct {
	// Var is the variable. Field is the path of the field below it, its declared names joined by dots ("ref.url"
	// for field url of field ref), or "" when the key names the variable itself.
	Var, Field string
	// Range is the key as written: a bare key, or a quoted key with its quotes ("url" or 'url'). Its byte
	// offsets slice the file's text to exactly that key.
	Range Range
}

// valueStep is one step of the path of a key in a TOML document: a key, or the element of an array (an array of
// tables, or an inline array) at index.
type valueStep struct {
	key   string
	index int // -1 for a key step
}

// pathKey is one key of a document: its full path from the root, ending with the key itself, and where it is
// written.
type pathKey struct {
	path  []valueStep
	start int
	end   int
}

// docNode follows the tables a document's headers open, so that a header under an array of tables lands in its
// last element, as TOML says.
type docNode struct {
	kids  map[string]*docNode
	array bool
	elems []*docNode
}

func (n *docNode) child(name string) *docNode {
	if n.kids == nil {
		n.kids = map[string]*docNode{}
	}
	c := n.kids[name]
	if c == nil {
		c = &docNode{}
		n.kids[name] = c
	}
	return c
}

// keyWalker finds every key of a TOML document with its full path. Like the scanner it builds on, it reads text
// that BurntSushi/toml has already accepted; on anything else it records what it can and never panics or loops:
// every pass of every loop consumes at least one byte, or returns.
type keyWalker struct {
	s tomlScanner
	docKeys
}

// docKeys is what walkKeys finds in a document.
type docKeys struct {
	// keys holds every key (headers' parts, dotted keys' parts, inline tables' keys) in the order written, with
	// its path.
	keys []pathKey
	// heads holds every [[name]] header, with the path of the element it opens (ending with its index).
	heads []pathKey
}

// walkKeys returns every key and every array-of-tables header of text.
func walkKeys(text string) *docKeys {
	w := &keyWalker{s: tomlScanner{src: text}}
	root := &docNode{}
	var cur []valueStep
	for {
		s := &w.s
		s.skipSpace()
		switch s.peek(0) {
		case tomlEOF:
			return &w.docKeys
		case '#':
			s.skipLine()
		case '[':
			if p, ok := w.header(root); ok {
				cur = p
			}
			s.skipLine()
		default:
			before := s.i
			w.keyValue(cur, 0)
			if s.i == before {
				s.i++
			}
			s.skipLine()
		}
	}
}

// keyPart is one part of a dotted key: its name, quotes removed and escapes decoded, and where it is written,
// quotes included.
type keyPart struct {
	name       string
	start, end int
}

// parts reads a dotted key and the blanks after it.
func (w *keyWalker) parts() ([]keyPart, bool) {
	s := &w.s
	var out []keyPart
	for {
		s.skipBlank()
		start := s.i
		name, ok := s.simpleKey()
		if !ok {
			return nil, false
		}
		out = append(out, keyPart{name, start, s.i})
		s.skipBlank()
		if !s.eat('.') {
			return out, true
		}
	}
}

// header reads a [name] or [[name]] header, records its parts and returns the path of the table it opens.
func (w *keyWalker) header(root *docNode) ([]valueStep, bool) {
	s := &w.s
	start := s.i
	s.i++
	array := s.eat('[')
	parts, ok := w.parts()
	if !ok || !s.eat(']') || array && !s.eat(']') {
		return nil, false
	}
	var path []valueStep
	n := root
	for k, p := range parts {
		path = append(path, valueStep{key: p.name, index: -1})
		w.add(path, p)
		n = n.child(p.name)
		switch {
		case k == len(parts)-1 && array:
			n.array = true
			n.elems = append(n.elems, &docNode{})
		case !n.array:
			continue
		case len(n.elems) == 0:
			n.elems = append(n.elems, &docNode{}) // not TOML: a header under an array with no element yet
		}
		path = append(path, valueStep{index: len(n.elems) - 1})
		n = n.elems[len(n.elems)-1]
	}
	if array {
		w.heads = append(w.heads, pathKey{path: path, start: start, end: s.i})
	}
	return path, true
}

func (w *keyWalker) add(path []valueStep, p keyPart) {
	w.keys = append(w.keys, pathKey{path: append([]valueStep(nil), path...), start: p.start, end: p.end})
}

// keyValue reads key = value in the table at path, recording the key's parts and the keys inside the value.
func (w *keyWalker) keyValue(path []valueStep, depth int) {
	s := &w.s
	parts, ok := w.parts()
	if !ok || !s.eat('=') {
		return
	}
	path = path[:len(path):len(path)] // appends below never write into the caller's array
	for _, p := range parts {
		path = append(path, valueStep{key: p.name, index: -1})
		w.add(path, p)
	}
	s.skipBlank()
	w.value(path, depth)
}

// value skips the value at path, recording the keys of the inline tables it holds. depth counts the arrays and
// inline tables around it, which the loader has already bounded (MaxNesting); the bound here only keeps the
// recursion finite on text it never sees.
func (w *keyWalker) value(path []valueStep, depth int) {
	s := &w.s
	switch q := s.peek(0); {
	case depth > MaxNesting:
		s.skipLine()
	case (q == '"' || q == '\'') && s.has3(q):
		s.i += 3
		s.multiline(q)
	case q == '"' || q == '\'':
		s.i++
		s.single(q)
	case q == '[':
		s.i++
		path = path[:len(path):len(path)]
		for i := 0; ; {
			s.skipSpaceAndComments()
			switch s.peek(0) {
			case tomlEOF:
				return
			case ']':
				s.i++
				return
			case ',':
				s.i++
				continue
			}
			before := s.i
			w.value(append(path, valueStep{index: i}), depth+1)
			if s.i == before {
				s.i++ // nothing this walker reads as a value: step over it
			}
			i++
		}
	case q == '{':
		s.i++
		for {
			s.skipSpaceAndComments() // TOML 1.1 lets an inline table span lines
			switch s.peek(0) {
			case tomlEOF:
				return
			case '}':
				s.i++
				return
			case ',':
				s.i++
				continue
			}
			before := s.i
			w.keyValue(path, depth+1)
			if s.i == before {
				s.i++
			}
		}
	default:
		start := s.i
		w.bare()
		if d := s.src[start:s.i]; len(d) == 10 && d[4] == '-' && d[7] == '-' && s.peek(0) == ' ' && '0' <= s.peek(1) && s.peek(1) <= '9' {
			s.i++ // a date-time with a space for its T (1979-05-27 07:32:00): one value
			w.bare()
		}
	}
}

// bare skips a bare value: a number, a boolean, a date or a time.
func (w *keyWalker) bare() {
	s := &w.s
	for c := s.peek(0); c != tomlEOF && !strings.ContainsRune(" \t\r\n#,]}", rune(c)); c = s.peek(0) {
		s.i++
	}
}

// valueKeys returns the keys of keys (a fixture file's, from walkKeys) that name a declared variable, or one of
// the declared fields of its record or records value, in the table at prefix: [session] (prefix "session"), or
// [[turn]] number i (prefix "turn", element i).
func valueKeys(f *File, keys []pathKey, vars map[string]*Var, prefix []valueStep) []ValueKey {
	var out []ValueKey
next:
	for _, k := range keys {
		if len(k.path) <= len(prefix) || !samePrefix(k.path, prefix) {
			continue
		}
		rest := k.path[len(prefix):]
		if rest[0].index >= 0 {
			continue
		}
		v := vars[rest[0].key]
		if v == nil {
			continue
		}
		var fields []string
		for _, st := range rest[1:] {
			if st.index >= 0 {
				continue // a record of a records value
			}
			if v = v.Field(st.key); v == nil {
				continue next // not a declared field: a mistake the loader reports
			}
			fields = append(fields, st.key)
		}
		out = append(out, ValueKey{Var: rest[0].key, Field: strings.Join(fields, "."), Range: f.Range(k.start, k.end)})
	}
	return out
}

// place returns where the part of a value at path is written: a key, or the header of an element of an array of
// tables, else the closest enclosing one, as long as it is below within (the path of a table's record, say). field
// continues path in the form ValueError.Field has: "ref.url", "items[2].name" (records from 1).
func (d *docKeys) place(f *File, within []valueStep, field string) (Range, bool) {
	full := slices.Clip(within)
	for part := range strings.SplitSeq(field, ".") {
		if part == "" {
			continue
		}
		name, idx, indexed := strings.Cut(part, "[")
		full = append(full, valueStep{key: name, index: -1})
		if n, err := strconv.Atoi(strings.TrimSuffix(idx, "]")); indexed && err == nil && n > 0 {
			full = append(full, valueStep{index: n - 1})
		}
	}
	for cut := len(full); cut >= len(within) && cut > 0; cut-- {
		p := full[:cut]
		list := d.keys
		if p[cut-1].index >= 0 {
			list = d.heads
		}
		for _, k := range list {
			if slices.Equal(k.path, p) {
				return f.Range(k.start, k.end), true
			}
		}
	}
	return Range{}, false
}

func samePrefix(path, prefix []valueStep) bool {
	for i, st := range prefix {
		if path[i] != st {
			return false
		}
	}
	return true
}
