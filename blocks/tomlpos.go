package blocks

import (
	"strconv"
	"strings"
)

// BurntSushi/toml reports no per-key positions, and the keys of the n-th [[block]] are indistinguishable from those
// of any other in its metadata, so diagnostics find their line and column with this small scanner instead. It runs
// on text that BurntSushi/toml has already accepted, with LF line endings and no BOM, so it reads the happy path
// only; on anything else it records what it can and never panics or loops.

// keyPos is where a key, table header or value sits in a TOML source. Lines and columns count from 1; columns count
// in runes (Unicode code points), not bytes.
type keyPos struct {
	Line, Col       int // start of the key (or of the "[" / "[[" of a table header)
	ValLine, ValCol int // where the value's content starts: after the opening quote(s); 0,0 for table headers
}

// keyIndex holds the positions of every key and table header in one TOML source.
//
// Keys inside inline tables ({ a = 1 }) are not indexed: a diagnostic about one points at the key that holds the
// inline table. Names are normalised with quotes removed, so `"a.b" = 1` and `a.b = 1` share the name "a.b", and a
// table [""] shares the root's; the first one written wins.
type keyIndex struct {
	keys   map[keyRef]keyPos
	tables map[tableRef]keyPos
	arrays map[string]int // occurrences of [[name]] so far
	plains map[string]int // occurrences of [name]; more than one only beneath an array of tables
}

// tableRef names occurrence n of a table header: the n-th [[name]], or the n-th [name] (0 but for subtables of an
// array of tables, such as a [block.meta] under each [[block]]).
type tableRef struct {
	name string
	n    int
}

type keyRef struct {
	table tableRef
	key   string
}

// indexKeys scans src and records every key and table header.
func indexKeys(src string) *keyIndex {
	ix := &keyIndex{
		keys:   map[keyRef]keyPos{},
		tables: map[tableRef]keyPos{},
		arrays: map[string]int{},
		plains: map[string]int{},
	}
	s := &tomlScanner{src: []rune(src), line: 1, col: 1}
	var cur tableRef
	// Each pass consumes at least one rune, so the loop ends on any input.
	for {
		s.skipSpace()
		switch s.peek(0) {
		case tomlEOF:
			return ix
		case '#':
			s.skipLine()
		case '[':
			if t, ok := ix.header(s); ok {
				cur = t
			}
			s.skipLine()
		default:
			ix.keyValue(s, cur)
			s.skipLine()
		}
	}
}

// header reads a [name] or [[name]] header at s and records it.
func (ix *keyIndex) header(s *tomlScanner) (tableRef, bool) {
	pos := keyPos{Line: s.line, Col: s.col}
	s.next()
	array := s.peek(0) == '['
	if array {
		s.next()
	}
	name, ok := s.dottedKey()
	if !ok || !s.eat(']') || array && !s.eat(']') {
		return tableRef{}, false
	}
	t := tableRef{name: name}
	if array {
		t.n = ix.arrays[name]
		ix.arrays[name]++
	} else {
		t.n = ix.plains[name]
		ix.plains[name]++
	}
	if _, dup := ix.tables[t]; !dup {
		ix.tables[t] = pos
	}
	return t, true
}

// keyValue reads a key = value pair at s, records it in table t and skips the whole value, however many lines it
// spans, so that nothing inside it is mistaken for a key.
func (ix *keyIndex) keyValue(s *tomlScanner, t tableRef) {
	pos := keyPos{Line: s.line, Col: s.col}
	key, ok := s.dottedKey()
	if !ok || !s.eat('=') {
		return
	}
	s.skipBlank()
	pos.ValLine, pos.ValCol = s.value()
	ref := keyRef{table: t, key: key}
	if _, dup := ix.keys[ref]; !dup {
		ix.keys[ref] = pos
	}
}

// key returns the position of key within table occurrence n.
// table is "" for the root table, "runbook" for [runbook], "vars.agent_name" for [vars.agent_name],
// "block" for [[block]]; n counts occurrences of an array-of-tables header from 0 ([[block]] number n), and is 0
// for a plain table. key is the dotted key as written relative to that table, normalised: whitespace around dots
// removed and quotes removed (`a . "b"` -> "a.b").
func (ix *keyIndex) key(table string, n int, key string) (keyPos, bool) {
	p, ok := ix.keys[keyRef{table: tableRef{name: table, n: n}, key: key}]
	return p, ok
}

// table returns the position of the header of table occurrence n (see key), or Line 1 Col 1 for "" (root).
func (ix *keyIndex) table(table string, n int) (keyPos, bool) {
	if table == "" {
		return keyPos{Line: 1, Col: 1}, n == 0
	}
	p, ok := ix.tables[tableRef{name: table, n: n}]
	return p, ok
}

// count returns how many times the array-of-tables header [[table]] occurs.
func (ix *keyIndex) count(table string) int { return ix.arrays[table] }

const tomlEOF = -1

// tomlScanner walks a source rune by rune, keeping the line and column of the next rune.
type tomlScanner struct {
	src       []rune
	i         int
	line, col int
}

// peek returns the rune k ahead of the next one, or tomlEOF.
func (s *tomlScanner) peek(k int) rune {
	if s.i+k < len(s.src) {
		return s.src[s.i+k]
	}
	return tomlEOF
}

func (s *tomlScanner) next() {
	if s.i >= len(s.src) {
		return
	}
	if s.src[s.i] == '\n' {
		s.line, s.col = s.line+1, 1
	} else {
		s.col++
	}
	s.i++
}

