package blocks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/promptc/promptc/source"
)

// BurntSushi/toml reports no per-key positions, and the keys of the n-th [[block]] are indistinguishable from those
// of any other in its metadata, so the loader finds where every key, value and array item is written with this
// small scanner. It runs on text that BurntSushi/toml has already accepted, with LF line endings and no BOM, so it
// reads the happy path only; on anything else it records what it can and never panics or loops.

// Entry is where one key of a table is written: the key (a dotted key whole), its value (quotes and brackets
// included) and, when the value is an array, each of its items.
type Entry struct {
	Key, Value source.Range
	Items      []source.Range
}

// Item returns the range of item i of an array value, or the whole value when the scanner did not find that item.
func (e Entry) Item(i int) source.Range {
	if i >= 0 && i < len(e.Items) {
		return e.Items[i]
	}
	return e.Value
}

// tomlIndex holds where every key and table header of one TOML source is written.
//
// Keys inside inline tables ({ a = 1 }) are not indexed: a diagnostic about one points at the key that holds the
// inline table. Names are normalised with quotes removed, so `"a.b" = 1` and `a.b = 1` share the name "a.b", and a
// table [""] shares the root's; the first one written wins.
type tomlIndex struct {
	file *source.File
	keys map[keyRef]int // index in entries
	// entries holds every key's Entry, in the order written.
	entries []Entry
	tables  map[tableRef]source.Range
	arrays  map[string]int // occurrences of [[name]] so far
	plains  map[string]int // occurrences of [name]; more than one only beneath an array of tables
	named   namedRanges    // keys and headers by full dotted name, for pathRange (tool.go)
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

// scanTOML scans f and records every key and table header.
func scanTOML(f *source.File) *tomlIndex {
	ix := &tomlIndex{
		file:   f,
		keys:   make(map[keyRef]int, strings.Count(f.Text, "\n")/2),
		tables: map[tableRef]source.Range{},
		arrays: map[string]int{},
		plains: map[string]int{},
	}
	s := &tomlScanner{src: f.Text}
	var cur tableRef
	// Each pass consumes at least one byte, so the loop ends on any input.
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
func (ix *tomlIndex) header(s *tomlScanner) (tableRef, bool) {
	start := s.i
	s.i++
	array := s.peek(0) == '['
	if array {
		s.i++
	}
	name, _, ok := s.dottedKey()
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
		ix.tables[t] = ix.file.Range(start, s.i)
	}
	return t, true
}

// keyValue reads a key = value pair at s, records it in table t and skips the whole value, however many lines it
// spans, so that nothing inside it is mistaken for a key.
func (ix *tomlIndex) keyValue(s *tomlScanner, t tableRef) {
	start := s.i
	key, keyEnd, ok := s.dottedKey()
	if !ok || !s.eat('=') {
		return
	}
	s.skipBlank()
	w := valueWalk{s: s, f: ix.file, record: true}
	// The limits were checked before the text was decoded; what a walk would refuse here has been refused.
	vs, ve, _ := w.value(0, 0)
	items := w.items
	ref := keyRef{table: t, key: key}
	if _, dup := ix.keys[ref]; dup {
		return
	}
	ix.keys[ref] = len(ix.entries)
	e := Entry{Key: ix.file.Range(start, keyEnd), Value: ix.file.Range(vs, ve)}
	if len(items) > 0 {
		// The items come in the order written: a cursor converts their offsets in time linear in the value, where
		// File.Range would count from the line's last checkpoint for each (an 8 MiB line of a million records).
		cur := source.NewCursor(ix.file)
		e.Items = make([]source.Range, len(items))
		for i, it := range items {
			e.Items[i] = cur.Range(it[0], it[1])
		}
	}
	ix.entries = append(ix.entries, e)
}

// entry returns where key is written within table occurrence n. table is "" for the root table, "runbook" for
// [runbook], "vars.agent_name" for [vars.agent_name], "block" for [[block]]; n counts occurrences of an
// array-of-tables header from 0 ([[block]] number n), and is 0 for a plain table. key is the dotted key as written
// relative to that table, normalised: whitespace around dots and quotes removed (`a . "b"` -> "a.b").
func (ix *tomlIndex) entry(table string, n int, key string) (Entry, bool) {
	i, ok := ix.keys[keyRef{table: tableRef{name: table, n: n}, key: key}]
	if !ok {
		return Entry{}, false
	}
	return ix.entries[i], true
}

// header returns the range of the header of table occurrence n (see entry); for the root table "", the start of
// the file.
func (ix *tomlIndex) headerRange(table string, n int) (source.Range, bool) {
	if table == "" {
		return ix.file.Range(0, 0), n == 0
	}
	r, ok := ix.tables[tableRef{name: table, n: n}]
	return r, ok
}

// count returns how many times the array-of-tables header [[table]] occurs.
func (ix *tomlIndex) count(table string) int { return ix.arrays[table] }

const tomlEOF = -1

// tomlScanner walks a source byte by byte. Every byte that matters to TOML's structure is ASCII, so multi-byte
// characters are skipped like any other byte of a string or comment.
type tomlScanner struct {
	src string
	i   int
}

// peek returns the byte k ahead of the next one, or tomlEOF.
func (s *tomlScanner) peek(k int) int {
	if s.i+k < len(s.src) {
		return int(s.src[s.i+k])
	}
	return tomlEOF
}

// eat consumes c if it is next.
func (s *tomlScanner) eat(c int) bool {
	if s.peek(0) != c {
		return false
	}
	s.i++
	return true
}

// has3 reports whether the next three bytes are q, as in the delimiter of a multi-line string.
func (s *tomlScanner) has3(q int) bool { return s.peek(0) == q && s.peek(1) == q && s.peek(2) == q }

// skipBlank skips TOML whitespace: spaces and tabs.
func (s *tomlScanner) skipBlank() {
	for s.peek(0) == ' ' || s.peek(0) == '\t' {
		s.i++
	}
}

// skipSpace skips whitespace and newlines.
func (s *tomlScanner) skipSpace() {
	for c := s.peek(0); c == ' ' || c == '\t' || c == '\n' || c == '\r'; c = s.peek(0) {
		s.i++
	}
}

// skipSpaceAndComments skips whitespace, newlines and comments: what may stand between the items of an array.
func (s *tomlScanner) skipSpaceAndComments() {
	for {
		s.skipSpace()
		if s.peek(0) != '#' {
			return
		}
		for c := s.peek(0); c != tomlEOF && c != '\n'; c = s.peek(0) {
			s.i++
		}
	}
}

// skipLine skips the rest of the line, newline included: after a header or a value, only blanks and a comment.
func (s *tomlScanner) skipLine() {
	if i := strings.IndexByte(s.src[s.i:], '\n'); i >= 0 {
		s.i += i + 1
	} else {
		s.i = len(s.src)
	}
}

// dottedKey reads a key such as `a . "b".c`, normalised to "a.b.c", and the blanks after it. end is where the key
// ends, before those blanks.
func (s *tomlScanner) dottedKey() (key string, end int, ok bool) {
	var parts []string
	for {
		s.skipBlank()
		part, ok := s.simpleKey()
		if !ok {
			return "", 0, false
		}
		parts = append(parts, part)
		end = s.i
		s.skipBlank()
		if !s.eat('.') {
			return strings.Join(parts, "."), end, true
		}
	}
}

// simpleKey reads one bare or quoted key, without its quotes and with escapes decoded.
func (s *tomlScanner) simpleKey() (string, bool) {
	switch q := s.peek(0); {
	case q == '"' || q == '\'':
		s.i++
		start := s.i
		if !s.single(q) {
			return "", false
		}
		raw := s.src[start : s.i-1]
		if q == '"' {
			return unescapeBasic(raw), true
		}
		return raw, true
	case isBareKeyByte(q):
		start := s.i
		for isBareKeyByte(s.peek(0)) {
			s.i++
		}
		return s.src[start:s.i], true
	}
	return "", false
}

func isBareKeyByte(c int) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-'
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

// valueWalk walks one TOML value: it is the one walker of values, used by the key index (keyValue), by the limits
// pre-scan (checkTOMLLimits) and by the values files' inline tables. It refuses nesting past MaxNesting and key paths
// past MaxKeyParts, in file f; when record is set, it records in items where each item of the outermost array is.
type valueWalk struct {
	s      *tomlScanner
	f      *source.File
	record bool
	items  [][2]int
}

// value skips the value at the scanner and returns where it starts and ends, without the blanks after a bare value
// (a number, a boolean, a date, which ends at a newline or a comment, and inside an array or inline table also at
// a comma or a closing bracket or brace). depth is how many arrays and inline tables enclose the value, parts how
// many key parts its path has. On text that is not TOML it goes on as far as it can and never loops: each array and
// inline table step consumes at least one byte.
func (w *valueWalk) value(depth, parts int) (start, end int, d *source.Diagnostic) {
	s := w.s
	start = s.i
	switch c := s.peek(0); {
	case (c == '"' || c == '\'') && s.has3(c):
		s.i += 3
		s.multiline(c)
	case c == '"' || c == '\'':
		s.i++
		s.single(c)
	case c == '[' || c == '{':
		if depth == MaxNesting {
			return start, start, &source.Diagnostic{
				Summary: fmt.Sprintf("TOML value nested more than %d levels deep: arrays and inline tables may nest at most %d levels (deeper ones would make decoding slow); flatten the value", MaxNesting, MaxNesting),
				Subject: w.f.Range(start, start+1).Ptr(),
			}
		}
		s.i++
		if c == '[' {
			d = w.array(depth+1, parts)
		} else {
			d = w.inlineTable(depth+1, parts)
		}
	default:
		for c := s.peek(0); c != tomlEOF && c != '\n' && c != '#' && !(depth > 0 && (c == ',' || c == ']' || c == '}')); c = s.peek(0) {
			s.i++
		}
		end = s.i
		for end > start && (s.src[end-1] == ' ' || s.src[end-1] == '\t') {
			end--
		}
		return start, end, nil
	}
	return start, s.i, d
}

// array walks the items of an array after its opening bracket, through its closing one.
func (w *valueWalk) array(depth, parts int) *source.Diagnostic {
	s := w.s
	for {
		s.skipSpaceAndComments()
		switch s.peek(0) {
		case tomlEOF:
			return nil
		case ']':
			s.i++
			return nil
		case ',', '}':
			s.i++ // a stray comma or brace: TOML rejects it, but the walk must go on
			continue
		}
		start, end, d := w.value(depth, parts)
		if d != nil {
			return d
		}
		if s.i == start {
			s.i++ // nothing this walker reads as a value: step over it
			continue
		}
		if w.record && depth == 1 {
			w.items = append(w.items, [2]int{start, end})
		}
	}
}

// inlineTable walks the key = value pairs of an inline table after its opening brace, through its closing one.
func (w *valueWalk) inlineTable(depth, parts int) *source.Diagnostic {
	s := w.s
	for {
		s.skipSpaceAndComments()
		start := s.i
		switch c := s.peek(0); {
		case c == tomlEOF:
			return nil
		case c == '}':
			s.i++
			return nil
		case c == ',' || c == ']':
			s.i++
		case isKeyStart(c):
			n := s.keyParts()
			if parts+n > MaxKeyParts {
				return keyPathError(w.f, start, parts+n)
			}
			s.skipBlank()
			if s.eat('=') {
				s.skipBlank()
				if _, _, d := w.value(depth, parts+n); d != nil {
					return d
				}
			}
		default:
			// Not TOML, but an array or table here must still count as nesting.
			if _, _, d := w.value(depth, parts); d != nil {
				return d
			}
			if s.i == start {
				s.i++
			}
		}
	}
}

// single skips a one-line string after its opening quote q, through its closing quote, and reports whether it found
// that quote; if not, it stops before the newline.
func (s *tomlScanner) single(q int) bool {
	for c := s.peek(0); c != tomlEOF && c != '\n'; c = s.peek(0) {
		s.i++
		if c == q {
			return true
		}
		if c == '\\' && q == '"' && s.peek(0) != '\n' && s.peek(0) != tomlEOF {
			s.i++
		}
	}
	return false
}

// multiline skips a multi-line string after its opening delimiter, through its closing one, and reports whether it
// found one (else it stops at the end of the text). Up to two more quotes may follow a closing delimiter and still
// belong to the content (`"""a""""`). Bodies are long, so the scan jumps from one quote or backslash to the next.
func (s *tomlScanner) multiline(q int) bool {
	stops := `"\`
	if q == '\'' {
		stops = "'"
	}
	for {
		j := strings.IndexAny(s.src[s.i:], stops)
		if j < 0 {
			s.i = len(s.src)
			return false
		}
		s.i += j
		if s.src[s.i] == '\\' {
			s.i = min(s.i+2, len(s.src)) // an escape, or a line-ending backslash
			continue
		}
		if s.has3(q) {
			s.i += 3
			s.eat(q)
			s.eat(q)
			return true
		}
		s.i++
	}
}

// contentStart returns where the content of the string value starting at byte off of text begins: after its
// opening quote or triple quote and, for a multi-line string, after the newline TOML trims right after the opening
// delimiter. For a value that is not a string it returns off.
func contentStart(text string, off int) int {
	rest := text[min(off, len(text)):]
	switch {
	case strings.HasPrefix(rest, `"""`) || strings.HasPrefix(rest, `'''`):
		if strings.HasPrefix(rest[3:], "\n") {
			return off + 4
		}
		return off + 3
	case strings.HasPrefix(rest, `"`) || strings.HasPrefix(rest, `'`):
		return off + 1
	}
	return off
}
