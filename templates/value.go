package templates

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/promptc/promptc/blocks"
)

// Untrusted, Background and Markdown are the string values of variables (and list items, and record fields) of those
// trust levels as a body sees them: the text after CRLF→LF, trim, pattern and limits, before escaping. Functions and
// comparisons work on that text ({{if hasPrefix "#" .x}} tests what the user typed); the value is escaped by its
// trust only where an action prints it, and so is every result a function computes from it, since the function
// returns a value of the same type (docs/values.md, "No function can undo escaping"). Being strings, they behave as
// strings in if, with, eq, len and slice.
type (
	Untrusted  string
	Background string
	Markdown   string
)

// Fenced is a code value as a body sees it: already fenced and neutralised, since a code value can only be printed
// whole or tested (docs/values.md, trust levels), and its fence needs the variable's lang.
type Fenced string

// Mixed is a result that holds author text and values side by side, each value escaped by its own trust as when
// printed alone: what join, bullets, quote, json and printf give. Text is what it prints; raw is the same result
// computed from the values before escaping, which a further function works on (its result then escaped as one
// value of the strictest trust among them); marks are the bytes of Text that came from escaped values. A Mixed is
// never empty: an empty result is "".
type Mixed struct {
	text  string
	raw   string
	trust blocks.Trust
	marks []span
	// json, when set, is the value json encoded: raw is its encoding before escaping, made only if a function asks.
	json any
	// block is set when text lays out lines a value's container holds (a quoted value, a background value): text
	// right below it would continue them, so it is kept a blank line away
	// (docs/values.md#markdown-and-structure).
	block bool
	// markdown is set when a markdown value is among those text holds.
	markdown bool
}

// String returns what the result prints.
func (m Mixed) String() string { return m.text }

// span is the bytes [start, end) of a text that a value of the given trust wrote.
type span struct {
	start, end int
	trust      blocks.Trust
}

// strictness orders the trust levels whose values a function may combine: a result computed from several values is
// escaped by the strictest of theirs. Code values never reach a function (the code rule refuses it).
func strictness(t blocks.Trust) int {
	switch t {
	case blocks.Trusted:
		return 0
	case blocks.Markdown:
		return 1
	case blocks.Background:
		return 2
	}
	return 3
}

func stricter(a, b blocks.Trust) blocks.Trust {
	if strictness(b) > strictness(a) {
		return b
	}
	return a
}

// textOf returns the text of a string-like value before escaping, and the trust that escapes it (Trusted for the
// author's own text); ok is false for a value that is not text.
func textOf(v any) (raw string, trust blocks.Trust, ok bool) {
	switch x := v.(type) {
	case string:
		return x, blocks.Trusted, true
	case Untrusted:
		return string(x), blocks.Untrusted, true
	case Background:
		return string(x), blocks.Background, true
	case Markdown:
		return string(x), blocks.Markdown, true
	case Fenced:
		return string(x), blocks.Code, true
	case Mixed:
		if x.json != nil {
			raw, err := JSON(Raw(x.json))
			if err != nil {
				raw = x.text
			}
			return raw, x.trust, true
		}
		return x.raw, x.trust, true
	}
	return "", 0, false
}

// tagged returns s as a value of trust: a result computed from a value keeps that value's trust.
func tagged(s string, trust blocks.Trust) any {
	switch trust {
	case blocks.Trusted:
		return s
	case blocks.Background:
		return Background(s)
	case blocks.Markdown:
		return Markdown(s)
	}
	// Untrusted, and Code, whose text a function should never see: escaped as strictly as there is.
	return Untrusted(s)
}

// Raw returns a value as a body's functions see it, with every string of it as it was before escaping: a string,
// []string, []map[string]any or the value itself. Tools that show a prepared value to people use it.
func Raw(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]string, 0, len(x))
		for _, it := range x {
			s, _, ok := textOf(it)
			if !ok {
				return v
			}
			out = append(out, s)
		}
		return out
	case []map[string]any:
		out := make([]map[string]any, len(x))
		for i, r := range x {
			out[i] = Raw(r).(map[string]any)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = Raw(e)
		}
		return out
	}
	if s, _, ok := textOf(v); ok {
		return s
	}
	return v
}

