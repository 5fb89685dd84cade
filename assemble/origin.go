package assemble

import (
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/templates"
)

// OriginKind says which part of the sources wrote a byte of an artifact.
type OriginKind uint8

const (
	// OriginBlock: the block, nothing finer known: the separator before it, the final newline, or an action that
	// prints neither a constant nor a variable (ref, title, tools, a literal).
	OriginBlock OriginKind = iota
	// OriginHeading: the block's heading line, from its title.
	OriginHeading
	// OriginText: literal text of the block's body, in its TOML string or its template file.
	OriginText
	// OriginConst: a constant's text, or an entry of a lookup table, printed by const or lookup.
	OriginConst
	// OriginValue: a variable's value.
	OriginValue
)

// Origin is where a byte of an artifact comes from, as far back as the sources go.
type Origin struct {
	Kind OriginKind
	// Block is the block that wrote the byte.
	Block *blocks.Block
	// Name is the constant, lookup table or variable (OriginConst, OriginValue).
	Name string
	// At is where that source is written: the byte's own place in the body's TOML string or template file
	// (OriginText), the constant's definition (OriginConst), where the value is given — a fixture's key, a values
	// file's entry — or, when it is not, the variable's declaration (OriginValue), the action that printed the byte
	// (OriginBlock inside a body), else the block's id entry.
	At blocks.Range
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
	memo := map[*compiled]trace{}
	out := make([]Origin, 0, max(end-start, 0))
	for off := start; off < end; off++ {
		o, _ := a.origin(off, memo)
		out = append(out, o)
	}
	return out
}

// trace is one run of a block's body for the artifact's values: its raw output and what wrote each piece.
type trace struct {
	raw    string
	pieces []templates.Piece
	ok     bool
}

// origin is Origin, with the body runs of earlier calls kept in memo (nil: none kept).
func (a *Artifact) origin(off int, memo map[*compiled]trace) (Origin, bool) {
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
	tr, done := memo[c]
	if !done {
		ti := a.prog.taskIndex[a.Task]
		vals := a.values
		if pv, cut := a.shrunk[c]; cut {
			vals = pv // the turn budget rendered this block with fewer items
		}
		raw, pieces, d := c.body.Trace(vals.data, a.prog.env(ti, vals, func(string) {}))
		tr = trace{raw, pieces, d == nil}
		if memo != nil {
			memo[c] = tr
		}
	}
	if !tr.ok {
		return o, true
	}
	raw, pieces := tr.raw, tr.pieces
	text := strings.TrimRight(strings.TrimLeft(raw, "\n"), " \t\n")
	start := sp.TextStart + len(c.heading)
	if c.heading != "" {
		start += 2
	}
	// The trace must reproduce the artifact's bytes, or its map describes something else.
	if rel >= len(text) || start+len(text) > len(a.Text) || a.Text[start:start+len(text)] != text {
		return o, true
	}
	k := rel + len(raw) - len(strings.TrimLeft(raw, "\n"))
	for _, p := range pieces {
		if k < p.Start || k >= p.End {
			continue
		}
		if !p.Action {
			o.Kind = OriginText
			at := p.Src + k - p.Start
			o.At = c.SourceRange(at, at)
			return o, true
		}
		o.At = c.SourceRange(p.Src, p.SrcEnd)
		a.actionOrigin(&o, c.body, p, raw, k)
		return o, true
	}
	return o, true
}

// actionOrigin names the constant or variable an action printed byte k of raw from. An action may name several
// (join .labels (const "sep")): a constant whose text lies around byte k wins, then the first variable, then the
// first constant.
func (a *Artifact) actionOrigin(o *Origin, body *templates.Body, p templates.Piece, raw string, k int) {
	consts, tables, vars := body.UsesIn(p.Src, p.SrcEnd)
	proj := a.prog.Project
	constant := func(name string) {
		o.Kind, o.Name = OriginConst, name
		if c, ok := proj.Consts[name]; ok {
			o.At = c.Range
		}
	}
	out := raw[p.Start:p.End]
	for _, name := range append(consts, tables...) {
		c, ok := proj.Consts[name]
		if !ok {
			continue
		}
		texts := []string{c.Value}
		for _, v := range c.Lookup {
			texts = append(texts, v)
		}
		for _, t := range texts {
			if t != "" && covers(out, t, k-p.Start) {
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
	if len(consts) > 0 {
		constant(consts[0])
	} else if len(tables) > 0 {
		constant(tables[0])
	}
}

// covers reports whether an occurrence of t in s holds byte i of s.
func covers(s, t string, i int) bool {
	for from := 0; from <= i; {
		j := strings.Index(s[from:], t)
		if j < 0 {
			return false
		}
		j += from
		if j <= i && i < j+len(t) {
			return true
		}
		from = j + 1
	}
	return false
}
