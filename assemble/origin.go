package assemble

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/templates"
)

// OriginKind says which part of the sources wrote a byte of an artifact. It is a closed set with one spelling per
// kind (String, MarshalText), the word every report uses for it: check's, diff's and miss's "source", explain's
// "from" lines and their JSON "kind" (docs/reference.md#origins).
type OriginKind uint8

const (
	// OriginBlock ("block"): the block, nothing finer known: the separator before it, the blank line after its
	// heading, the final newline, or bytes of a body whose trace failed.
	OriginBlock OriginKind = iota
	// OriginHeading ("heading"): the block's heading line, from its title.
	OriginHeading
	// OriginText ("text"): literal text of the block's body, in its TOML string.
	OriginText
	// OriginTemplate ("template"): literal text of the block's template file under templates/.
	OriginTemplate
	// OriginConstant ("constant"): a constant's text, or an entry of a lookup table, printed by const or lookup.
	OriginConstant
	// OriginValue ("value"): a variable's value.
	OriginValue
	// OriginReference ("reference"): another block's heading, printed by ref with a literal name.
	OriginReference
	// OriginAction ("action"): another action that prints neither a constant nor a variable: title, tools, a
	// literal, ref with a computed name.
	OriginAction
)

var originNames = [...]string{
	OriginBlock:     "block",
	OriginHeading:   "heading",
	OriginText:      "text",
	OriginTemplate:  "template",
	OriginConstant:  "constant",
	OriginValue:     "value",
	OriginReference: "reference",
	OriginAction:    "action",
}

// String is the kind's one spelling: "block", "heading", "text", "template", "constant", "value", "reference" or
// "action".
func (k OriginKind) String() string {
	if int(k) < len(originNames) {
		return originNames[k]
	}
	return fmt.Sprintf("OriginKind(%d)", k)
}

// MarshalText writes the kind as String spells it, so that JSON reports carry the same word as text ones; a value
// outside the set is an error.
func (k OriginKind) MarshalText() ([]byte, error) {
	if int(k) >= len(originNames) {
		return nil, fmt.Errorf("origin kind %d is outside the set", k)
	}
	return []byte(originNames[k]), nil
}

