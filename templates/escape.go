package templates

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// The escapers run on every value of every render, so each makes one pass over its input, writes unchanged spans
// in one call, and returns its input without allocating when nothing needs to change.
//
// Values loaded from project sources are valid UTF-8 (docs/reference.md#a-project), but a Go caller of the runtime API may pass anything.
// Every escaper therefore decodes as Go's range loop does: each byte that is not part of a valid UTF-8 sequence
// becomes one U+FFFD, so the output is always valid UTF-8.

// What an ASCII byte becomes in an untrusted or background value.
const (
	asciiKeep   = iota // copied
	asciiEscape        // copied after a backslash
	asciiDrop          // removed: a control character
	asciiBreak         // a line break (\n, \r), or for untrusted values a tab too
)

// untrustedASCII and backgroundASCII classify every ASCII byte for EscapeUntrusted and EscapeBackground.
var (
	untrustedASCII  = asciiClasses("\\`*_[]<>", "\n\r\t")
	backgroundASCII = asciiClasses("\\`<>", "\n\r")
)

func asciiClasses(escaped, breaks string) (t [utf8.RuneSelf]uint8) {
	for c := 0; c < utf8.RuneSelf; c++ {
		switch {
		case strings.IndexByte(breaks, byte(c)) >= 0:
			t[c] = asciiBreak
		case c == '\t':
			// kept by background values
		case c < 0x20 || c == 0x7f:
			t[c] = asciiDrop
		case strings.IndexByte(escaped, byte(c)) >= 0:
			t[c] = asciiEscape
		}
	}
	return t
}

// removedRune reports whether a non-ASCII rune is removed by both escapers: a C1 control character (category Cc)
// or a format character (category Cf: zero-width characters, bidi controls, the BOM, the soft hyphen…).
func removedRune(r rune) bool {
	return r <= 0x9f || unicode.Is(unicode.Cf, r)
}

// replacementChar replaces each invalid UTF-8 byte, which utf8.DecodeRuneInString reports as utf8.RuneError of
// size 1; a U+FFFD spelled correctly in the input has size 3 and is copied as it is.
const replacementChar = "\uFFFD"

// EscapeUntrusted escapes a user-controlled value so that it cannot forge a heading, a marker, a list or an
// instruction when spliced into Markdown (docs/reference.md#trust-levels untrusted). In this order: CRLF and lone CR become LF; every run of
// LF and tab characters becomes one space; control characters (category Cc: C0, DEL, C1) and format characters
// (category Cf) are removed; each of \ ` * _ [ ] < > gets a backslash before it. Because runs are joined before
// removal, a removed character between two line breaks leaves two spaces: "a\n\x00\nb" becomes "a  b". Each invalid
// UTF-8 byte becomes U+FFFD.
//
// Then, because a template may place the value at the start of a line, the value is kept from opening a block
// there: leading spaces are removed; a first character among # ~ = - + | gets a backslash before it; a leading
// run of ASCII digits followed by . or ) gets a backslash before that . or ). So "  # Commands" becomes
// "\# Commands", "~~~" becomes "\~~~" and "1. do" becomes "1\. do". The result holds no line break and cannot
// start a heading, list item, fence, table row or setext underline.
func EscapeUntrusted(s string) string {
	return lineStart(escapeUntrustedInline(s))
}

