package blocks

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// decodeTOMLFast decodes the TOML most project files are written in, in one pass and several times faster than
// BurntSushi/toml, into the same map toml.Decode would produce: tables as map[string]any, arrays of tables as
// []map[string]any, arrays as []any, strings, int64 and bool. It covers table headers (dotted, of plain tables and
// arrays of tables), keys that are bare or quoted without escapes, the four kinds of strings, decimal integers,
// booleans, arrays, inline tables on one line (the tiny records of a values file: a million of them take
// BurntSushi/toml seconds and gigabytes) and comments. On anything else (floats, dates, dotted keys, an inline table
// over several lines or with a trailing comma, a header that reaches into an inline table, CR line endings, a key or
// table defined twice, any error) it returns ok == false and decodes nothing, and the caller decodes the text
// with BurntSushi/toml, which stays the one authority on what is TOML and what each error says. So the fast path
// may only ever accept text BurntSushi/toml accepts, with the value it gives (FuzzDecodeTOMLFast checks both).
func decodeTOMLFast(text string) (doc map[string]any, ok bool) {
	if strings.HasPrefix(text, "\uFEFF") || !plainTOMLBytes(text) {
		return nil, false
	}
	d := &fastDecoder{s: tomlScanner{src: text}, root: map[string]any{}, explicit: map[string]bool{}, inline: map[string]bool{}}
	if !d.document() {
		return nil, false
	}
	return d.root, true
}

// plainTOMLBytes reports whether text is valid UTF-8 with no control character but tab and newline: TOML refuses
// the others anywhere, and CR (allowed before LF) is left to the full decoder.
func plainTOMLBytes(text string) bool {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
			return false
		}
		if c >= 0x80 {
			return utf8.ValidString(text[i:]) && noControlAfter(text, i)
		}
	}
	return true
}

// noControlAfter is plainTOMLBytes' check of the bytes from i on, once a non-ASCII byte was seen: C1 controls
// (U+0080 to U+009F) are refused by TOML too.
func noControlAfter(text string, i int) bool {
	for _, r := range text[i:] {
		if r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f {
			return false
		}
	}
	return true
}

// fastDecoder is one run of decodeTOMLFast. explicit holds the tables defined by a header of their own, by path
// (see pathKey): a second header for one of them is an error, left to the full decoder. inline holds the paths of
// the inline tables that keys of tables hold (curPath is the current table's): a header that names one, or a table
// below one, is left to the full decoder too.
type fastDecoder struct {
	s        tomlScanner
	root     map[string]any
	cur      map[string]any
	curPath  string
	explicit map[string]bool
	inline   map[string]bool
}

func (d *fastDecoder) document() bool {
	s := &d.s
	d.cur, d.curPath = d.root, ""
	for {
		s.skipSpace()
		switch s.peek(0) {
		case tomlEOF:
			return true
		case '#':
			s.skipLine()
			continue
		case '\r':
			return false
		case '[':
			if !d.header() {
				return false
			}
		default:
			if !d.keyValue() {
				return false
			}
		}
		if !d.endOfLine() {
			return false
		}
	}
}

// endOfLine consumes the blanks, the comment and the newline that must end a header or a key = value line.
func (d *fastDecoder) endOfLine() bool {
	s := &d.s
	s.skipBlank()
	switch s.peek(0) {
	case tomlEOF:
		return true
	case '#', '\n':
		s.skipLine()
		return true
	}
	return false
}

