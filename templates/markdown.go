package templates

import (
	"strings"
	"unicode/utf8"
)

// DefaultLevel is the heading level a markdown value nests under when no titled block comes before it in its
// artifact: that of a block with the default level.
const DefaultLevel = 2

// EscapeMarkdown keeps a privileged author's Markdown (trust = "markdown", docs/values.md) as Markdown that cannot
// break the outline around it. In this order: CRLF and lone CR become LF; control characters other than LF and tab
// (C0, DEL, C1) and format characters (category Cf) are removed, and each invalid UTF-8 byte becomes U+FFFD; then,
// reading the value's block structure as CommonMark does (containers, fences, HTML blocks):
//
//   - the ATX headings are shifted by one amount so that the shallowest of them is at level+1, none deeper than 6
//     (level is the heading level of the enclosing block; 0 stands for DefaultLevel);
//   - a setext underline (a line of only = or only - under a paragraph line, or the value's first lines, which may
//     follow the author's text) is removed, so that it cannot turn the line above into a heading;
//   - a < that could open an HTML block (at the start of a line, or after the markers of block quotes and list
//     items: < then !, ?, / or a letter) gets a backslash after it, so that no HTML block (<!--, <?, <![CDATA[,
//     <pre>, <script>, <div>, …) can hide the value's lines from the outline or run past its end;
//
// and a fence the value opens and does not close is closed at its end: "\n" (unless the value ends with one) and
// the opener's fence characters, the same character as many times, after the markers of the block quotes and list
// items it is in. Lines and inline Markdown are otherwise kept. An empty value stays empty. Markers are broken
// afterwards, as in every value (Neutralize).
func EscapeMarkdown(s string, level int) string {
	out, _ := escapeMarkdown(s, level)
	return out
}

// escapeMarkdown is EscapeMarkdown, also reporting whether a container or a block other than a top-level
// paragraph is still open at the result's end, so that text right below it would be read as part of it.
func escapeMarkdown(s string, level int) (string, bool) {
	if level <= 0 {
		level = DefaultLevel
	}
	s = markdownChars(s)
	if s == "" {
		return "", false
	}
	// The value's first lines may stand right below the author's paragraph, which an underline would make a
	// heading: drop those that could be one, whatever the scan reads them as.
	lead := 0
	for lead < len(s) {
		end := strings.IndexByte(s[lead:], '\n')
		line := s[lead:]
		if end >= 0 {
			line = s[lead : lead+end]
		}
		if !setextLine(strings.TrimLeft(line, " ")) || len(line)-len(strings.TrimLeft(line, " ")) > 3 {
			break
		}
		if end < 0 {
			lead = len(s)
			break
		}
		lead += end + 1
	}
	s = escapeHTMLStarts(s[lead:])
	if s == "" {
		return "", false
	}
	sc := scanMarkdown(s)
	shallowest := 7
	for _, h := range sc.headings {
		shallowest = min(shallowest, h.level)
	}
	shift := 0
	if shallowest <= 6 {
		shift = min(level+1, 6) - shallowest
	}
	if shift == 0 && len(sc.skip) == 0 && !sc.fence {
		return s, sc.open
	}
	var b strings.Builder
	b.Grow(len(s) + len(sc.closeFence) + 16)
	heads, skips := sc.headings, sc.skip
	first := true
	for start, i := 0, 0; start <= len(s); i++ {
		end := strings.IndexByte(s[start:], '\n')
		next := len(s) + 1
		if end >= 0 {
			end += start
			next = end + 1
		} else {
			end = len(s)
		}
		if len(skips) > 0 && skips[0] == i {
			skips = skips[1:]
			start = next
			continue
		}
		if !first {
			b.WriteByte('\n')
		}
		first = false
		at := start // the start of the line's part not written yet
		if len(heads) > 0 && heads[0].at < end {
			h := heads[0]
			heads = heads[1:]
			b.WriteString(s[at:h.at])
			b.WriteString(strings.Repeat("#", min(max(h.level+shift, 1), 6)))
			at = h.at + h.level
		}
		b.WriteString(s[at:end])
		start = next
	}
	if sc.fence {
		if !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString(sc.closeFence)
	}
	return b.String(), sc.open
}

// escapeHTMLStarts puts a backslash after every < of s that could open an HTML block: one that starts a line, or
// follows only spaces, tabs and the characters block quote and list item markers are made of (>, -, +, *, digits
// followed by . or )), and that is followed by !, ?, / or an ASCII letter. CommonMark readers differ on which such
// lines open a block (goldmark takes "</ a>" for one, the spec does not); none reads one with the backslash as
// anything but text. The backslash goes after the <, where it breaks a marker or an author's tag as those rules
// break them ("<\!-- END -->", "<\/SECTION>"). It returns s itself when there is none.
func escapeHTMLStarts(s string) string {
	var at []int
	for start := 0; start < len(s); {
		i := start
	walk:
		for i < len(s) {
			switch c := s[i]; {
			case c == ' ' || c == '\t' || c == '>' || c == '-' || c == '+' || c == '*':
				i++
			case '0' <= c && c <= '9':
				j := i
				for j < len(s) && '0' <= s[j] && s[j] <= '9' {
					j++
				}
				if j == len(s) || s[j] != '.' && s[j] != ')' {
					break walk
				}
				i = j + 1
			default:
				break walk
			}
		}
		if i+1 < len(s) && s[i] == '<' && (isASCIILetter(s[i+1]) || s[i+1] == '!' || s[i+1] == '?' || s[i+1] == '/') {
			at = append(at, i+1)
		}
		nl := strings.IndexByte(s[i:], '\n')
		if nl < 0 {
			break
		}
		start = i + nl + 1
	}
	if len(at) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(at))
	last := 0
	for _, p := range at {
		b.WriteString(s[last:p])
		b.WriteByte('\\')
		last = p
	}
	b.WriteString(s[last:])
	return b.String()
}

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// markdownChars applies the character rules of EscapeMarkdown: CRLF and CR to LF, control characters but LF and tab
// removed, format characters removed, invalid bytes to U+FFFD. It returns s itself when nothing changes.
func markdownChars(s string) string {
	clean := true
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				clean = false
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || removedRune(r) {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\r':
				b.WriteByte('\n')
				if i+1 < len(s) && s[i+1] == '\n' {
					i++
				}
			case c < 0x20 && c != '\n' && c != '\t' || c == 0x7f:
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(replacementChar)
		case removedRune(r):
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
