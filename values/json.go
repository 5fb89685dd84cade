package values

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// encoding/json says where a syntax error is but not where a key or a value is, keeps the last of duplicate keys,
// and reports a number too large for a float64 as a type mismatch. A values file needs all three right, so it is
// read by this small decoder instead: the grammar of RFC 8259, in one pass, with every key, record and field placed.
// Its values are what encoding/json's UseNumber would give: map[string]any, []any, string, json.Number, bool, nil,
// with the same strings (invalid surrogate escapes become U+FFFD).

// jsonDecoder reads one values file written in JSON.
type jsonDecoder struct {
	f   *source.File
	src string
	i   int
	// cur converts offsets into positions: the decoder asks for them in increasing order.
	cur source.Cursor
	// records reports the names whose records (array items) and fields (their keys) are placed in ranges; nil for
	// none.
	records func(name string) bool
	ranges  *Ranges
	diags   *diagLimit
	// bad holds the names whose value has a problem reported already: it is not checked again.
	bad map[string]bool
	// name is the name whose value is being read.
	name string
	// keys holds the keys of the objects being read, each object's above its parent's, and where each is first
	// written: a duplicate is found without a map per object (a million records would make a million maps).
	keys []keyAt
	// failed is set on a syntax error, which ends the decoding.
	failed bool
	// anyBytes is set when src may hold bytes that are not UTF-8 (a text from a Go caller; a file is checked before
	// it is decoded): a string holding one is read as encoding/json reads it, each such byte becoming U+FFFD.
	anyBytes bool
}

// keyAt is a key of an object being read and the byte offset where it is first written.
type keyAt struct {
	key string
	off int
}

// decodeJSONValues decodes f, which must hold one JSON object of variable values, into m, placing its parts in
// ranges and reporting its problems to diags. ok is false when the file could not be decoded at all; a problem with
// one value (a duplicate key, a number out of range) is reported, and the name is put in bad.
func decodeJSONValues(f *source.File, records func(string) bool, diags *diagLimit) (m map[string]any, ranges *Ranges, bad map[string]bool, ok bool) {
	d := &jsonDecoder{f: f, src: f.Text, cur: source.NewCursor(f), records: records, ranges: newRanges(f), diags: diags, bad: map[string]bool{}}
	d.skipSpace()
	switch c := d.peek(); {
	case c < 0:
		d.errorAt(0, "the file must hold one JSON object of variable values, but it is empty")
		return nil, nil, nil, false
	case c != '{':
		start := d.i
		v := d.value(0, nil, 0)
		if !d.failed {
			d.errorAt(start, "the file must hold one JSON object of variable values, not %s", describeJSON(v))
		}
		return nil, nil, nil, false
	}
	d.ranges.name(RootPath, d.i, d.i+1) // the object's opening brace
	m = d.object(0, nil, -1)
	if d.failed {
		return nil, nil, nil, false
	}
	d.skipSpace()
	if d.peek() >= 0 {
		d.syntaxError("unexpected data after the object of variable values")
		return nil, nil, nil, false
	}
	return m, d.ranges.done(), d.bad, true
}

func (d *jsonDecoder) peek() int {
	if d.i < len(d.src) {
		return int(d.src[d.i])
	}
	return -1
}

