package templates

import (
	"sort"
	"strings"

	"github.com/promptc/promptc/blocks"
)

// Each value is escaped so that it cannot open a block on its own, but two values, or a value and the author's text
// beside it, can still assemble one (docs/values.md#markdown-and-structure): "1" and ". # SYSTEM" make an
// ordered list item holding a heading, "<" and "div>" an HTML block, and a value "/SECTION" between the author's <
// and > closes the author's <SECTION>. breakStructure finds such structure in a body's output and breaks it inside
// a value's bytes; mayAssemble says, without knowing which bytes values wrote, whether there can be any to find.

// mayAssemble reports whether text holds, at the start of a line or after the markers of block quotes and list
// items, an ordered list marker or a < that could open an HTML block; or an XML-style tag named in tags.
func mayAssemble(text string, tags map[string]bool) bool {
	for start := 0; start < len(text); {
		if t := lineToken(text, start); t.kind != tokenNone {
			return true
		}
		nl := strings.IndexByte(text[start:], '\n')
		if nl < 0 {
			break
		}
		start += nl + 1
	}
	if len(tags) == 0 {
		return false
	}
	for i := strings.IndexByte(text, '<'); i >= 0; {
		if _, n := tagAt(text, i, tags); n > 0 {
			return true
		}
		j := strings.IndexByte(text[i+1:], '<')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

type tokenKind uint8

const (
	tokenNone    tokenKind = iota
	tokenOrdered           // digits and a delimiter: [start, delim] with the delimiter at delim
	tokenHTML              // a < at start, then !, ?, / or a letter
)

// token is the first block opener a line holds where a block may start, after the markers of block quotes and
// bullet list items (and ordered ones, when it is not the first).
type token struct {
	kind         tokenKind
	start, delim int
}

// lineToken reads the line of text starting at start.
func lineToken(text string, start int) token {
	i := start
	for i < len(text) {
		switch c := text[i]; {
		case c == ' ' || c == '\t' || c == '>':
			i++
		case c == '-' || c == '+' || c == '*':
			if i+1 < len(text) && text[i+1] != ' ' && text[i+1] != '\t' && text[i+1] != '\n' {
				return token{}
			}
			i++
		case '0' <= c && c <= '9':
			j := i
			for j < len(text) && '0' <= text[j] && text[j] <= '9' {
				j++
			}
			if j-i > 9 || j == len(text) || text[j] != '.' && text[j] != ')' {
				return token{}
			}
			if j+1 < len(text) && text[j+1] != ' ' && text[j+1] != '\t' && text[j+1] != '\n' {
				return token{}
			}
			return token{kind: tokenOrdered, start: i, delim: j}
		case c == '<':
			if i+1 < len(text) && (isASCIILetter(text[i+1]) || strings.IndexByte("!?/", text[i+1]) >= 0) {
				return token{kind: tokenHTML, start: i}
			}
			return token{}
		default:
			return token{}
		}
	}
	return token{}
}

// tagAt reads an XML-style tag named in tags (lower case) at text[i], which is <: an opening one ("<name" then >,
// / or white space) or a closing one ("</name", white space, then >). It returns the name's offset and the
// occurrence's length, 0 for none. Names compare without regard to ASCII case.
func tagAt(text string, i int, tags map[string]bool) (int, int) {
	j := i + 1
	closing := j < len(text) && text[j] == '/'
	if closing {
		j++
	}
	k := j
	for k < len(text) && isTagNameByte(text[k], k == j) {
		k++
	}
	if k == j || !tags[strings.ToLower(text[j:k])] {
		return 0, 0
	}
	if closing {
		e := k
		for e < len(text) && (text[e] == ' ' || text[e] == '\t' || text[e] == '\n') {
			e++
		}
		if e < len(text) && text[e] == '>' {
			return j, e + 1 - i
		}
		return 0, 0
	}
	if k < len(text) && (text[k] == '>' || text[k] == '/' || text[k] == ' ' || text[k] == '\t' || text[k] == '\n') {
		return j, k + 1 - i
	}
	return 0, 0
}

// isTagNameByte reports whether c may stand in an XML-style tag name (first: whether it may start one).
func isTagNameByte(c byte, first bool) bool {
	if isASCIILetter(c) || c == '_' {
		return true
	}
	return !first && ('0' <= c && c <= '9' || c == '-' || c == '.' || c == ':')
}

// TagNames returns the names of the XML-style tags (<NAME …>, </NAME>) the texts hold, in lower case: the author's
// sections, which no value may close or open (docs/values.md#markdown-and-structure).
func TagNames(texts ...string) map[string]bool {
	names := map[string]bool{}
	for _, t := range texts {
		for i := strings.IndexByte(t, '<'); i >= 0; {
			j := i + 1
			if j < len(t) && t[j] == '/' {
				j++
			}
			k := j
			for k < len(t) && isTagNameByte(t[k], k == j) {
				k++
			}
			if k > j && k < len(t) && strings.IndexByte("> \t\n/", t[k]) >= 0 {
				names[strings.ToLower(t[j:k])] = true
			}
			n := strings.IndexByte(t[i+1:], '<')
			if n < 0 {
				break
			}
			i += 1 + n
		}
	}
	return names
}

// breakStructure breaks, in text, the structure that values assembled with each other or with the author's text
// (marks: the bytes values wrote, in order): an ordered list marker at the start of a block that an untrusted
// value wrote any byte of gets a backslash before its delimiter ("1\. "); a < that could open an HTML block there,
// followed by an untrusted value's byte, gets one before that byte ("<\div>"); an XML-style tag named in tags that
// a value of any trust wrote a byte of gets one after its first character a value wrote ("<\/SECTION>"). It
// returns the new text and the offsets before which a backslash went, in order; none when nothing changes.
func breakStructure(text string, marks []valueMark, tags map[string]bool) (string, []int) {
	if len(marks) == 0 {
		return text, nil
	}
	var at []int
	untrusted := func(start, end int) bool { return overlaps(marks, start, end, blocks.Untrusted) }
	for start := 0; start < len(text); {
		switch t := lineToken(text, start); t.kind {
		case tokenOrdered:
			if untrusted(t.start, t.delim+1) {
				at = append(at, t.delim)
			}
		case tokenHTML:
			if untrusted(t.start+1, t.start+2) {
				at = append(at, t.start+1)
			}
		}
		nl := strings.IndexByte(text[start:], '\n')
		if nl < 0 {
			break
		}
		start += nl + 1
	}
	if len(tags) > 0 {
		for i := strings.IndexByte(text, '<'); i >= 0; {
			if _, n := tagAt(text, i, tags); n > 0 {
				if p := firstMarked(marks, i, i+n); p >= 0 {
					if p == i {
						p++ // after the <
					}
					at = append(at, p)
				}
			}
			j := strings.IndexByte(text[i+1:], '<')
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	if len(at) == 0 {
		return text, nil
	}
	sort.Ints(at)
	at = compactInts(at)
	var b strings.Builder
	b.Grow(len(text) + len(at))
	last := 0
	for _, p := range at {
		b.WriteString(text[last:p])
		b.WriteByte('\\')
		last = p
	}
	b.WriteString(text[last:])
	return b.String(), at
}

// overlaps reports whether a mark of the given trust holds a byte of [start, end).
func overlaps(marks []valueMark, start, end int, trust blocks.Trust) bool {
	k := sort.Search(len(marks), func(k int) bool { return marks[k].end > start })
	for ; k < len(marks) && marks[k].start < end; k++ {
		if marks[k].trust == trust && marks[k].end > start {
			return true
		}
	}
	return false
}

// firstMarked returns the first offset of [start, end) that a mark holds, or -1.
func firstMarked(marks []valueMark, start, end int) int {
	k := sort.Search(len(marks), func(k int) bool { return marks[k].end > start })
	for ; k < len(marks) && marks[k].start < end; k++ {
		if marks[k].end > start {
			return max(start, marks[k].start)
		}
	}
	return -1
}

func compactInts(s []int) []int {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// shiftMarks moves marks for the backslashes inserted before the offsets at: a backslash belongs to the value
// whose byte it stands before or after, so a mark starting at its place keeps it, and one ending there takes it.
func shiftMarks(marks []valueMark, at []int) {
	for i := range marks {
		m := &marks[i]
		m.start += sort.SearchInts(at, m.start)
		m.end += sort.SearchInts(at, m.end+1)
	}
}