// UnmarshalText reads a kind as String spells it; any other word is an error naming the kinds, so that a program
// reading a report back never holds a kind outside the set.
func (k *OriginKind) UnmarshalText(b []byte) error {
	for i, name := range originNames {
		if string(b) == name {
			*k = OriginKind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown origin kind %q%s; the kinds are: %s", b, suggest.DidYouMean(string(b), originNames[:]), strings.Join(originNames[:], ", "))
}

// Origin is where a byte of an artifact comes from, as far back as the sources go.
type Origin struct {
	Kind OriginKind
	// Block is the block that wrote the byte.
	Block *blocks.Block
	// Name is the constant or lookup table (OriginConstant), the variable (OriginValue), the referenced block
	// (OriginReference) or the template file's path under templates/ (OriginTemplate); "" for the other kinds.
	Name string
	// At is where that source is written: the byte's own place in the body's TOML string or template file
	// (OriginText, OriginTemplate), the title's value (OriginHeading), the constant's definition (OriginConstant),
	// where the value is given — a fixture's key, a values file's entry — or, when it is not, the variable's
	// declaration (OriginValue), the action that printed the byte, "{{" to "}}" (OriginReference, OriginAction),
	// else the block's id entry.
	At source.Range
}

// String names the origin with its position, as check's text report prints it: "constant no_secrets
// (blocks/00-constants.toml:3:1)", "text (blocks/main.toml:5:1)" for a kind without a name.
func (o Origin) String() string {
	if o.Name == "" {
		return fmt.Sprintf("%s (%s)", o.Kind, o.At)
	}
	return fmt.Sprintf("%s %s (%s)", o.Kind, o.Name, o.At)
}

// Origin traces byte off of the artifact back to its source: the span's block, then the part of the block's body
// that wrote it (literal text, a constant, a variable's value). It re-executes that one body with the values the
// artifact was rendered with, recording which node wrote each byte (templates.Body.Trace), so rendering itself
// carries no source map finer than spans. ok is false when off is outside the artifact. An artifact that was not
// rendered by this package (read from golden/) has spans at most: its origins are OriginBlock.
func (a *Artifact) Origin(off int) (Origin, bool) {
	return a.origin(off, nil)
}

// Origins is Origin for each byte of [start, end) (clipped to the artifact), in order: one body run per block
// however many of its bytes are asked for, where calling Origin byte by byte re-runs the body each time.
func (a *Artifact) Origins(start, end int) []Origin {
	start, end = max(start, 0), min(end, len(a.Text))
	memo := map[*compiled]*trace{}
	out := make([]Origin, 0, max(end-start, 0))
	for off := start; off < end; off++ {
		o, _ := a.origin(off, memo)
		out = append(out, o)
	}
	return out
}

// trace is one run of a block's body for the artifact's values: its raw output and what wrote each piece, and
// what origin works out from them once for every byte it is asked about.
type trace struct {
	raw    string
	pieces []templates.Piece
	// ok: the body ran, and its output, trimmed as the block's text is, is the artifact's bytes at the block's
	// text; otherwise the map describes something else and bytes trace no further than the block.
	ok bool
	// text is the trimmed output's length; lead the newlines trimmed from its start.
	text, lead int
	// occurrences of a constant's text in an action's output (see covers), found on first use.
	occ map[occKey][]int
	// at holds each action piece's source range, found on first use.
	at map[int]source.Range
}

// occKey names a text of a constant in the output of a piece: its value (entry ""), or a lookup table's entry.
type occKey struct {
	piece       int
	name, entry string
}

// origin is Origin, with the body runs of earlier calls kept in memo (nil: none kept). With a memo, each byte costs
// a binary search among the body's pieces, not a pass over the block's text: a line of a megabyte is traced in
// time linear in its length.
func (a *Artifact) origin(off int, memo map[*compiled]*trace) (Origin, bool) {
	sp, ok := a.SpanAt(off)
	if !ok {
		return Origin{}, false
	}
	o := Origin{Kind: OriginBlock, Block: sp.Block, At: sp.Block.Range}
	if a.prog == nil || a.values == nil || off < sp.TextStart {
		return o, true
	}
	c := a.prog.blocks[sp.Block.ID]
	if c == nil || c.Block != sp.Block {
		return o, true
	}
	rel := off - sp.TextStart
	if c.heading != "" {
		if rel < len(c.heading)+2 {
			if rel < len(c.heading) {
				o.Kind = OriginHeading
				if c.Table != nil {
					if e, ok := c.Table.Keys["title"]; ok {
						o.At = e.Value
					}
				}
			}
			return o, true
		}
		rel -= len(c.heading) + 2
	}
	tr := memo[c]
	if tr == nil {
		tr = a.traceBody(c, sp)
		if memo != nil {
			memo[c] = tr
		}
	}
	if !tr.ok || rel >= tr.text {
		return o, true
	}
	k := rel + tr.lead
	// The pieces are the output's bytes in order: the first that ends after k holds it, if it starts by k.
	i, _ := slices.BinarySearchFunc(tr.pieces, k, func(p templates.Piece, k int) int { return cmp.Compare(p.End, k+1) })
	if i == len(tr.pieces) || tr.pieces[i].Start > k {
		return o, true
	}
	p := tr.pieces[i]
	if !p.Action {
		o.Kind = OriginText
		if c.Block.Template != "" {
			o.Kind, o.Name = OriginTemplate, c.Block.Template
		}
		at := p.Src + k - p.Start
		o.At = c.SourceRange(at, at)
		return o, true
	}
	at, ok := tr.at[i]
	if !ok {
		at = c.SourceRange(p.Src, p.SrcEnd)
		if tr.at == nil {
			tr.at = map[int]source.Range{}
		}
		tr.at[i] = at
	}
	o.At = at
	a.actionOrigin(&o, c.body, tr, i, k)
	return o, true
}

// traceBody runs block c's body for the artifact's values and checks its output against the artifact's text at span
// sp.
func (a *Artifact) traceBody(c *compiled, sp Span) *trace {
	ti := a.prog.taskIndex[a.Task]
	vals := a.values
	if pv, cut := a.shrunk[c]; cut {
		vals = pv // the turn budget rendered this block with fewer items
	}
	raw, pieces, d := c.body.Trace(vals.data, a.prog.env(ti, vals, func(string) {}))
	tr := &trace{raw: raw, pieces: pieces}
	if d != nil {
		return tr
	}
	text, lead := c.trimmed(raw, func() (string, []templates.Piece, bool) { return raw, pieces, true })
	tr.lead = lead
	tr.text = len(text)
	start := sp.TextStart + len(c.heading)
	if c.heading != "" {
		start += 2
	}
	tr.ok = start+len(text) <= len(a.Text) && a.Text[start:start+len(text)] == text
	return tr
}

// actionOrigin names the constant or variable an action printed byte k of raw from. An action may name several
// (join .labels (const "sep")): a constant whose text lies around byte k wins, then the first variable, then the
// first constant. An action that names none is a reference when it calls ref with a literal name (the only call
// whose output is another block's heading), else an action.
func (a *Artifact) actionOrigin(o *Origin, body *templates.Body, tr *trace, piece, k int) {
	p := tr.pieces[piece]
	consts, tables, vars := body.UsesIn(p.Src, p.SrcEnd)
	proj := a.prog.Project
	constant := func(name string) {
		o.Kind, o.Name = OriginConstant, name
		if c, ok := proj.Consts[name]; ok {
			o.At = c.Range
		}
	}
	out := tr.raw[p.Start:p.End]
	for _, name := range append(consts, tables...) {
		c, ok := proj.Consts[name]
		if !ok {
			continue
		}
		if c.Value != "" && tr.covers(occKey{piece, name, ""}, out, c.Value, k-p.Start) {
			constant(name)
			return
		}
		for key, t := range c.Lookup {
			if t != "" && tr.covers(occKey{piece, name, key}, out, t, k-p.Start) {
				constant(name)
				return
			}
		}
	}
	if len(vars) > 0 {
		o.Kind, o.Name = OriginValue, vars[0]
		if a.valueAt != nil {
			if at := a.valueAt(vars[0]); at.Known() {
				o.At = at
				return
			}
		}
		if v, ok := proj.Vars[vars[0]]; ok {
			o.At = v.Range
		}
		return
	}
	switch {
	case len(consts) > 0:
		constant(consts[0])
	case len(tables) > 0:
		constant(tables[0])
	default:
		o.Kind = OriginAction
		for _, u := range body.Uses.Refs {
			if u.Off >= p.Src && u.End <= p.SrcEnd {
				o.Kind, o.Name = OriginReference, u.Name
				break
			}
		}
	}
}

// covers reports whether an occurrence of t in s, the output of a piece, holds byte i of s. The occurrences
// (overlapping ones too) are found once per key; each byte then costs a binary search.
func (tr *trace) covers(key occKey, s, t string, i int) bool {
	starts, ok := tr.occ[key]
	if !ok {
		for from := 0; ; {
			j := strings.Index(s[from:], t)
			if j < 0 {
				break
			}
			starts = append(starts, from+j)
			from += j + 1
		}
		if tr.occ == nil {
			tr.occ = map[occKey][]int{}
		}
		tr.occ[key] = starts
	}
	// The last occurrence starting at or before i reaches furthest: they all have t's length.
	n, _ := slices.BinarySearch(starts, i+1)
	return n > 0 && i < starts[n-1]+len(t)
}