// eat consumes r if it is next.
func (s *tomlScanner) eat(r rune) bool {
	if s.peek(0) != r {
		return false
	}
	s.next()
	return true
}

// has3 reports whether the next three runes are q, as in the delimiter of a multi-line string.
func (s *tomlScanner) has3(q rune) bool { return s.peek(0) == q && s.peek(1) == q && s.peek(2) == q }

// skipBlank skips TOML whitespace: spaces and tabs.
func (s *tomlScanner) skipBlank() {
	for s.peek(0) == ' ' || s.peek(0) == '\t' {
		s.next()
	}
}

// skipSpace skips whitespace and newlines.
func (s *tomlScanner) skipSpace() {
	for r := s.peek(0); r == ' ' || r == '\t' || r == '\n' || r == '\r'; r = s.peek(0) {
		s.next()
	}
}

// skipLine skips the rest of the line, newline included: after a header or a value, only blanks and a comment.
func (s *tomlScanner) skipLine() {
	for r := s.peek(0); r != tomlEOF; r = s.peek(0) {
		s.next()
		if r == '\n' {
			return
		}
	}
}

// dottedKey reads a key such as `a . "b".c`, normalised to "a.b.c", and the blanks after it.
func (s *tomlScanner) dottedKey() (string, bool) {
	var parts []string
	for {
		s.skipBlank()
		part, ok := s.simpleKey()
		if !ok {
			return "", false
		}
		parts = append(parts, part)
		s.skipBlank()
		if !s.eat('.') {
			return strings.Join(parts, "."), true
		}
	}
}

// simpleKey reads one bare or quoted key, without its quotes and with escapes decoded.
func (s *tomlScanner) simpleKey() (string, bool) {
	switch q := s.peek(0); {
	case q == '"' || q == '\'':
		s.next()
		start := s.i
		if !s.single(q) {
			return "", false
		}
		raw := string(s.src[start : s.i-1])
		if q == '"' {
			return unescapeBasic(raw), true
		}
		return raw, true
	case isBareKeyRune(q):
		start := s.i
		for isBareKeyRune(s.peek(0)) {
			s.next()
		}
		return string(s.src[start:s.i]), true
	}
	return "", false
}

func isBareKeyRune(r rune) bool {
	return 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '_' || r == '-'
}

// unescapeBasic decodes the escapes of a basic string's content, falling back to the raw text on a bad escape.
func unescapeBasic(raw string) string {
	var b strings.Builder
	for s := raw; s != ""; {
		if strings.HasPrefix(s, `\e`) { // TOML 1.1 escape that Go lacks
			b.WriteByte(0x1b)
			s = s[2:]
			continue
		}
		r, _, tail, err := strconv.UnquoteChar(s, '"')
		if err != nil {
			return raw
		}
		b.WriteRune(r)
		s = tail
	}
	return b.String()
}

// value skips the value at s and returns where its content starts, as keyPos.ValLine and ValCol describe.
func (s *tomlScanner) value() (line, col int) {
	switch q := s.peek(0); {
	case (q == '"' || q == '\'') && s.has3(q):
		s.next()
		s.next()
		s.next()
		line, col = s.line, s.col
		if s.peek(0) == '\n' { // TOML trims a newline right after the opening delimiter
			line, col = s.line+1, 1
		}
		s.multiline(q)
	case q == '"' || q == '\'':
		s.next()
		line, col = s.line, s.col
		s.single(q)
	case q == '[' || q == '{':
		line, col = s.line, s.col
		s.composite()
	default:
		// A scalar never spans lines: the caller's skipLine skips it.
		line, col = s.line, s.col
	}
	return line, col
}

// single skips a one-line string after its opening quote q, through its closing quote, and reports whether it found
// that quote; if not, it stops before the newline.
func (s *tomlScanner) single(q rune) bool {
	for r := s.peek(0); r != tomlEOF && r != '\n'; r = s.peek(0) {
		s.next()
		if r == q {
			return true
		}
		if r == '\\' && q == '"' && s.peek(0) != '\n' {
			s.next()
		}
	}
	return false
}

// multiline skips a multi-line string after its opening delimiter, through its closing one. Up to two more quotes
// may follow a closing delimiter and still belong to the content (`"""a""""`).
func (s *tomlScanner) multiline(q rune) {
	for r := s.peek(0); r != tomlEOF; r = s.peek(0) {
		if s.has3(q) {
			s.next()
			s.next()
			s.next()
			s.eat(q)
			s.eat(q)
			return
		}
		s.next()
		if r == '\\' && q == '"' {
			s.next() // an escape, or a line-ending backslash
		}
	}
}

// composite skips an array or inline table, with whatever strings, comments and nesting it holds, through the
// bracket that closes it.
func (s *tomlScanner) composite() {
	depth := 0
	for r := s.peek(0); r != tomlEOF; r = s.peek(0) {
		switch {
		case r == '[' || r == '{':
			depth++
			s.next()
		case r == ']' || r == '}':
			depth--
			s.next()
			if depth <= 0 {
				return
			}
		case r == '#':
			for s.peek(0) != tomlEOF && s.peek(0) != '\n' {
				s.next()
			}
		case (r == '"' || r == '\'') && s.has3(r):
			s.next()
			s.next()
			s.next()
			s.multiline(r)
		case r == '"' || r == '\'':
			s.next()
			s.single(r)
		default:
			s.next()
		}
	}
}
