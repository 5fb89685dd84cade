package blocks

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// A block body or constant value is a TOML string that BurntSushi/toml has decoded without keeping where each byte
// came from. Escapes make the value shorter than its source (\u00e9 is six bytes of source and two of value), and
// a line-ending backslash in a """ string drops the newline and the indentation after it, so a position inside the
// value is found by decoding the string again, with the file offset of every byte. The decoding is checked against
// the loaded value: when the two differ, the mapping is unknown and positions fall back to counting from the
// value's start, rather than pointing somewhere confidently wrong.

// source is where a decoded string sits in its file: an inline TOML string, or a whole template file. Its offsets
// are computed on first use, since most strings never need a position and the compiler asks for them concurrently.
type source struct {
	file  string
	text  string // the file's normalised text
	at    Pos    // where the string's content starts in text
	value string // the string as loaded
	whole bool   // the string is the whole file (a template), not a TOML string in it

	once  sync.Once
	known bool  // the offsets below describe value
	start int   // byte offset in text of the content's first byte
	offs  []int // offs[i] is the file offset of value byte i, offs[len(value)] the end of the content; nil if whole
}

func newSource(file, text string, at Pos, value string, whole bool) *source {
	return &source{file: file, text: text, at: at, value: value, whole: whole}
}

// of returns s if it is the source of value, or nil: a Block or Const whose text was changed after loading has no
// known source.
func (s *source) of(value string) *source {
	if s == nil || s.value != value {
		return nil
	}
	return s
}

func (s *source) decode() {
	if s.whole {
		s.known = s.text == s.value
		return
	}
	start := offsetOf(s.text, s.at.Line, s.at.Col)
	if start < 0 {
		return
	}
	value, offs, ok := tomlString(s.text, start)
	if ok && value == s.value {
		s.known, s.start, s.offs = true, start, offs
	}
}

// offset returns the file offset of byte i of the value, i == len(value) giving the end of its content, and whether
// the mapping is known.
func (s *source) offset(i int) (int, bool) {
	if s == nil || i < 0 || i > len(s.value) {
		return 0, false
	}
	s.once.Do(s.decode)
	switch {
	case !s.known:
		return 0, false
	case s.whole:
		return i, true
	}
	return s.offs[i], true
}

// span returns the byte range of the content in the file, delimiters excluded.
func (s *source) span() (file string, start, end int, ok bool) {
	if s == nil {
		return "", 0, 0, false
	}
	end, ok = s.offset(len(s.value))
	if !ok {
		return "", 0, 0, false
	}
	return s.file, s.start, end, true
}

// pos maps byte off of value onto its file. Without a known mapping it counts from base: line 1 of the value
// starts at base's column, later lines at column 1 (exact unless the string uses escapes); a guess that leaves the
// file gives base itself.
func (s *source) pos(value string, base Pos, off int) Pos {
	off = max(0, min(off, len(value)))
	if at, ok := s.offset(off); ok {
		line, col := LineCol(s.text, at)
		return Pos{File: s.file, Line: line, Col: col}
	}
	if base.Line <= 0 {
		return base
	}
	line, col := LineCol(value, off)
	p := Pos{File: base.File, Line: base.Line + line - 1, Col: col}
	if line == 1 {
		p.Col = base.Col + col - 1
	}
	if s != nil && offsetOf(s.text, p.Line, p.Col) < 0 {
		return base
	}
	return p
}

// SourcePos returns the position in the source file of byte off of the block's body, exact through TOML escapes.
// Offsets outside the body are clamped to it. When the body's source is unknown (a block built in Go rather than
// loaded, or changed since), line 1 of the body is taken to start at BodyPos and later lines at column 1.
func (b *Block) SourcePos(off int) Pos { return b.src.of(b.Body).pos(b.Body, b.BodyPos, off) }

// SourceRange returns the file holding the block's body and the byte range [start, end) of the body's content in
// it: the inside of the TOML string, delimiters excluded, or the whole template file. ok is false when the body's
// source is unknown, or the body was changed after loading.
func (b *Block) SourceRange() (file string, start, end int, ok bool) { return b.src.of(b.Body).span() }

// SourcePos returns the position in the source file of byte off of the constant's value, as Block.SourcePos does
// for a body, counting from ValuePos when the value's source is unknown.
func (c *Const) SourcePos(off int) Pos { return c.src.of(c.Value).pos(c.Value, c.ValuePos, off) }