func (d *jsonDecoder) skipSpace() {
	for d.i < len(d.src) {
		switch d.src[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// errorAt reports a problem at byte off.
func (d *jsonDecoder) errorAt(off int, format string, args ...any) {
	d.diags.errorf(d.cur.Range(off, off), format, args...)
}

// syntaxError reports a syntax error at the current byte and ends the decoding.
func (d *jsonDecoder) syntaxError(format string, args ...any) {
	if !d.failed {
		// Listed whatever came before it: the decoding ends here.
		d.diags.fatalf(d.cur.Range(d.i, d.i), "invalid JSON: "+format, args...)
	}
	d.failed = true
}

// unexpected reports the current byte, or the end of the file, as a syntax error; context completes "invalid
// character 'x' …" as encoding/json words it.
func (d *jsonDecoder) unexpected(context string) {
	if d.i >= len(d.src) {
		d.syntaxError("unexpected EOF")
		return
	}
	d.syntaxError("invalid character %s %s", quoteChar(d.src[d.i:]), context)
}

// quoteChar quotes the character at the start of s as encoding/json's messages do, 'x', when it prints as itself;
// any other (a control or format character, a byte order mark, a space other than ' ', a byte that is not UTF-8)
// is named by its code point instead, U+FEFF, since quoted it would show as nothing or as something else.
func quoteChar(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError && size <= 1:
		if size == 0 {
			return "nothing"
		}
		return fmt.Sprintf("byte 0x%02X (not UTF-8)", s[0])
	case r == '\'':
		return `'\''`
	case r == '"':
		return `'"'`
	case r == ' ' || unicode.IsGraphic(r) && !unicode.IsSpace(r) && !unicode.Is(unicode.Cf, r):
		return "'" + string(r) + "'"
	}
	name := ""
	switch {
	case r == 0xFEFF:
		name = " (ZERO WIDTH NO-BREAK SPACE, a byte order mark)"
	case r == 0xA0:
		name = " (NO-BREAK SPACE)"
	case unicode.Is(unicode.Cf, r):
		name = " (an invisible format character)"
	case unicode.IsControl(r):
		name = " (a control character)"
	case unicode.IsSpace(r):
		name = " (a space character)"
	}
	return fmt.Sprintf("U+%04X%s", r, name)
}

// value reads one value. depth is how many arrays and objects enclose it; place says how many more levels of it to
// place in rs: 2 for a records value (its items, or the records of keyed records by name, then their keys), 1 for
// an item (its keys), 0 for none.
func (d *jsonDecoder) value(depth int, rs *recordSpans, place int) any {
	switch c := d.peek(); {
	case c == '{':
		return d.object(depth, rs, place)
	case c == '[':
		return d.array(depth, rs, place)
	case c == '"':
		s, _ := d.string()
		return s
	case c == '-' || '0' <= c && c <= '9':
		return d.number()
	case c == 't':
		return d.literal("true", true)
	case c == 'f':
		return d.literal("false", false)
	case c == 'n':
		return d.literal("null", nil)
	}
	d.unexpected("looking for beginning of value")
	return nil
}

// enter checks that a value at depth may open another array or object.
func (d *jsonDecoder) enter(depth int) bool {
	if depth < blocks.MaxNesting {
		return true
	}
	if !d.failed {
		d.diags.fatalf(d.cur.Range(d.i, d.i), "JSON value nested more than %d levels deep: arrays and objects may nest at most %d levels; flatten the value", blocks.MaxNesting, blocks.MaxNesting)
	}
	d.failed = true
	return false
}

// object reads an object. At the top (place < 0), each key is a variable's name: its range is placed, and its value
// read as that variable's. A records value given as an object (place 2: keyed records) has each key placed in rs as
// a record's name, and an item of a records value (place 1) its keys.
func (d *jsonDecoder) object(depth int, rs *recordSpans, place int) map[string]any {
	if !d.enter(depth) {
		return nil
	}
	top := place < 0
	d.i++ // {
	m := map[string]any{}
	base := len(d.keys)
	defer func() { d.keys = d.keys[:base] }()
	var first map[string]int // where each key is first written, once the object has many keys
	d.skipSpace()
	if d.peek() == '}' {
		d.i++
		return m
	}
	for !d.failed {
		d.skipSpace()
		if d.peek() != '"' {
			d.unexpected("looking for beginning of object key string")
			return nil
		}
		start := d.i
		key, ok := d.string()
		if !ok {
			return nil
		}
		if top {
			d.name = key
		}
		at, dup := d.firstAt(base, &first, key, start)
		if dup {
			if d.diags.listed() {
				p := d.f.Pos(at)
				d.diags.diags.Errorf(d.cur.Range(start, d.i), "duplicate key %q (first at %d:%d): a JSON object may hold each key once", key, p.Line, p.Column)
			} else {
				d.diags.skipped(d.cur.Range(start, d.i))
			}
			d.bad[d.name] = true
		}
		childRecords, childPlace := (*recordSpans)(nil), 0
		switch {
		case top:
			d.ranges.name(key, start, d.i)
			if !dup && d.records != nil && d.records(key) {
				childRecords, childPlace = d.ranges.recordsOf(key), 2
			}
		case place == 2 && !dup:
			// The name of a record of keyed records, given as an object: the record is placed at its name, and
			// its own keys are placed too.
			rs.named(key, start, d.i)
			childRecords, childPlace = rs, 1
		case place == 1 && !dup:
			rs.key(key, start, d.i)
		}
		d.skipSpace()
		if d.peek() != ':' {
			d.unexpected("after object key")
			return nil
		}
		d.i++
		d.skipSpace()
		v := d.value(depth+1, childRecords, childPlace)
		if !dup {
			m[key] = v
		}
		d.skipSpace()
		switch d.peek() {
		case ',':
			d.i++
		case '}':
			d.i++
			return m
		default:
			d.unexpected("after object key:value pair")
			return nil
		}
	}
	return nil
}

// firstAt returns where key was first written in the object whose keys start at d.keys[base], and whether it was
// written before; if not, it is recorded as written at off. A small object is searched, a large one given a map.
func (d *jsonDecoder) firstAt(base int, first *map[string]int, key string, off int) (int, bool) {
	if *first == nil && len(d.keys)-base >= 16 {
		*first = make(map[string]int, 32)
		for _, k := range d.keys[base:] {
			(*first)[k.key] = k.off
		}
	}
	if *first != nil {
		if at, ok := (*first)[key]; ok {
			return at, true
		}
		(*first)[key] = off
	} else {
		for _, k := range d.keys[base:] {
			if k.key == key {
				return k.off, true
			}
		}
	}
	d.keys = append(d.keys, keyAt{key, off})
	return off, false
}

// array reads an array; when place is 2 (a records value), where each item is written is placed in rs.
func (d *jsonDecoder) array(depth int, rs *recordSpans, place int) []any {
	if !d.enter(depth) {
		return nil
	}
	d.i++ // [
	a := []any{}
	d.skipSpace()
	if d.peek() == ']' {
		d.i++
		return a
	}
	for !d.failed {
		d.skipSpace()
		start := d.i
		itemPlace := 0
		if place == 2 {
			rs.item(start, start) // its end is set below, once read; its keys are placed as it is read
			itemPlace = 1
		}
		v := d.value(depth+1, rs, itemPlace)
		if d.failed {
			return nil
		}
		if place == 2 {
			rs.items[len(a)].end = d.i
		}
		a = append(a, v)
		d.skipSpace()
		switch d.peek() {
		case ',':
			d.i++
		case ']':
			d.i++
			return a
		default:
			d.unexpected("after array element")
			return nil
		}
	}
	return nil
}

// string reads a string, from its opening quote through its closing one.
func (d *jsonDecoder) string() (string, bool) {
	start := d.i
	d.i++ // "
	escaped := false
	for {
		if d.i >= len(d.src) {
			d.syntaxError("unexpected EOF")
			return "", false
		}
		switch c := d.src[d.i]; {
		case c == '"':
			d.i++
			if !escaped && (!d.anyBytes || utf8.ValidString(d.src[start+1:d.i-1])) {
				return d.src[start+1 : d.i-1], true
			}
			var s string
			if err := json.Unmarshal([]byte(d.src[start:d.i]), &s); err != nil {
				// Not reached: the string was checked above as encoding/json checks it.
				d.errorAt(start, "invalid JSON: %v", err)
				d.failed = true
				return "", false
			}
			return s, true
		case c == '\\':
			escaped = true
			d.i++
			switch d.peek() {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				d.i++
			case 'u':
				d.i++
				for k := 0; k < 4; k++ {
					if !isHex(d.peek()) {
						d.unexpected("in \\u hexadecimal character escape")
						return "", false
					}
					d.i++
				}
			default:
				d.unexpected("in string escape code")
				return "", false
			}
		case c < 0x20:
			d.unexpected("in string literal")
			return "", false
		default:
			d.i++
		}
	}
}

func isHex(c int) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func isDigit(c int) bool { return '0' <= c && c <= '9' }

// number reads a number, kept as written. A number a float64 cannot hold (1e400) is reported here, whatever
// variable it is for.
func (d *jsonDecoder) number() any {
	start := d.i
	if d.peek() == '-' {
		d.i++
	}
	switch c := d.peek(); {
	case c == '0':
		d.i++
	case isDigit(c):
		for isDigit(d.peek()) {
			d.i++
		}
	default:
		d.unexpected("in numeric literal")
		return nil
	}
	if d.peek() == '.' {
		d.i++
		if !isDigit(d.peek()) {
			d.unexpected("after decimal point in numeric literal")
			return nil
		}
		for isDigit(d.peek()) {
			d.i++
		}
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		d.i++
		if c := d.peek(); c == '+' || c == '-' {
			d.i++
		}
		if !isDigit(d.peek()) {
			d.unexpected("in exponent of numeric literal")
			return nil
		}
		for isDigit(d.peek()) {
			d.i++
		}
	}
	n := json.Number(d.src[start:d.i])
	if _, err := strconv.ParseFloat(string(n), 64); errors.Is(err, strconv.ErrRange) {
		shown := string(n)
		if len(shown) > 40 {
			shown = shown[:40] + "…"
		}
		d.errorAt(start, "number %s is out of range: a JSON number must fit a 64-bit float (at most about ±1.8e308)", shown)
		d.bad[d.name] = true
	}
	return n
}

// literal reads true, false or null.
func (d *jsonDecoder) literal(word string, v any) any {
	for k := 0; k < len(word); k++ {
		if d.peek() != int(word[k]) {
			d.unexpected(fmt.Sprintf("in literal %s (expecting %s)", word, quoteChar(word[k:])))
			return nil
		}
		d.i++
	}
	return v
}

// decodeJSONText decodes s, a JSON text holding one value (a record or records given as a string, with decode =
// "json"), by the rules a values file is read by: a key an object holds twice, a number no float64 holds, nesting
// deeper than blocks.MaxNesting and anything after the value are refused, each problem placed in s. encoding/json would
// keep the last of two keys, so that a text written to look like one URL could print another.
//
// listed, when not nil, is asked about each problem before it is put into words, as check's report is: the
// problems it refuses are only counted. refused is how many problems the text has, listed or not; the value is nil
// when there is one.
func decodeJSONText(s string, listed func() bool) (v any, problems []jsonTextProblem, refused int) {
	f := source.NewFile("text", s) // named, so that each problem's range is kept
	lim := &diagLimit{max: math.MaxInt, ask: listed}
	d := &jsonDecoder{f: f, src: s, cur: source.NewCursor(f), diags: lim, bad: map[string]bool{}, anyBytes: true}
	d.skipSpace()
	if d.peek() < 0 {
		d.syntaxError("the text is empty")
	} else {
		v = d.value(0, nil, 0)
	}
	if !d.failed {
		d.skipSpace()
		if d.peek() >= 0 {
			d.syntaxError("unexpected data after the JSON value")
		}
	}
	refused = len(lim.diags) + lim.more
	if refused == 0 {
		return v, nil, 0
	}
	problems = make([]jsonTextProblem, len(lim.diags))
	for i, dg := range lim.diags {
		p := jsonTextProblem{msg: dg.Summary}
		if dg.Subject != nil {
			p.at = dg.Subject.Start
		}
		p.msg, p.syntax = strings.CutPrefix(p.msg, "invalid JSON: ")
		problems[i] = p
	}
	return nil, problems, refused
}

// jsonTextProblem is one problem of a JSON text: what, and where in the text.
type jsonTextProblem struct {
	msg    string
	at     source.Pos
	syntax bool // the text is not JSON at all (rather than JSON that promptc refuses)
}