// lineStart applies the line-start rule of EscapeUntrusted to an escaped value.
func lineStart(s string) string {
	s = strings.TrimLeft(s, " ")
	if s == "" {
		return s
	}
	switch s[0] {
	case '#', '~', '=', '-', '+', '|':
		return `\` + s
	}
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')') {
		return s[:i] + `\` + s[i:]
	}
	return s
}

// escapeUntrustedInline applies every rule of EscapeUntrusted but the line-start rule.
func escapeUntrustedInline(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if untrustedASCII[c] != asciiKeep {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || removedRune(r) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}

	var b strings.Builder
	b.Grow(len(s) + len(s)/8 + 8)
	start := 0 // start of the span not yet written, all of it copied unchanged
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			class := untrustedASCII[c]
			if class == asciiKeep {
				i++
				continue
			}
			b.WriteString(s[start:i])
			switch class {
			case asciiEscape:
				b.WriteByte('\\')
				b.WriteByte(c)
				i++
			case asciiDrop:
				i++
			case asciiBreak:
				// CR, LF and tab all belong to the run: CRLF and CR are LF once normalised.
				b.WriteByte(' ')
				for i++; i < len(s) && (s[i] == '\n' || s[i] == '\r' || s[i] == '\t'); i++ {
				}
			}
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(s[start:i])
			b.WriteString(replacementChar)
			start = i + 1
		case removedRune(r):
			b.WriteString(s[start:i])
			start = i + size
		}
		i += size
	}
	b.WriteString(s[start:])
	return b.String()
}

// EscapeBackground marks a pasted value as read-only background (docs/reference.md#trust-levels background): CRLF and lone CR become LF;
// control characters other than LF and tab, and format characters (category Cf), are removed; each of \ ` < > gets
// a backslash before it; then the value is quoted as by Quote. Each invalid UTF-8 byte becomes U+FFFD.
//
// An empty value stays empty, and so does a value left empty once its control and format characters are removed:
// a value holding nothing visible is not worth a lone ">" line.
func EscapeBackground(s string) string { return EscapeBackgroundQuoting(s, blocks.EmptyQuoteBare) }

// EscapeBackgroundQuoting is EscapeBackground with the choice of what an empty line becomes: ">" with
// blocks.EmptyQuoteBare (EscapeBackground's), "> " with blocks.EmptyQuoteSpace, so that every line of the quote
// starts with "> " (a variable's quote_empty, docs/reference.md#trust-levels).
func EscapeBackgroundQuoting(s string, empty blocks.EmptyQuote) string {
	spaced := empty == blocks.EmptyQuoteSpace
	if s == "" {
		return ""
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/8 + 8)
	b.WriteByte('>')
	lineEmpty := true // nothing written on the current output line after its ">"
	wrote := false    // something other than the first ">" was written
	start := -1       // start of the span of s not yet written, all of it copied unchanged; -1 when none
	flush := func(i int) {
		if start >= 0 {
			b.WriteString(s[start:i])
			start = -1
		}
	}
	// open prepares the current line for visible text: the quote marker's space goes before its first character.
	open := func() {
		if lineEmpty {
			b.WriteByte(' ')
			lineEmpty = false
		}
		wrote = true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			class := backgroundASCII[c]
			if class == asciiKeep {
				if start < 0 {
					open()
					start = i
				}
				i++
				continue
			}
			flush(i)
			switch class {
			case asciiEscape:
				open()
				b.WriteByte('\\')
				b.WriteByte(c)
			case asciiBreak: // \n, or \r: CRLF and lone CR are one LF
				if c == '\r' && i+1 < len(s) && s[i+1] == '\n' {
					i++
				}
				if lineEmpty && spaced {
					b.WriteByte(' ')
				}
				b.WriteString("\n>")
				lineEmpty, wrote = true, true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			flush(i)
			open()
			b.WriteString(replacementChar)
		case removedRune(r):
			flush(i)
		case start < 0:
			open()
			start = i
		}
		i += size
	}
	flush(len(s))
	if !wrote {
		return ""
	}
	if lineEmpty && spaced {
		b.WriteByte(' ')
	}
	return b.String()
}

// Quote implements the quote template function: CRLF and lone CR become LF, then every line is prefixed with "> ",
// and an empty line becomes ">". Lines are split on every LF, so "a\n" is the two lines "a" and "", quoted as
// "> a\n>", and "" is one empty line, quoted as ">".
func Quote(s string) string {
	s = source.NormalizeNewlines(s)
	var b strings.Builder
	b.Grow(len(s) + 2*strings.Count(s, "\n") + 2)
	for {
		j := strings.IndexByte(s, '\n')
		line := s
		if j >= 0 {
			line = s[:j]
		}
		if line == "" {
			b.WriteByte('>')
		} else {
			b.WriteString("> ")
			b.WriteString(line)
		}
		if j < 0 {
			return b.String()
		}
		b.WriteByte('\n')
		s = s[j+1:]
	}
}

// Escape escapes s for a variable of the given trust level: blocks.Trusted leaves it unchanged but for invalid
// UTF-8 (every artifact is valid UTF-8: each invalid byte becomes U+FFFD, at every trust level), blocks.Untrusted
// applies EscapeUntrusted, blocks.Background applies EscapeBackground and blocks.Code applies EscapeCode with no
// info string; a code variable's value is escaped with its lang by EscapeCode itself (Prepare does so). A trust
// level outside the set is treated as untrusted, the safe default.
func Escape(trust blocks.Trust, s string) string {
	switch trust {
	case blocks.Trusted:
		return ValidUTF8(s)
	case blocks.Background:
		return EscapeBackground(s)
	case blocks.Code:
		return EscapeCode(s, "")
	default:
		return EscapeUntrusted(s)
	}
}

// ValidUTF8 returns s with each byte that is not part of a valid UTF-8 sequence replaced by U+FFFD, as the escapers
// do; s itself when it is valid.
func ValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(replacementChar)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
