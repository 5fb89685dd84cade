package source

import (
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SnippetWriter writes diagnostics for a person at a terminal, as hcl's text writer does: each one as
// Diagnostic.String prints it, then the source line its range starts on, numbered, and a row of carets under the
// range (to the end of that line when the range runs past it; one caret for an empty range or an unknown end). A diagnostic with no
// range, no line or no source at hand is its line alone, so the output is never less than Diagnostics.String's.
type SnippetWriter struct {
	// Source returns the text of the file a range names, as the loader read it (see Normalize: the positions count
	// in that text), or ok = false when it is not at hand.
	Source func(name string) (text string, ok bool)
	// Color paints the carets and line numbers (ANSI).
	Color bool
}

// snippetWidth bounds the part of a long source line that is shown: a window around the range's start.
const snippetWidth = 120

// Write writes ds to w.
func (sw SnippetWriter) Write(w io.Writer, ds Diagnostics) error {
	var b strings.Builder
	files := map[string]*File{}
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteByte('\n')
		r := d.Range()
		if r.Filename == "" || r.Start.Line < 1 || sw.Source == nil {
			continue
		}
		f, seen := files[r.Filename]
		if !seen {
			if text, ok := sw.Source(r.Filename); ok {
				f = NewFile(r.Filename, text)
			}
			files[r.Filename] = f
		}
		if f != nil {
			sw.snippet(&b, f, r)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// snippet writes the numbered line of r's start and the carets under r.
func (sw SnippetWriter) snippet(b *strings.Builder, f *File, r Range) {
	start := f.Offset(r.Start.Line, 1)
	if start < 0 {
		return
	}
	end := strings.IndexByte(f.Text[start:], '\n')
	if end < 0 {
		end = len(f.Text) - start
	}
	line := []rune(f.Text[start : start+end])
	from := max(0, min(r.Start.Column-1, len(line)))
	to := from // no end known: one caret
	switch {
	case r.End.Line == r.Start.Line:
		to = min(r.End.Column-1, len(line))
	case r.End.Line > r.Start.Line:
		to = len(line)
	}
	if to <= from {
		to = from + 1 // an empty range, or one at the end of its line: one caret
	}
	// A line too long to show whole shows a window starting a little before the range.
	lo := 0
	if len(line) > snippetWidth && from > snippetWidth/3 {
		lo = from - snippetWidth/3
	}
	hi := min(len(line), lo+snippetWidth)
	to = min(to, max(hi, from+1))
	num := strconv.Itoa(r.Start.Line)
	paint := func(s string) string {
		if !sw.Color {
			return s
		}
		return "\x1b[36m" + s + "\x1b[0m"
	}
	var text, under strings.Builder
	if lo > 0 {
		text.WriteString("…")
		under.WriteByte(' ')
	}
	for i := lo; i < hi; i++ {
		c := shown(line[i])
		text.WriteRune(c)
		if i < from {
			if c == '\t' {
				under.WriteByte('\t')
			} else {
				under.WriteByte(' ')
			}
		}
	}
	if hi < len(line) {
		text.WriteString("…")
	}
	b.WriteString("  " + paint(num+" |") + " " + text.String() + "\n")
	b.WriteString("  " + paint(strings.Repeat(" ", len(num))+" |") + " " + under.String() + paint(strings.Repeat("^", to-from)) + "\n")
}

// shown is how a rune of a source line is printed: tabs as they are (so carets line up under them), and anything a
// terminal would act on or not show (control and format characters, invalid bytes) as U+FFFD.
func shown(c rune) rune {
	if c == '\t' {
		return c
	}
	if c == utf8.RuneError || unicode.IsControl(c) || unicode.Is(unicode.Cf, c) {
		return '\uFFFD'
	}
	return c
}