// printer escapes values where a body prints them: for one execution, with the targets' markers and the heading
// level the block's output sits under (for markdown values), noting the output bytes that came from values.
type printer struct {
	markers []string
	level   int             // the enclosing heading level (Env.Level), 0 for the default
	out     *limitedBuilder // the output written so far: where a value stands, and the offsets marks report
	// marks, when set, collects the output bytes escaped values wrote, with their trust
	// (docs/values.md#markdown-and-structure); nil when nobody asks.
	marks *[]valueMark
}

// valueMark is bytes [start, end) of a body's output that an escaped value of the given trust wrote.
type valueMark struct {
	start, end int
	trust      blocks.Trust
}

// escape escapes s by trust as a value printed alone is escaped (docs/reference.md#trust-levels), then breaks the markers it holds (docs/reference.md#target).
func (p *printer) escape(s string, trust blocks.Trust) string {
	switch trust {
	case blocks.Trusted:
		return s
	case blocks.Code:
		return s // fenced and neutralised by Prepare
	case blocks.Markdown:
		s = EscapeMarkdown(s, p.level)
	default:
		s = Escape(trust, s)
	}
	return Neutralize(s, p.markers)
}

// note reports bytes [start, end) of text, about to be written, as bytes of a value of trust.
func (p *printer) note(start, end int, trust blocks.Trust) {
	if p.marks != nil && end > start && p.out != nil {
		base := p.out.Len()
		*p.marks = append(*p.marks, valueMark{base + start, base + end, trust})
	}
}

// printAny is the last command of every printing action (Parse appends it): it turns the action's value into the
// bytes the body writes, each value escaped by its trust and, for a value that lays out lines of its own, placed
// where it can stand (place).
func (p *printer) printAny(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case Mixed:
		if x.markdown {
			// A markdown value's lines mean what the text beside them makes them mean: the result is escaped as
			// one value of the strictest trust among its values, over its text before escaping.
			raw, trust, _ := textOf(x)
			if p.out != nil {
				p.out.placed = true // its bytes depend on all of it at once, which a splice would not see
			}
			return p.printAny(tagged(raw, trust))
		}
		below := BreakNone
		if x.block {
			below = BreakBlank
		}
		s, at := p.place(x.text, BreakNone, below)
		for _, m := range x.marks {
			p.note(at(m.start), at(m.end), m.trust)
		}
		return s
	case Fenced:
		s, at := p.place(string(x), BreakLine, BreakLine)
		p.note(at(0), at(len(x)), blocks.Code)
		return s
	case Markdown:
		text, open := escapeMarkdown(string(x), p.level)
		text = Neutralize(text, p.markers)
		below := BreakLine
		if open {
			below = BreakBlank
		}
		s, at := p.place(text, BreakBlank, below)
		p.note(at(0), at(len(text)), blocks.Markdown)
		return s
	case Background:
		text := p.escape(string(x), blocks.Background)
		s, at := p.place(text, BreakNone, BreakBlank)
		p.note(at(0), at(len(text)), blocks.Background)
		return s
	case int:
		return strconv.Itoa(x)
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "<no value>" // as text/template prints a nil interface
	}
	if raw, trust, ok := textOf(v); ok {
		s := p.escape(raw, trust)
		s, at := p.place(s, BreakNone, BreakNone)
		p.note(at(0), at(len(s)), trust)
		return s
	}
	w, trust := p.wrap(v)
	s := fmt.Sprint(w)
	if trust != blocks.Trusted {
		s, at := p.place(s, BreakNone, BreakNone)
		p.note(at(0), at(len(s)), trust)
		return s
	}
	return s
}