// SourceRange returns the file holding the constant and the byte range [start, end) of the value's content in it,
// delimiters excluded. ok is false when the value's source is unknown.
func (c *Const) SourceRange() (file string, start, end int, ok bool) { return c.src.of(c.Value).span() }

// tomlString decodes the TOML string whose content starts at byte start of src, telling its kind from the delimiter
// before it. It returns the value and the file offset of each of its bytes (every byte of an escape maps to its
// backslash), plus one more: where the content ends, at the closing delimiter. ok is false when src holds no string
// there that this decoder understands.
func tomlString(src string, start int) (value string, offs []int, ok bool) {
	if start < 0 || start > len(src) {
		return "", nil, false
	}
	var delim string
	for _, d := range []string{`"""`, `'''`, `"`, `'`} {
		pre := src[:start]
		if len(d) == 3 {
			pre = strings.TrimSuffix(pre, "\n") // TOML drops a newline right after the opening delimiter
		}
		if strings.HasSuffix(pre, d) {
			delim = d
			break
		}
	}
	if delim == "" {
		return "", nil, false
	}
	basic, multi := delim[0] == '"', len(delim) == 3
	var b strings.Builder
	emit := func(s string, at int) {
		b.WriteString(s)
		for range len(s) {
			offs = append(offs, at)
		}
	}
	for i := start; i < len(src); {
		if strings.HasPrefix(src[i:], delim) {
			end := i
			if multi {
				// One or two quotes may end the content right before the closing delimiter: """a"""" is `a"`.
				for n := 0; n < 2 && end+3 < len(src) && src[end+3] == delim[0]; n++ {
					emit(delim[:1], end)
					end++
				}
			}
			return b.String(), append(offs, end), true
		}
		switch c := src[i]; {
		case c == '\n' && !multi:
			return "", nil, false
		case c != '\\' || !basic:
			emit(src[i:i+1], i)
			i++
		default:
			n, text := escape(src[i:], multi)
			if n == 0 {
				return "", nil, false
			}
			emit(text, i)
			i += n
		}
	}
	return "", nil, false
}

// escape decodes the escape at the start of s (a backslash and what follows) in a basic string, returning its
// length in s and the text it stands for, or 0 when it is not valid. A line-ending backslash, allowed in multi-line
// strings only, stands for nothing: it swallows the newline and every space, tab and newline after it.
func escape(s string, multi bool) (int, string) {
	if len(s) < 2 {
		return 0, ""
	}
	switch e := s[1]; e {
	case 'b':
		return 2, "\b"
	case 't':
		return 2, "\t"
	case 'n':
		return 2, "\n"
	case 'f':
		return 2, "\f"
	case 'r':
		return 2, "\r"
	case 'e':
		return 2, "\x1b"
	case '"', '\\':
		return 2, s[1:2]
	case 'x', 'u', 'U':
		digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
		if len(s) < 2+digits {
			return 0, ""
		}
		r, err := strconv.ParseUint(s[2:2+digits], 16, 32)
		if err != nil || !utf8.ValidRune(rune(r)) {
			return 0, ""
		}
		return 2 + digits, string(rune(r))
	case ' ', '\t', '\n':
		if !multi {
			return 0, ""
		}
		i := 1 + len(s[1:]) - len(strings.TrimLeft(s[1:], " \t"))
		if i >= len(s) || s[i] != '\n' {
			return 0, "" // a backslash followed by blanks must end its line
		}
		return len(s) - len(strings.TrimLeft(s[i:], " \t\n")), ""
	}
	return 0, ""
}

// offsetOf converts a 1-based line and rune column of text into a byte offset, or -1 when text has no such place.
// The column may point just past the end of its line.
func offsetOf(text string, line, col int) int {
	off := lineOffset(text, line)
	if off < 0 || col <= 0 {
		return -1
	}
	for c := 1; c < col; c++ {
		if off >= len(text) || text[off] == '\n' {
			return -1
		}
		_, size := utf8.DecodeRuneInString(text[off:])
		off += size
	}
	return off
}

// lineOffset returns the byte offset at which 1-based line starts in text, or -1.
func lineOffset(text string, line int) int {
	if line <= 0 {
		return -1
	}
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	return off
}
