package blocks

import (
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/promptc/promptc/source"
)

// A block body or constant value is a TOML string that BurntSushi/toml has decoded without keeping where each byte
// came from. Escapes make the value shorter than its source (\u00e9 is six bytes of source and two of value), and
// a line-ending backslash in a """ string drops the newline and the indentation after it, so a position inside the
// value is found by decoding the string again, with the file offset of every byte. The decoding is checked against
// the loaded value: when the two differ, the mapping is unknown and positions fall back to counting from the
// value's start, rather than pointing somewhere confidently wrong.

// origin is where a decoded string sits in its file: an inline TOML string, or a whole template file. Its offsets
// are computed on first use, since most strings never need a position and the compiler asks for them concurrently.
type origin struct {
	file  *source.File
	start int    // byte offset in the file of the content's first byte
	value string // the string as loaded
	whole bool   // the string is the whole file (a template), not a TOML string in it

	once  sync.Once
	known bool        // the offsets below describe value
	runs  []offsetRun // where the value's bytes come from, in value order; nil if whole
	end   int         // the file offset of the end of the content, where value byte len(value) would be
}

// offsetRun maps the value bytes from at up to the next run's at onto the file: byte at comes from offset off, and
// each byte after it from step bytes further (1: plain text, copied byte for byte; 0: the bytes of one escape, which
// all come from its backslash). A body without escapes is one run: lint asks for the source of thousands of bodies
// (duplicate sentences, scope inversions), and an offset per byte cost eight bytes of memory per byte of body.
type offsetRun struct{ at, off, step int }

func newOrigin(file *source.File, start int, value string, whole bool) *origin {
	return &origin{file: file, start: start, value: value, whole: whole}
}

// of returns s if it is the source of value, or nil: a Block or Const whose text was changed after loading has no
// known source.
func (s *origin) of(value string) *origin {
	if s == nil || s.value != value {
		return nil
	}
	return s
}

func (s *origin) decode() {
	if s.whole {
		s.known = s.file.Text == s.value
		return
	}
	var runs []offsetRun
	n, same := 0, true // how many bytes of value the string's pieces have matched, and whether all did
	end, ok := scanString(s.file.Text, s.start, func(piece string, at int) {
		if !same || piece == "" {
			return
		}
		if len(piece) > len(s.value)-n || s.value[n:n+len(piece)] != piece {
			same = false
			return
		}
		last := len(runs) - 1
		switch {
		case len(piece) == 1 && last >= 0 && runs[last].step == 1 && runs[last].off+n-runs[last].at == at:
			// The next byte of the file: the run goes on.
		case len(piece) == 1:
			runs = append(runs, offsetRun{at: n, off: at, step: 1})
		default:
			runs = append(runs, offsetRun{at: n, off: at})
		}
		n += len(piece)
	})
	if ok && same && n == len(s.value) {
		s.known, s.runs, s.end = true, runs, end
	}
}

// offset returns the file offset of byte i of the value, i == len(value) giving the end of its content, and whether
// the mapping is known.
func (s *origin) offset(i int) (int, bool) {
	if s == nil || i < 0 || i > len(s.value) {
		return 0, false
	}
	s.once.Do(s.decode)
	switch {
	case !s.known:
		return 0, false
	case s.whole:
		return i, true
	case i == len(s.value):
		return s.end, true
	}
	r := s.runs[sort.Search(len(s.runs), func(k int) bool { return s.runs[k].at > i })-1]
	return r.off + (i-r.at)*r.step, true
}

// span maps the bytes [start, end) of value onto its file. Without a known mapping it counts from base, the range
// of the content: line 1 of the value starts at base's column, later lines at column 1 (exact unless the string
// uses escapes); a guess that leaves the file gives base's start.
func (s *origin) span(value string, base source.Range, start, end int) source.Range {
	start = max(0, min(start, len(value)))
	end = max(start, min(end, len(value)))
	if a, ok := s.offset(start); ok {
		b, _ := s.offset(end)
		if end > start {
			// An escape gives several bytes of the value from one place in the file: a range ending inside one
			// takes all of it.
			last, _ := s.offset(end - 1)
			for k := end; b == last && k < len(value); k++ {
				b, _ = s.offset(k + 1)
			}
		}
		return s.file.Range(a, max(a, b))
	}
	if base.Start.Line <= 0 {
		return source.Range{Filename: base.Filename, Start: base.Start, End: base.Start}
	}
	guess := func(off int) (source.Pos, bool) {
		p := source.TextPos(value, off)
		q := source.Pos{Line: base.Start.Line + p.Line - 1, Column: p.Column}
		if p.Line == 1 {
			q.Column = base.Start.Column + p.Column - 1
		}
		if s != nil {
			o := s.file.Offset(q.Line, q.Column)
			if o < 0 {
				return base.Start, false
			}
			q.Byte = o
		} else {
			q.Byte = base.Start.Byte + off
		}
		return q, true
	}
	a, ok := guess(start)
	if !ok {
		return source.Range{Filename: base.Filename, Start: base.Start, End: base.Start}
	}
	b, ok := guess(end)
	if !ok {
		b = a
	}
	return source.Range{Filename: base.Filename, Start: a, End: b}
}

// SourceRange returns where the bytes [start, end) of the block's body are written, exact through TOML escapes.
// Offsets outside the body are clamped to it. When the body's source is unknown (a block built in Go rather than
// loaded, or changed since), line 1 of the body is taken to start at BodyRange's start and later lines at column 1.
func (b *Block) SourceRange(start, end int) source.Range {
	return b.src.of(b.Body).span(b.Body, b.BodyRange, start, end)
}

// SourceRange returns where the bytes [start, end) of the constant's value are written, as Block.SourceRange does
// for a body.
func (c *Const) SourceRange(start, end int) source.Range {
	return c.src.of(c.Value).span(c.Value, c.ValueRange, start, end)
}

// tomlString decodes the TOML string whose content starts at byte start of src, telling its kind from the delimiter
// before it. It returns the value and the file offset of each of its bytes (every byte of an escape maps to its
// backslash), plus one more: where the content ends, at the closing delimiter. ok is false when src holds no string
// there that this decoder understands.
func tomlString(src string, start int) (value string, offs []int, ok bool) {
	var b strings.Builder
	end, ok := scanString(src, start, func(s string, at int) {
		b.WriteString(s)
		for range len(s) {
			offs = append(offs, at)
		}
	})
	if !ok {
		return "", nil, false
	}
	return b.String(), append(offs, end), true
}

// scanString reads the TOML string whose content starts at byte start of src, as tomlString does, calling emit
// with each piece of its value in order and the file offset the piece comes from (a byte of text, or what one
// escape stands for, "" for a line-ending backslash). It returns the file offset where the content ends, and false
// when src holds no string there that this decoder understands (emit may have been called by then).
func scanString(src string, start int, emit func(s string, at int)) (end int, ok bool) {
	if start < 0 || start > len(src) {
		return 0, false
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
		return 0, false
	}
	basic, multi := delim[0] == '"', len(delim) == 3
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
			return end, true
		}
		switch c := src[i]; {
		case c == '\n' && !multi:
			return 0, false
		case c != '\\' || !basic:
			emit(src[i:i+1], i)
			i++
		default:
			n, text := escape(src[i:], multi)
			if n == 0 {
				return 0, false
			}
			emit(text, i)
			i += n
		}
	}
	return 0, false
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