// wrap returns v with each value inside it wrapped so that fmt prints it escaped, and the strictest trust among
// them (Trusted for none).
func (p *printer) wrap(v any) (any, blocks.Trust) {
	switch v.(type) {
	case string, int, bool, nil:
		return v, blocks.Trusted
	}
	if out, trust, ok := eachValue(v, p.wrap); ok {
		return out, trust
	}
	if raw, trust, ok := textOf(v); ok {
		if m, isMixed := v.(Mixed); isMixed {
			return escapedArg{p: p, text: m.text, done: true}, trust
		}
		if trust == blocks.Code {
			return escapedArg{p: p, text: raw, done: true}, trust
		}
		return escapedArg{p: p, text: raw, trust: trust}, trust
	}
	return v, blocks.Trusted
}

// eachValue rebuilds v, when it is a collection ([]any, map[string]any, []map[string]any), with each element
// replaced by what fn makes of it, and returns the strictest trust fn reported (Trusted for none). ok is false for
// any other v. fn must make a map[string]any of a map[string]any.
func eachValue(v any, fn func(any) (any, blocks.Trust)) (out any, trust blocks.Trust, ok bool) {
	trust = blocks.Trusted
	switch x := v.(type) {
	case []any:
		items := make([]any, len(x))
		for i, e := range x {
			var t blocks.Trust
			items[i], t = fn(e)
			trust = stricter(trust, t)
		}
		return items, trust, true
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			var t blocks.Trust
			m[k], t = fn(e)
			trust = stricter(trust, t)
		}
		return m, trust, true
	case []map[string]any:
		rows := make([]map[string]any, len(x))
		for i, e := range x {
			w, t := fn(e)
			rows[i], trust = w.(map[string]any), stricter(trust, t)
		}
		return rows, trust, true
	}
	return nil, blocks.Trusted, false
}

// escaped returns a copy of v with every value in it replaced by its escaped text (what json encodes), and the
// strictest trust among them.
func (p *printer) escaped(v any) (any, blocks.Trust) {
	switch x := v.(type) {
	case string, int, bool, nil:
		return v, blocks.Trusted
	case []any:
		if strs, ok := p.escapedTexts(x); ok {
			return strs.items, strs.trust
		}
	case Mixed:
		return x.text, x.trust
	}
	if out, trust, ok := eachValue(v, p.escaped); ok {
		return out, trust
	}
	if raw, trust, ok := textOf(v); ok {
		return p.escape(raw, trust), trust
	}
	return v, blocks.Trusted
}

// escapedList is a list of texts, escaped.
type escapedList struct {
	items []string
	trust blocks.Trust
}

// escapedTexts escapes a list holding only texts, as a []string (which json encodes without a round trip).
func (p *printer) escapedTexts(x []any) (escapedList, bool) {
	out := escapedList{items: make([]string, len(x)), trust: blocks.Trusted}
	for i, e := range x {
		if _, isMixed := e.(Mixed); isMixed {
			return escapedList{}, false
		}
		raw, t, ok := textOf(e)
		if !ok {
			return escapedList{}, false
		}
		out.items[i] = p.escape(raw, t)
		out.trust = stricter(out.trust, t)
	}
	return out, true
}

// escapedArg is a value handed to fmt (by print, printf, println and when a list or record is printed whole): it
// formats the value before escaping with the verb, width and flags asked for, then escapes the formatted text by
// the value's trust, so that no verb (%.3s, %q, …) can cut or undo an escape.
type escapedArg struct {
	p     *printer
	text  string
	trust blocks.Trust
	done  bool // text is escaped already (a Mixed, a code value)
}

func (e escapedArg) Format(st fmt.State, verb rune) {
	s := fmt.Sprintf(directive(st, verb), e.text)
	if !e.done {
		s = e.p.escape(s, e.trust)
	}
	_, _ = st.Write([]byte(s))
}