// header reads [a.b] or [[a.b]] and makes its table the current one.
func (d *fastDecoder) header() bool {
	s := &d.s
	s.i++
	array := s.eat('[')
	var parts []string
	for {
		s.skipBlank()
		k, ok := d.key()
		if !ok {
			return false
		}
		parts = append(parts, k)
		s.skipBlank()
		if !s.eat('.') {
			break
		}
	}
	if !s.eat(']') || array && !s.eat(']') {
		return false
	}
	// Walk to the parent, creating implicit tables; an array of tables on the way stands for its last table.
	t := d.root
	var path strings.Builder
	for _, p := range parts[:len(parts)-1] {
		path.WriteString(p)
		if d.inline[path.String()] {
			return false
		}
		path.WriteByte(0)
		switch v := t[p].(type) {
		case nil:
			m := map[string]any{}
			t[p] = m
			t = m
		case map[string]any:
			t = v
		case []map[string]any:
			t = v[len(v)-1]
			path.WriteString(strconv.Itoa(len(v) - 1))
			path.WriteByte(0)
		default:
			return false
		}
	}
	last := parts[len(parts)-1]
	path.WriteString(last)
	if d.inline[path.String()] {
		return false
	}
	d.curPath = path.String()
	switch v := t[last].(type) {
	case nil:
		m := map[string]any{}
		if array {
			t[last] = []map[string]any{m}
		} else {
			t[last] = m
			d.explicit[path.String()] = true
		}
		d.cur = m
	case map[string]any:
		if array || d.explicit[path.String()] {
			return false
		}
		d.explicit[path.String()] = true
		d.cur = v
	case []map[string]any:
		if !array {
			return false
		}
		m := map[string]any{}
		t[last] = append(v, m)
		d.cur = m
	default:
		return false
	}
	if array {
		// The paths below the table are those of its place in the array.
		d.curPath += "\x00" + strconv.Itoa(len(t[last].([]map[string]any))-1)
	}
	return true
}

// key reads a bare key or a quoted one without escapes; an empty key is left to the full decoder.
func (d *fastDecoder) key() (string, bool) {
	s := &d.s
	start := s.i
	switch q := s.peek(0); {
	case q == '"' || q == '\'':
		s.i++
		for c := s.peek(0); c != q; c = s.peek(0) {
			if c == tomlEOF || c == '\n' || c == '\\' {
				return "", false
			}
			s.i++
		}
		s.i++
		if s.i-start == 2 {
			return "", false
		}
		return s.src[start+1 : s.i-1], true
	case isBareKeyByte(q):
		for isBareKeyByte(s.peek(0)) {
			s.i++
		}
		return s.src[start:s.i], true
	}
	return "", false
}

// keyValue reads key = value into the current table.
func (d *fastDecoder) keyValue() bool {
	s := &d.s
	k, ok := d.key()
	if !ok {
		return false
	}
	s.skipBlank()
	if !s.eat('=') {
		return false // a dotted key, or not TOML
	}
	s.skipBlank()
	if _, dup := d.cur[k]; dup {
		return false
	}
	v, ok := d.value()
	if !ok {
		return false
	}
	d.cur[k] = v
	if _, isTable := v.(map[string]any); isTable {
		path := k
		if d.curPath != "" {
			path = d.curPath + "\x00" + k
		}
		d.inline[path] = true
	}
	return true
}

// inlineTable reads an inline table written on one line, without a trailing comma and with keys that are not
// dotted: what TOML 1.0 allows, and most values files write.
func (d *fastDecoder) inlineTable() (any, bool) {
	s := &d.s
	s.i++ // {
	m := map[string]any{}
	s.skipBlank()
	if s.eat('}') {
		return m, true
	}
	for {
		s.skipBlank()
		k, ok := d.key()
		if !ok {
			return nil, false
		}
		s.skipBlank()
		if !s.eat('=') {
			return nil, false // a dotted key, or not TOML
		}
		s.skipBlank()
		if _, dup := m[k]; dup {
			return nil, false
		}
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		m[k] = v
		s.skipBlank()
		if !s.eat(',') {
			return m, s.eat('}')
		}
	}
}

func (d *fastDecoder) value() (any, bool) {
	s := &d.s
	switch c := s.peek(0); {
	case c == '"' && s.has3('"'):
		return d.multilineBasic()
	case c == '"':
		return d.basic()
	case c == '\'' && s.has3('\''):
		return d.multilineLiteral()
	case c == '\'':
		s.i++
		start := s.i
		for c := s.peek(0); c != '\''; c = s.peek(0) {
			if c == tomlEOF || c == '\n' {
				return nil, false
			}
			s.i++
		}
		s.i++
		return s.src[start : s.i-1], true
	case c == '[':
		return d.array()
	case c == '{':
		return d.inlineTable()
	case c == 't' && strings.HasPrefix(s.src[s.i:], "true"):
		s.i += 4
		return true, d.valueEnds()
	case c == 'f' && strings.HasPrefix(s.src[s.i:], "false"):
		s.i += 5
		return false, d.valueEnds()
	case c == '-' || '0' <= c && c <= '9':
		start := s.i
		s.eat('-')
		digits := s.i
		for c := s.peek(0); '0' <= c && c <= '9'; c = s.peek(0) {
			s.i++
		}
		if s.i == digits || s.src[digits] == '0' && s.i-digits > 1 || !d.valueEnds() {
			return nil, false // not a plain decimal integer: a float, a date, a leading zero, an underscore
		}
		n, err := strconv.ParseInt(s.src[start:s.i], 10, 64)
		return n, err == nil
	}
	return nil, false
}

