package templates

import "strings"

// Where a value stands changes what its bytes mean to a CommonMark reader (docs/values.md, "Markdown and
// structure"): a code value's fence works only on lines of its own; a markdown value's lists and quotes, and a
// background value's quoted lines, go on into the author's text right below them; a value's lines after the first
// leave the list item the author indented it into. The printer therefore places a value that lays out lines
// (place), and the output builder keeps the text after it from continuing what it opened (limitedBuilder.need).

// Break is what must separate a value's lines from the text beside them.
type Break uint8

const (
	// BreakNone asks for nothing.
	BreakNone Break = iota
	// BreakLine asks for a line of its own: a line feed between the value and any visible text beside it.
	BreakLine
	// BreakBlank asks for a blank line between the value and any visible text beside it, so that nothing the
	// value opened (a list, a quote, a paragraph) can take that text in.
	BreakBlank
)

// place returns s, a value's escaped text, as it must be written where the output stands now, and a function
// mapping an offset in s to one in the result. above is what must separate the value from the text before it;
// below is what must separate it from the text after it, which the output builder enforces on the next visible
// byte written (limitedBuilder.settle). A value standing after visible text on its line, where it needs a line of
// its own, starts a new one; a value indented by white space, where it lays out lines, has each of its later lines
// indented the same, so that it stays in the list item the indentation put it in. Without an output to look at (a
// value printed outside a body) s is returned as it is.
func (p *printer) place(s string, above, below Break) (string, func(int) int) {
	w := p.out
	if w == nil || s == "" {
		return s, func(i int) int { return i }
	}
	var ins []insertion // in s's offsets, in order
	// What the builder still asks of the text after an earlier value is met first: the value then starts a line.
	if at, text := w.settle(s); text != "" {
		ins = append(ins, insertion{at, text})
	} else if above != BreakNone || below != BreakNone {
		text := w.String()
		line := text[w.lineStart:] // what stands before the value on its line
		switch {
		case above == BreakNone:
		case !blank(line):
			prefix := "\n"
			if above == BreakBlank {
				prefix = "\n\n"
			}
			ins = append(ins, insertion{0, prefix})
			line = ""
		case w.lineStart == 0:
			// Nothing visible before it in this block: what stands above it is the artifact's, which assembly
			// keeps apart (Output.Lead).
			w.lead = max(w.lead, above)
		case above == BreakBlank:
			prev := text[:w.lineStart-1]
			if !blank(prev[strings.LastIndexByte(prev, '\n')+1:]) {
				ins = append(ins, insertion{0, "\n" + line})
			}
		}
		if line != "" && blank(line) && (above != BreakNone || below != BreakNone) {
			for i := strings.IndexByte(s, '\n'); i >= 0; {
				ins = append(ins, insertion{i + 1, line})
				j := strings.IndexByte(s[i+1:], '\n')
				if j < 0 {
					break
				}
				i += 1 + j
			}
		}
	}
	w.pending = below
	w.placed = w.placed || above != BreakNone || below != BreakNone || len(ins) > 0
	if len(ins) == 0 {
		return s, func(i int) int { return i }
	}
	var b strings.Builder
	n := len(s)
	for _, in := range ins {
		n += len(in.text)
	}
	b.Grow(n)
	last := 0
	for _, in := range ins {
		b.WriteString(s[last:in.at])
		b.WriteString(in.text)
		last = in.at
	}
	b.WriteString(s[last:])
	return b.String(), func(i int) int {
		// An offset moves past every insertion before it; one at an insertion's place stays before it when it
		// ends a span (the inserted bytes follow the value's byte), and goes past it when it starts one.
		out := i
		for _, in := range ins {
			if in.at < i || in.at == i && i > 0 && i < len(s) {
				out += len(in.text)
			}
		}
		return out
	}
}

// insertion is text inserted before offset at of another text.
type insertion struct {
	at   int
	text string
}

// settle meets, within s (about to be written), what the builder asks of the text after the last value (need): it
// returns the line feeds that must go before the line holding s's first visible byte (before the spaces and tabs
// it starts with, its indentation), and where, or "" when s's own white space meets it (or s holds no visible
// byte, and it is asked of the next). It clears what it met.
func (w *limitedBuilder) settle(s string) (int, string) {
	if w.need == BreakNone {
		return 0, ""
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
		case c == '\n':
			if w.need == BreakLine || w.sawLF {
				w.need, w.sawLF = BreakNone, false
				return 0, ""
			}
			w.sawLF = true
		default:
			text := "\n"
			if w.need == BreakBlank && !w.sawLF {
				text = "\n\n"
			}
			w.need, w.sawLF = BreakNone, false
			// Before the white space the byte's line starts with, which is that line's indentation.
			return strings.LastIndexByte(s[:i], '\n') + 1, text
		}
	}
	return 0, ""
}