// directive rebuilds the formatting directive fmt called Format for.
func directive(st fmt.State, verb rune) string {
	var b strings.Builder
	b.WriteByte('%')
	for _, c := range "+-# 0" {
		if st.Flag(int(c)) {
			b.WriteRune(c)
		}
	}
	if w, ok := st.Width(); ok {
		b.WriteString(strconv.Itoa(w))
	}
	if pr, ok := st.Precision(); ok {
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(pr))
	}
	b.WriteRune(verb)
	return b.String()
}

// mixed builds a Mixed from pieces: author text (trusted) and values, each escaped as printed alone. With no value
// of another trust than trusted among them, the result is a plain string.
type mixedBuilder struct {
	p        *printer
	text     strings.Builder
	raw      strings.Builder
	trust    blocks.Trust
	marks    []span
	block    bool
	markdown bool
}

// grow makes room for n bytes of text and raw and for the marks of values values: bullets and join know both
// before they build, and growing the three piece by piece cost more than the escaping.
func (m *mixedBuilder) grow(n, values int) {
	m.text.Grow(n + n/8 + 8)
	m.raw.Grow(n)
	m.marks = make([]span, 0, values)
}

// author appends text of the block's author.
func (m *mixedBuilder) author(s string) {
	m.text.WriteString(s)
	m.raw.WriteString(s)
}

// value appends a value (text of some trust), escaped by it.
func (m *mixedBuilder) value(v any) {
	if x, ok := v.(Mixed); ok {
		base := m.text.Len()
		m.text.WriteString(x.text)
		m.raw.WriteString(x.raw)
		for _, s := range x.marks {
			m.marks = append(m.marks, span{base + s.start, base + s.end, s.trust})
		}
		m.trust = stricter(m.trust, x.trust)
		m.block = m.block || x.block
		m.markdown = m.markdown || x.markdown
		return
	}
	raw, trust, _ := textOf(v)
	m.raw.WriteString(raw)
	if trust == blocks.Trusted {
		m.text.WriteString(raw)
		return
	}
	start := m.text.Len()
	m.text.WriteString(m.p.escape(raw, trust))
	m.marks = append(m.marks, span{start, m.text.Len(), trust})
	m.trust = stricter(m.trust, trust)
	m.block = m.block || trust == blocks.Background || trust == blocks.Markdown
	m.markdown = m.markdown || trust == blocks.Markdown
}

func (m *mixedBuilder) result() any {
	if m.trust == blocks.Trusted {
		return m.text.String()
	}
	if m.text.Len() == 0 {
		return computed("", m.raw.String(), m.trust) // values that escape to nothing: their text, for functions
	}
	return Mixed{text: m.text.String(), raw: m.raw.String(), trust: m.trust, marks: m.marks, block: m.block, markdown: m.markdown}
}

// isZero reports whether a value is empty in the sense of default and truthiness: "", 0, false, an empty list or
// record list, a record whose fields are all empty, nil (see truth).
func isZero(v any) bool { return !truth(v) }

// Truthy is whether a value as a body sees it makes if, and a when condition, hold: bool true, a non-empty string
// of any trust, a non-zero int, a non-empty list or records, a record with a true field (docs/reference.md,
// "Nested data").
func Truthy(v any) bool { return truth(v) }

// Printed returns a prepared value with every string in it as an action printing it alone writes it, at the default
// heading level: each value escaped by its trust and its markers broken. Lists become []string and records
// []map[string]any; other values are returned as they are. Tools that show what a value prints use it.
func Printed(v any, markers []string) any {
	p := &printer{markers: markers}
	switch x := v.(type) {
	case []any:
		out := make([]string, len(x))
		for i, e := range x {
			out[i] = p.printAny(e)
		}
		return out
	case []map[string]any:
		out := make([]map[string]any, len(x))
		for i, r := range x {
			out[i] = Printed(r, markers).(map[string]any)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = Printed(e, markers)
		}
		return out
	}
	if _, _, ok := textOf(v); ok {
		return p.printAny(v)
	}
	return v
}
