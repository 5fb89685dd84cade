package blocks

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// bodySource records where a block's body text comes from, so that a position inside the body can be mapped back
// onto its source file even when TOML escapes make the body shorter than its source.
type bodySource struct {
	text  string // the source file's normalised text
	start int    // byte offset in text of the body's first character
	basic bool   // a TOML basic string ("…" or """…"""): backslash escapes apply
}

// setBodySource remembers where the body starts in file, given the position of the value's content.
func (b *Block) setBodySource(file, text string, pos Pos) {
	start := offsetOf(text, pos.Line, pos.Col)
	if start < 0 {
		return
	}
	basic := false
	switch {
	case start > 0 && text[start-1] == '"':
		basic = true
	case start >= 4 && text[start-1] == '\n' && text[start-4:start-1] == `"""`:
		basic = true
	}
	b.src = &bodySource{text: text, start: start, basic: basic}
}

// offsetOf converts a 1-based line and rune column into a byte offset of text, or -1.
func offsetOf(text string, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
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

// SourcePos returns the source position of byte offset off of the block's body.
func (b *Block) SourcePos(off int) Pos {
	if b.src == nil {
		line, col := LineCol(b.Body, off)
		return offsetPos(b.BodyPos, line, col)
	}
	s := b.src
	src := s.start
	if !s.basic {
		src += off
	} else {
		for body := 0; body < off && src < len(s.text); {
			if s.text[src] != '\\' || src+1 >= len(s.text) {
				_, size := utf8.DecodeRuneInString(s.text[src:])
				src += size
				body += size
				continue
			}
			next := s.text[src+1]
			switch {
			case next == ' ' || next == '\t' || next == '\n':
				// A line-ending backslash: it and the whitespace after it vanish from the body.
				src++
				for src < len(s.text) && (s.text[src] == ' ' || s.text[src] == '\t' || s.text[src] == '\n') {
					src++
				}
			case next == 'u' || next == 'U' || next == 'x':
				n := map[byte]int{'u': 4, 'U': 8, 'x': 2}[next]
				end := min(src+2+n, len(s.text))
				r, err := strconv.ParseUint(s.text[src+2:end], 16, 32)
				size := 1
				if err == nil {
					size = utf8.RuneLen(rune(r))
					if size < 0 {
						size = 3
					}
				}
				src = end
				body += size
			default:
				src += 2
				body++
			}
		}
	}
	line, col := LineCol(s.text, min(src, len(s.text)))
	return Pos{File: b.BodyPos.File, Line: line, Col: col}
}

// offsetPos maps a body line and column onto the file when no source text is known: line 1 starts at pos.
func offsetPos(pos Pos, line, col int) Pos {
	if line == 1 {
		return Pos{File: pos.File, Line: pos.Line, Col: pos.Col + col - 1}
	}
	return Pos{File: pos.File, Line: pos.Line + line - 1, Col: col}
}
