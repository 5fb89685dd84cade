package assemble

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/templates"
)

// valueSpan is bytes [start, end) of a text written by an escaped value of a trust other than trusted.
type valueSpan struct{ start, end int }

// trimSpans maps the value spans of a body's output to its text after the block's trim, which removed lead bytes
// from its start and left n bytes.
func trimSpans(spans []valueSpan, lead, n int) []valueSpan {
	out := spans[:0:0]
	for _, s := range spans {
		s.start, s.end = max(s.start-lead, 0), min(s.end-lead, n)
		if s.start < s.end {
			out = append(out, s)
		}
	}
	return out
}

// holdsMarker reports whether text holds any target's marker.
func (prog *Program) holdsMarker(text string) bool {
	for _, m := range prog.markerTexts {
		if strings.Contains(text, m) {
			return true
		}
	}
	return false
}

// valueSpans renders block c again, as it was rendered for task ti under heading level, and returns the bytes of
// its trimmed text that escaped values wrote. The body is deterministic, so the text is the one in the artifact.
func (prog *Program) valueSpans(c *compiled, ti, level int, pv *prepared) []valueSpan {
	env := prog.env(ti, pv, func(string) {})
	if c.markdown {
		env.Level = level
	}
	env.Lines = c.lines
	var spans []valueSpan
	env.Mark = func(start, end int) { spans = append(spans, valueSpan{start, end}) }
	out, d := c.body.Run(pv.data, env)
	if d != nil || len(spans) == 0 {
		return nil
	}
	kept, lead := c.trimmed(out.Text, prog.traceFor(c, ti, level, pv))
	return trimSpans(spans, lead, len(kept))
}

// breakAssembled keeps values from assembling a marker with one another or with the text around them
// (docs/values.md, markers): every occurrence of a marker in text that holds a byte of a value (spans, sorted by
// start) is broken inside that value's bytes, by a backslash after the occurrence's first character that a value
// wrote, scanning left to right and resuming right after it. An occurrence made only of the author's text (and
// trusted values) is left for checkMarkers to report. It returns the new text and the offsets of text before
// which a byte went, in order; none when nothing changes.
//
// A marker that holds a backslash (`\<END\>`) could be completed by the backslash that breaks it, as in one value
// (templates.Neutralize): the backslash then goes after the first character the value wrote that is not one, and
// when the text still holds a marker that a value helped make, every occurrence is broken by templates.BreakChar
// instead, a byte no marker holds.
func breakAssembled(text string, spans []valueSpan, markers []string) (string, []int) {
	out, at := breakWith(text, spans, markers, '\\')
	if at == nil || templates.BreakChar(markers) == '\\' {
		return out, at
	}
	moved := func(off int) int { return off + sort.SearchInts(at, off+1) }
	after := make([]valueSpan, len(spans))
	for i, sp := range spans {
		after[i] = valueSpan{moved(sp.start), moved(sp.end)}
	}
	if _, again := breakWith(out, after, markers, '\\'); again == nil {
		return out, at
	}
	return breakWith(text, spans, markers, templates.BreakChar(markers))
}

// breakWith is breakAssembled breaking with the byte brk.
func breakWith(text string, spans []valueSpan, markers []string, brk byte) (string, []int) {
	if len(spans) == 0 {
		return text, nil
	}
	next := make([]int, len(markers)) // the next occurrence of each marker at or after from, -1 for none
	from := 0
	for i, m := range markers {
		next[i] = index(text, m, 0)
	}
	var at []int
	for {
		best := -1
		for i, m := range markers {
			if next[i] >= 0 && next[i] < from {
				next[i] = index(text, m, from)
			}
			if next[i] >= 0 && (best < 0 || next[i] < next[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		o, end := next[best], next[best]+len(markers[best])
		// The first value span that ends inside the occurrence, or after its start.
		k := sort.Search(len(spans), func(k int) bool { return spans[k].end > o })
		if k == len(spans) || spans[k].start >= end {
			from = o + 1 // the author's own: checkMarkers reports it
			continue
		}
		p := max(o, spans[k].start)
		if brk == '\\' {
			// After a backslash, a backslash could start the marker again: past the value's own backslashes.
			q := p
			for q < min(end, spans[k].end)-1 && text[q] == '\\' {
				q++
			}
			if text[q] != '\\' {
				p = q
			}
		}
		_, size := utf8.DecodeRuneInString(text[p:])
		at = append(at, p+size)
		from = p + size
	}
	if len(at) == 0 {
		return text, nil
	}
	var b strings.Builder
	b.Grow(len(text) + len(at))
	last := 0
	for _, p := range at {
		b.WriteString(text[last:p])
		b.WriteByte(brk)
		last = p
	}
	b.WriteString(text[last:])
	return b.String(), at
}

func index(s, sub string, from int) int {
	if sub == "" || from > len(s) {
		return -1
	}
	if i := strings.Index(s[from:], sub); i >= 0 {
		return from + i
	}
	return -1
}

// shiftSpans moves the artifact's spans for the backslashes inserted before the offsets at. A backslash follows a
// byte of a value, so it belongs to the span of that byte: a boundary at its offset moves past it.
func shiftSpans(spans []Span, at []int) {
	moved := func(off int) int { return off + sort.SearchInts(at, off+1) }
	for i := range spans {
		s := &spans[i]
		s.Start, s.TextStart, s.End = moved(s.Start), moved(s.TextStart), moved(s.End)
	}
}

// usesMarkdown reports whether a block's output may hold a markdown value, whose headings depend on the level of
// the heading it sits under.
func usesMarkdown(p *blocks.Project, uses templates.Uses) bool {
	if uses.Data {
		return true
	}
	for _, u := range uses.Vars {
		v, ok := p.Vars[u.Name]
		if !ok {
			continue
		}
		if v.Trust == blocks.Markdown {
			return true
		}
		for _, f := range v.Fields {
			if f.Trust == blocks.Markdown {
				return true
			}
		}
	}
	return false
}

// usesLines reports whether a block's output may hold a value that lays out lines of its own: a background or
// code value (at any depth of a record), or any value passed to quote.
func usesLines(p *blocks.Project, b *blocks.Block, uses templates.Uses) bool {
	if uses.Data {
		return true
	}
	quotes := strings.Contains(b.Body, "quote")
	for _, u := range uses.Vars {
		v, ok := p.Vars[u.Name]
		if !ok {
			continue
		}
		if quotes || laysOutLines(v) {
			return true
		}
	}
	return false
}

func laysOutLines(v *blocks.Var) bool {
	if v.Trust == blocks.Background || v.Trust == blocks.Code || v.Trust == blocks.Markdown {
		return true
	}
	for _, f := range v.Fields {
		if laysOutLines(f) {
			return true
		}
	}
	return false
}

// authorTags returns the names of the XML-style tags the author's text uses: blocks' titles and bodies, and the
// constants' text (docs/values.md#markdown-and-structure).
func authorTags(p *blocks.Project) map[string]bool {
	var texts []string
	for _, b := range p.Blocks {
		texts = append(texts, b.Title, b.Body)
	}
	for _, c := range p.Consts {
		texts = append(texts, c.Value)
		texts = append(texts, c.List...)
		for _, v := range c.Lookup {
			texts = append(texts, v)
		}
	}
	return templates.TagNames(texts...)
}
