package source

import (
	"strings"
	"unicode/utf8"
)

// Normalize turns the bytes of a source file into the text promptc works on (docs/reference.md#a-project): the file must be UTF-8, a leading
// byte order mark is dropped, and CRLF and lone CR become LF. On invalid UTF-8 it returns the position of the first
// bad byte in data (line and rune column from 1, byte offset from 0) and ok = false.
func Normalize(data []byte) (text string, bad Pos, ok bool) {
	if bad, invalid := InvalidUTF8(data); invalid {
		return "", bad, false
	}
	s := string(data)
	s = strings.TrimPrefix(s, "\uFEFF")
	return NormalizeNewlines(s), Pos{}, true
}

// InvalidUTF8 reports whether data is not valid UTF-8, and where its first bad byte is (line and rune column from
// 1, byte offset from 0).
func InvalidUTF8(data []byte) (bad Pos, invalid bool) {
	if utf8.Valid(data) {
		return Pos{}, false
	}
	p := Pos{Line: 1, Column: 1}
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			p.Byte = i
			return p, true
		}
		if r == '\n' {
			p.Line, p.Column = p.Line+1, 1
		} else {
			p.Column++
		}
		i += size
	}
	return p, true // not reached: utf8.Valid found a bad byte
}

// NormalizeNewlines turns CRLF and lone CR into LF, in one pass (it runs on every value of every render). It returns s itself when s holds no CR.
func NormalizeNewlines(s string) string {
	i := strings.IndexByte(s, '\r')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i >= 0 {
		b.WriteString(s[:i])
		b.WriteByte('\n')
		if i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
		i = strings.IndexByte(s, '\r')
	}
	b.WriteString(s)
	return b.String()
}