// valueEnds reports whether what follows a number or a boolean may end it.
func (d *fastDecoder) valueEnds() bool {
	switch d.s.peek(0) {
	case tomlEOF, ' ', '\t', '\n', ',', ']', '}', '#':
		return true
	}
	return false
}

func (d *fastDecoder) array() (any, bool) {
	s := &d.s
	s.i++
	out := []any{}
	for {
		s.skipSpaceAndComments()
		if s.eat(']') {
			return out, true
		}
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		out = append(out, v)
		s.skipSpaceAndComments()
		if !s.eat(',') {
			if !s.eat(']') {
				return nil, false
			}
			return out, true
		}
	}
}

// multilineString reads a multi-line string, with the tomlScanner's walk (multiline), and returns its content as
// written: after the newline TOML trims right after the opening delimiter, up to the closing delimiter (which may
// follow up to two quotes of the content). A sixth quote in a row is left after it, where endOfLine refuses it.
func (d *fastDecoder) multilineString(q int) (string, bool) {
	s := &d.s
	s.i += 3
	start := s.i
	if s.peek(0) == '\n' {
		start++
	}
	if !s.multiline(q) {
		return "", false
	}
	return s.src[start : s.i-3], true
}

func (d *fastDecoder) multilineLiteral() (any, bool) {
	return d.multilineString('\'')
}

func (d *fastDecoder) multilineBasic() (any, bool) {
	raw, ok := d.multilineString('"')
	if !ok {
		return nil, false
	}
	return unescapeFast(raw, true)
}

func (d *fastDecoder) basic() (any, bool) {
	s := &d.s
	s.i++
	start := s.i
	for c := s.peek(0); c != '"'; c = s.peek(0) {
		switch c {
		case tomlEOF, '\n':
			return nil, false
		case '\\':
			s.i++
		}
		s.i++
	}
	s.i++
	return unescapeFast(s.src[start:s.i-1], false)
}

// unescapeFast decodes the escapes of a basic string's content: \" \\ \b \t \n \f \r \e \uXXXX \UXXXXXXXX and, in
// a multi-line string, a line-ending backslash. Any other escape is left to the full decoder.
func unescapeFast(raw string, multiline bool) (string, bool) {
	i := strings.IndexByte(raw, '\\')
	if i < 0 {
		return raw, true
	}
	var b strings.Builder
	b.Grow(len(raw))
	for ; i >= 0; i = strings.IndexByte(raw, '\\') {
		b.WriteString(raw[:i])
		if i+1 >= len(raw) {
			return "", false
		}
		c := raw[i+1]
		raw = raw[i+2:]
		switch c {
		case '"':
			b.WriteByte('"')
		case '\\':
			b.WriteByte('\\')
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case 'e':
			b.WriteByte(0x1b)
		case 'u', 'U':
			n := 4
			if c == 'U' {
				n = 8
			}
			if len(raw) < n {
				return "", false
			}
			v, err := strconv.ParseUint(raw[:n], 16, 32)
			if err != nil || strings.ContainsAny(raw[:n], "+-_") || !utf8.ValidRune(rune(v)) {
				return "", false
			}
			b.WriteRune(rune(v))
			raw = raw[n:]
		case ' ', '\t', '\n':
			if !multiline {
				return "", false
			}
			// A line-ending backslash: blanks up to the newline, then every blank and newline after it, go.
			if c != '\n' {
				raw = strings.TrimLeft(raw, " \t")
				if !strings.HasPrefix(raw, "\n") {
					return "", false
				}
			}
			raw = strings.TrimLeft(raw, " \t\n")
		default:
			return "", false
		}
	}
	b.WriteString(raw)
	return b.String(), true
}
