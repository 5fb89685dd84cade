package blocks

import (
	"strings"
	"unicode/utf8"
)

// Normalize turns the bytes of a source file into the text promptc works on (§3.1): the file must be UTF-8, a leading
// byte order mark is dropped, and CRLF and lone CR become LF. On invalid UTF-8 it returns the 1-based line and column
// (in runes) of the first bad byte.
func Normalize(data []byte) (text string, badLine, badCol int, ok bool) {
	if !utf8.Valid(data) {
		line, col := 1, 1
		for i := 0; i < len(data); {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size <= 1 {
				return "", line, col, false
			}
			if r == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
			i += size
		}
	}
	s := string(data)
	s = strings.TrimPrefix(s, "\uFEFF")
	return NormalizeNewlines(s), 0, 0, true
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

// LineCol returns the 1-based line and rune column of byte offset off in s.
func LineCol(s string, off int) (line, col int) {
	if off > len(s) {
		off = len(s)
	}
	line = 1 + strings.Count(s[:off], "\n")
	start := strings.LastIndexByte(s[:off], '\n') + 1
	return line, 1 + utf8.RuneCountInString(s[start:off])
}
