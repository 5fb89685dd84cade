package explain

import (
	"strings"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/templates"
)

// fragment is one line (or part of a line) of a body's literal text, at byte Off of the body.
type fragment struct {
	off  int
	text string
}

// trace finds where the line at byte rel of a block's rendered body (rendered) is written, and what wrote it.
//
// A body without actions is its own output, less the leading newlines rendering trims: it maps byte for byte. A
// template's output is not mapped by the compiler, so the line is matched against what a template can print: its
// literal text (line by line, in order, so that repeated text maps to the right place), the constants it reads,
// the values of the variables it reads and the headings it refers to. Text that appears nowhere is left untraced.
func trace(prog *assemble.Program, a *assemble.Artifact, b *blocks.Block, rendered string, rel int, r *LineReport) {
	line := r.Text
	if b.Raw || !strings.Contains(b.Body, "{{") {
		off := len(b.Body) - len(strings.TrimLeft(b.Body, "\n")) + rel
		if off+len(line) <= len(b.Body) && b.Body[off:off+len(line)] == line {
			r.Source = b.SourceRange(off, off+len(line))
			r.From = []Origin{{Kind: "text", At: r.Source}}
		}
		return
	}
	body := prog.Body(b.ID)
	if body == nil {
		return
	}
	var frags []fragment
	for _, lit := range body.Literals {
		off := lit.Off
		for _, t := range strings.SplitAfter(lit.Text, "\n") {
			if s := strings.TrimSuffix(t, "\n"); strings.TrimSpace(s) != "" {
				frags = append(frags, fragment{off, s})
			}
			off += len(t)
		}
	}
	// Walk the body's lines up to the one asked about, so that each line is looked for after the previous one.
	cursor, found := 0, fragment{off: -1}
	for lstart := 0; lstart <= rel && lstart <= len(rendered); {
		lend := len(rendered)
		if j := strings.IndexByte(rendered[lstart:], '\n'); j >= 0 {
			lend = lstart + j
		}
		f, ok := match(frags, rendered[lstart:lend], cursor)
		if !ok {
			f, ok = match(frags, rendered[lstart:lend], 0)
		}
		if ok {
			cursor = f.off + len(f.text)
		}
		if lstart == rel {
			if ok {
				found = f
			}
			break
		}
		lstart = lend + 1
	}
	var useAt []blocks.Range // where the body prints what the line shows, when its literal text is not found
	if found.off >= 0 {
		r.Source = b.SourceRange(found.off, found.off+len(found.text))
		r.From = append(r.From, Origin{Kind: "text", At: r.Source})
	}
	p := prog.Project
	seen := map[string]bool{}
	for _, u := range body.Uses.Consts {
		c := p.Consts[u.Name]
		if c == nil || seen["const "+u.Name] {
			continue
		}
		if off, n, ok := shows(line, c.Value, 3); ok {
			seen["const "+u.Name] = true
			r.From = append(r.From, Origin{Kind: "const", Name: c.Name, At: c.SourceRange(off, off+n)})
			useAt = append(useAt, b.SourceRange(u.Off, u.End))
		}
	}
	k := 0
	if a.Kind == blocks.Turn {
		k = a.Turn
	}
	var f *blocks.Fixture
	if a.Fixture != "" {
		f = p.Fixture(a.Fixture)
	}
	vals := prepare(prog, f, k)
	varUses := append([]templates.Use(nil), body.Uses.Vars...)
	for _, fu := range body.Uses.Fields {
		varUses = append(varUses, templates.Use{Name: fu.Var, Off: fu.Off, End: fu.End})
	}
	for _, u := range varUses {
		if seen["var "+u.Name] {
			continue
		}
		for _, t := range texts(vals[u.Name]) {
			if _, _, ok := shows(line, t, 2); ok {
				seen["var "+u.Name] = true
				at := b.SourceRange(u.Off, u.End)
				r.From = append(r.From, Origin{Kind: "var", Name: u.Name, At: at})
				useAt = append(useAt, at)
				break
			}
		}
	}
	for _, u := range body.Uses.Refs {
		t := p.ByID[u.Name]
		if t == nil || seen["ref "+u.Name] || t.Heading() == "" || !strings.Contains(line, t.Heading()) {
			continue
		}
		seen["ref "+u.Name] = true
		at := b.SourceRange(u.Off, u.End)
		r.From = append(r.From, Origin{Kind: "ref", Name: u.Name, At: at})
		useAt = append(useAt, at)
	}
	if found.off < 0 && len(useAt) > 0 {
		r.Source = useAt[0]
	}
}

// match finds the first fragment at or after byte from that is the whole line, else the first that the line
// holds (at least three bytes of it other than white space).
func match(frags []fragment, line string, from int) (fragment, bool) {
	if strings.TrimSpace(line) == "" {
		return fragment{}, false
	}
	for _, f := range frags {
		if f.off >= from && f.text == line {
			return f, true
		}
	}
	for _, f := range frags {
		if f.off >= from && len(strings.TrimSpace(f.text)) >= 3 && strings.Contains(line, strings.TrimSpace(f.text)) {
			return f, true
		}
	}
	return fragment{}, false
}

// shows reports whether line shows text: one of its lines (at least min bytes other than white space), returning
// that line's offset and length in text.
func shows(line, text string, min int) (int, int, bool) {
	off := 0
	for _, t := range strings.SplitAfter(text, "\n") {
		s := strings.TrimSpace(t)
		if len(s) >= min && strings.Contains(line, s) {
			lead := len(t) - len(strings.TrimLeft(t, " \t"))
			return off + lead, len(s), true
		}
		off += len(t)
	}
	return 0, 0, false
}
