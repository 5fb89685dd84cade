package templates

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// EscapeCode keeps a value verbatim inside a fenced code block that it cannot close (docs/reference.md#trust-levels code), for diffs, logs
// and source that must stay readable. In this order: CRLF and lone CR become LF; control characters other than LF
// and tab (C0, DEL, C1) are removed; each format character (category Cf: zero-width characters, bidi controls, the
// BOM, the "Trojan Source" attack) is replaced by the visible text <U+XXXX> (upper-case hex, at least 4 digits);
// each invalid UTF-8 byte becomes U+FFFD. A value left empty stays empty. Otherwise the result is
//
//	fence + lang + "\n" + value + ("\n" unless value ends with one) + fence
//
// where fence is N backticks, N = max(3, 1 + the longest run of backticks in the value), so no line of the value
// can close the fence: a closing fence needs at least N backticks in a row. No newline follows the closing fence.
//
// lang is the fence's info string; the loader admits only [A-Za-z0-9_+.-]*, and any other byte is left out here,
// so that no caller can end the info string early or put a backtick in it (which would stop the fence opening).
func EscapeCode(s, lang string) string {
	value := codeValue(s)
	if value == "" {
		return ""
	}
	lang = codeLang(lang)
	longest, run := 0, 0
	for i := 0; i < len(value); i++ {
		if value[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	n := max(3, longest+1)
	var b strings.Builder
	b.Grow(2*n + len(lang) + len(value) + 2)
	writeFence(&b, n)
	b.WriteString(lang)
	b.WriteByte('\n')
	b.WriteString(value)
	if value[len(value)-1] != '\n' {
		b.WriteByte('\n')
	}
	writeFence(&b, n)
	return b.String()
}

func writeFence(b *strings.Builder, n int) {
	for range n {
		b.WriteByte('`')
	}
}

// codeLang keeps the bytes of lang that an info string may hold: [A-Za-z0-9_+.-].
func codeLang(lang string) string {
	keep := func(c byte) bool { return isWordByte(c) || c == '+' || c == '.' || c == '-' }
	for i := 0; i < len(lang); i++ {
		if !keep(lang[i]) {
			var b strings.Builder
			for j := 0; j < len(lang); j++ {
				if keep(lang[j]) {
					b.WriteByte(lang[j])
				}
			}
			return b.String()
		}
	}
	return lang
}

// codeValue applies the character rules of EscapeCode in one pass, returning s itself when nothing changes.
func codeValue(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r <= 0x9f || unicode.Is(unicode.Cf, r) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}

	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	start := i // start of the span not yet written, all of it copied unchanged
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\r':
				b.WriteString(s[start:i])
				b.WriteByte('\n')
				if i+1 < len(s) && s[i+1] == '\n' {
					i++ // CRLF is one newline
				}
				start = i + 1
			case (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f:
				b.WriteString(s[start:i])
				start = i + 1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(s[start:i])
			b.WriteString(replacementChar)
			start = i + 1
		case r <= 0x9f: // C1
			b.WriteString(s[start:i])
			start = i + size
		case unicode.Is(unicode.Cf, r):
			b.WriteString(s[start:i])
			writeCodePoint(&b, r)
			start = i + size
		}
		i += size
	}
	b.WriteString(s[start:])
	return b.String()
}

// writeCodePoint writes r as <U+XXXX>: upper-case hex, at least 4 digits.
func writeCodePoint(b *strings.Builder, r rune) {
	const hex = "0123456789ABCDEF"
	var digits [8]byte
	n := 0
	for v := uint32(r); v > 0 || n < 4; v >>= 4 {
		digits[n] = hex[v&0xf]
		n++
	}
	b.WriteString("<U+")
	for n > 0 {
		n--
		b.WriteByte(digits[n])
	}
	b.WriteByte('>')
}
