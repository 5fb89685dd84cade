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

// NormalizeNewlines replaces CRLF and lone CR by LF.
func NormalizeNewlines(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
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
