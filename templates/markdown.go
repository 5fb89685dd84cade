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
// outside fenced code blocks:
//
//   - the ATX headings are shifted by one amount so that the shallowest of them is at level+1, none deeper than 6
//     (level is the heading level of the enclosing block; 0 stands for DefaultLevel);
//   - a setext underline (a line of only = or only -, under a line of text, or the value's first line, which may
//     follow the author's text) is removed, so that it cannot turn the line above into a heading;
//
// and a fence the value opens and does not close is closed at its end: "\n" (unless the value ends with one) and
// the opener's fence characters, the same character as many times. Lines and inline Markdown are otherwise kept.
// An empty value stays empty. Markers are broken afterwards, as in every value (Neutralize).
func EscapeMarkdown(s string, level int) string {
	if level <= 0 {
		level = DefaultLevel
	}
	s = markdownChars(s)
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	// First pass: which lines are in fences, which are headings, and the shallowest heading.
	const (
		plain = iota
		heading
		fenced // a fence line or a line inside a fence
		underline
	)
	kinds := make([]uint8, len(lines))
	var fenceChar byte
	fenceLen := 0 // 0: no fence open
	shallowest := 7
	// Whether the last kept line is text a setext underline would make a heading. At the start it is the text the
	// value is printed after, which may be the author's paragraph.
	prevText := true
	for i, line := range lines {
		if fenceLen > 0 {
			kinds[i] = fenced
			if c, n, rest := fenceRun(line); c == fenceChar && n >= fenceLen && strings.TrimRight(rest, " \t") == "" {
				fenceLen = 0
			}
			prevText = false
			continue
		}
		if c, n, rest := fenceRun(line); n > 0 && (c == '~' || !strings.Contains(rest, "`")) {
			kinds[i], fenceChar, fenceLen, prevText = fenced, c, n, false
			continue
		}
		if n := atxLevel(line); n > 0 {
			kinds[i], prevText = heading, false
			shallowest = min(shallowest, n)
			continue
		}
		if prevText && setextUnderline(line) {
			kinds[i] = underline // the line above stays the last kept one
			continue
		}
		prevText = strings.TrimSpace(line) != ""
	}
	shift := 0
	if shallowest <= 6 {
		shift = min(level+1, 6) - shallowest
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	first := true
	for i, line := range lines {
		if kinds[i] == underline {
			continue
		}
		if !first {
			b.WriteByte('\n')
		}
		first = false
		if kinds[i] == heading && shift != 0 {
			indent := len(line) - len(strings.TrimLeft(line, " "))
			n := atxLevel(line)
			b.WriteString(line[:indent])
			b.WriteString(strings.Repeat("#", min(max(n+shift, 1), 6)))
			b.WriteString(line[indent+n:])
			continue
		}
		b.WriteString(line)
	}
	if fenceLen > 0 {
		if !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString(strings.Repeat(string(fenceChar), fenceLen))
	}
	return b.String()
}

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

// fenceRun reads a CommonMark fence at the start of line: up to 3 spaces, then a run of at least 3 backticks or
// tildes. It returns the fence character, the run's length (0 when the line opens no fence) and what follows it.
func fenceRun(line string) (byte, int, string) {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i >= len(line) || line[i] != '`' && line[i] != '~' {
		return 0, 0, ""
	}
	c, j := line[i], i
	for j < len(line) && line[j] == c {
		j++
	}
	if j-i < 3 {
		return 0, 0, ""
	}
	return c, j - i, line[j:]
}

// atxLevel returns the level of the ATX heading on line, or 0: up to 3 spaces, 1 to 6 #, then a space, a tab or
// the end of the line.
func atxLevel(line string) int {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	j := i
	for j < len(line) && line[j] == '#' {
		j++
	}
	n := j - i
	if n == 0 || n > 6 || (j < len(line) && line[j] != ' ' && line[j] != '\t') {
		return 0
	}
	return n
}

// setextUnderline reports whether line is a setext heading underline: up to 3 spaces, a run of = or of -, then
// only spaces and tabs.
func setextUnderline(line string) bool {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i >= len(line) || line[i] != '=' && line[i] != '-' {
		return false
	}
	c := line[i]
	for i < len(line) && line[i] == c {
		i++
	}
	return strings.TrimRight(line[i:], " \t") == ""
}
