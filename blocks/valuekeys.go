package blocks

import (
	"slices"
	"strconv"
	"strings"

	"github.com/promptc/promptc/source"
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
	Range source.Range
}

// valueStep is one step of the path of a key in a TOML document: a key, or the element of an array (an array of
// tables, or an inline array) at index.
type valueStep struct {
	key   string
	index int // -1 for a key step
}

// pathNode is one step of a path, stored once in docKeys.nodes and shared by every path that goes through it, so
// that a document's keys cost one node each, not a copy of their path.
type pathNode struct {
	parent int32 // the node of the step before, or noNode
	valueStep
}

const noNode = -1

// pathKey is one key of a document: its path from the root, ending with the key itself (a node of docKeys), and
// where it is written.
type pathKey struct {
	node       int32
	start, end int
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
	s     tomlScanner
	parts []keyPart // reused by readParts
	docKeys
}

// docKeys is what walkKeys finds in a document.
type docKeys struct {
	nodes []pathNode
	// keys holds every key (headers' parts, dotted keys' parts, inline tables' keys) in the order written.
	keys []pathKey
	// heads holds every [[name]] header, with the path of the element it opens (ending with its index).
	heads []pathKey
	// byTable holds the keys of keys by the table of a fixture they are in (tableOf), made on first use.
	byTable map[fixtureTable][]pathKey
	// firstAt holds, by path (pathString), the first key of keys or header of heads written at it: what place looks
	// up, made on its first use, so that placing one error per turn stays linear in the file.
	firstAt map[string]pathKey
	// scans counts the places found by a scan of the keys instead, before firstAt is made: a fixture with one
	// mistake needs one look, and a map of the paths of a million keys would cost seconds a keystroke.
	scans int
}

// pathString encodes the steps of a path as one string, a map key: a key step by its length and name (names may hold
// any character), an index step by its number.
func pathString(path []valueStep) string {
	var b strings.Builder
	for _, st := range path {
		if st.index >= 0 {
			b.WriteByte('#')
			b.WriteString(strconv.Itoa(st.index))
		} else {
			b.WriteByte('.')
			b.WriteString(strconv.Itoa(len(st.key)))
			b.WriteByte(':')
			b.WriteString(st.key)
		}
	}
	return b.String()
}

// step adds the step st after node parent and returns the new node.
func (d *docKeys) step(parent int32, st valueStep) int32 {
	d.nodes = append(d.nodes, pathNode{parent: parent, valueStep: st})
	return int32(len(d.nodes) - 1)
}

// path appends the steps of the path ending at node to buf[:0], from the root.
func (d *docKeys) path(node int32, buf []valueStep) []valueStep {
	buf = buf[:0]
	for n := node; n != noNode && len(buf) <= len(d.nodes); n = d.nodes[n].parent {
		buf = append(buf, d.nodes[n].valueStep)
	}
	slices.Reverse(buf)
	return buf
}

// walkKeys returns every key and every array-of-tables header of text.
func walkKeys(text string) *docKeys {
	w := &keyWalker{s: tomlScanner{src: text}}
	root := &docNode{}
	cur := int32(noNode)
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

// readParts reads a dotted key and the blanks after it, into w.parts.
func (w *keyWalker) readParts() ([]keyPart, bool) {
	s := &w.s
	out := w.parts[:0]
	defer func() { w.parts = out[:0] }()
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
func (w *keyWalker) header(root *docNode) (int32, bool) {
	s := &w.s
	start := s.i
	s.i++
	array := s.eat('[')
	parts, ok := w.readParts()
	if !ok || !s.eat(']') || array && !s.eat(']') {
		return noNode, false
	}
	path := int32(noNode)
	n := root
	for k, p := range parts {
		path = w.step(path, valueStep{key: p.name, index: -1})
		w.keys = append(w.keys, pathKey{node: path, start: p.start, end: p.end})
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
		path = w.step(path, valueStep{index: len(n.elems) - 1})
		n = n.elems[len(n.elems)-1]
	}
	if array {
		w.heads = append(w.heads, pathKey{node: path, start: start, end: s.i})
	}
	return path, true
}

// keyValue reads key = value in the table at path, recording the key's parts and the keys inside the value.
func (w *keyWalker) keyValue(path int32, depth int) {
	s := &w.s
	parts, ok := w.readParts()
	if !ok || !s.eat('=') {
		return
	}
	for _, p := range parts {
		path = w.step(path, valueStep{key: p.name, index: -1})
		w.keys = append(w.keys, pathKey{node: path, start: p.start, end: p.end})
	}
	s.skipBlank()
	w.value(path, depth)
}

// value skips the value at path, recording the keys of the inline tables it holds. depth counts the arrays and
// inline tables around it, which the loader has already bounded (MaxNesting); the bound here only keeps the
// recursion finite on text it never sees.
func (w *keyWalker) value(path int32, depth int) {
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
			w.value(w.step(path, valueStep{index: i}), depth+1)
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

// fixtureTable names a table of a fixture: [session] (turn -1), or [[turn]] number turn (from 0).
type fixtureTable struct {
	name string
	turn int
}

// tableOf returns the table of a fixture that a key at path is in: [session] ({"session", -1}), [[turn]] number i
// ({"turn", i}); or false for a key of the root table (extends, tasks) or the key of the table itself.
func tableOf(path []valueStep) (fixtureTable, bool) {
	switch {
	case len(path) >= 2 && path[0].key == "session" && path[0].index < 0 && path[1].index < 0:
		return fixtureTable{name: "session", turn: -1}, true
	case len(path) >= 3 && path[0].key == "turn" && path[0].index < 0 && path[1].index >= 0 && path[2].index < 0:
		return fixtureTable{name: "turn", turn: path[1].index}, true
	}
	return fixtureTable{}, false
}

// valueKeys returns the keys of the fixture's table t (tableOf) that name a declared variable, or one of the
// declared fields of its record or records value.
func (d *docKeys) valueKeys(f *source.File, vars map[string]*Var, t fixtureTable) []ValueKey {
	var buf []valueStep
	if d.byTable == nil {
		d.byTable = map[fixtureTable][]pathKey{}
		for _, k := range d.keys {
			buf = d.path(k.node, buf)
			if t, ok := tableOf(buf); ok {
				d.byTable[t] = append(d.byTable[t], k)
			}
		}
	}
	skip := 1 // the steps of the table: "session", or "turn" and the turn's index
	if t.name == "turn" {
		skip = 2
	}
	// Twice over the keys: first to count the ones that name a variable or field, so that the slice is made at its
	// size (a fixture of a million records has a million such keys), then to fill it.
	var out []ValueKey
	cur := source.NewCursor(f) // the keys come in the order written
	for pass := range 2 {
		n := 0
	next:
		for _, k := range d.byTable[t] {
			buf = d.path(k.node, buf)
			rest := buf[skip:]
			v := vars[rest[0].key]
			if v == nil {
				continue
			}
			field := ""
			named := v.Key != "" // the next key names a record of keyed records
			for i, st := range rest[1:] {
				if st.index >= 0 {
					named = false // a record of a records value (keyed ones too may be written as an array)
					continue
				}
				if named {
					if i == len(rest)-2 {
						continue next // the record's name: the value's own, not a declared name
					}
					named = false
					continue
				}
				if v = v.Field(st.key); v == nil {
					continue next // not a declared field: a mistake the loader reports
				}
				if pass == 1 {
					field = joinKey(field, st.key)
				}
				named = v.Key != ""
			}
			if n++; pass == 1 {
				out = append(out, ValueKey{Var: rest[0].key, Field: field, Range: cur.Range(k.start, k.end)})
			}
		}
		if pass == 0 {
			if n == 0 {
				return nil
			}
			out = make([]ValueKey, 0, n)
		}
	}
	return out
}

// place returns where the part of a value at path is written: a key, or the header of an element of an array of
// tables, else the closest enclosing one, as long as it is below within (the path of a table's record, say). field
// continues path in the form values.ValueError.Field has: "ref.url", "items[2].name" (records from 1).
func (d *docKeys) place(f *source.File, within []valueStep, field string) (source.Range, bool) {
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
	if d.firstAt == nil && d.scans < 8 {
		d.scans++
		if k, ok := d.scan(within, full); ok {
			return f.Range(k.start, k.end), true
		}
		return source.Range{}, false
	}
	if d.firstAt == nil {
		// A key's path ends with a key step and a header's with an index step, so the two never share a path.
		d.firstAt = map[string]pathKey{}
		var buf []valueStep
		for _, list := range [][]pathKey{d.keys, d.heads} {
			for _, k := range list {
				buf = d.path(k.node, buf)
				p := pathString(buf)
				if _, seen := d.firstAt[p]; !seen {
					d.firstAt[p] = k
				}
			}
		}
	}
	for cut := len(full); cut >= len(within) && cut > 0; cut-- {
		if k, ok := d.firstAt[pathString(full[:cut])]; ok {
			return f.Range(k.start, k.end), true
		}
	}
	return source.Range{}, false
}

// scan finds what place's map finds, the first key or header written at the longest prefix of full that is no
// shorter than within, by walking every key's path against full: linear in the keys, and without a string made.
func (d *docKeys) scan(within, full []valueStep) (pathKey, bool) {
	best, bestLen := pathKey{}, 0
	for _, list := range [][]pathKey{d.keys, d.heads} {
		for _, k := range list {
			n := 0
			for x := k.node; x != noNode && n <= len(full); x = d.nodes[x].parent {
				n++
			}
			if n <= bestLen || n > len(full) || n < len(within) {
				continue
			}
			same, i := true, n-1
			for x := k.node; x != noNode; x, i = d.nodes[x].parent, i-1 {
				if d.nodes[x].valueStep != full[i] {
					same = false
					break
				}
			}
			if same {
				best, bestLen = k, n
			}
		}
	}
	return best, bestLen > 0
}
