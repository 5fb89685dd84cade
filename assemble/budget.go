package assemble

import (
	"fmt"
	"slices"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/templates"
)

// The turn budget (docs/reference.md, "Turn budget"): when a turn message is over [turn] max_tokens, promptc cuts
// it deterministically, without a model, and says what it cut. The runbook is never touched.

// piece is one rendered block of an artifact, before the artifact is joined; text is "" for a block the turn
// budget omitted.
type piece struct {
	c     *compiled
	text  string
	level int // the heading level it sits under, which markdown values nest under
	body  int // where its text starts in the artifact, once written
	// lead and trail are what the text asks of the artifact's text before and after it (rendered).
	lead, trail templates.Break
}

// Budget is what the turn budget did to one turn message.
type Budget struct {
	// MaxTokens is the budget ([turn] max_tokens); Before and After are the message's tokens (o200k_base) as first
	// rendered and as returned.
	MaxTokens, Before, After int
	// Cuts lists what was dropped, in the order the budget dropped it: items of a block's shrink variable (one entry
	// per block and variable, with how many), then possibly the block itself.
	Cuts []Cut
	// Exceeded is set when the message is still over the budget: only blocks of the highest priority present were
	// left, and they are never omitted.
	Exceeded bool
}

// Cut is one thing the turn budget dropped: Items items from the end of variable Var as block Block prints it, or,
// with Var "", the whole block.
type Cut struct {
	Block string
	Var   string
	Items int
	// Tokens is the message's token count right after this cut.
	Tokens int
}

// Over reports whether the message was over its budget as first rendered, so that the budget cut it (or tried to).
func (b *Budget) Over() bool { return b != nil && b.Before > b.MaxTokens }

// String says in one line what the budget did: nothing when the message fits, else what it dropped and the tokens
// before and after, and whether the message is still over.
func (b *Budget) String() string {
	if b == nil {
		return ""
	}
	if !b.Over() {
		return fmt.Sprintf("turn budget: %d tokens, within max_tokens = %d", b.Before, b.MaxTokens)
	}
	var cuts []string
	for _, c := range b.Cuts {
		if c.Var == "" {
			cuts = append(cuts, fmt.Sprintf("omitted block %q", c.Block))
			continue
		}
		cuts = append(cuts, fmt.Sprintf("dropped %s of %q from block %q", plural.Count(c.Items, "item"), c.Var, c.Block))
	}
	what := "dropped nothing"
	if len(cuts) > 0 {
		what = strings.Join(cuts, ", ")
	}
	s := fmt.Sprintf("turn budget: %d tokens, over max_tokens = %d: %s; now %d tokens", b.Before, b.MaxTokens, what, b.After)
	if b.Exceeded {
		s += ", still over the budget: blocks of the highest priority are never omitted"
	}
	return s
}

// SetTokenCounter makes the turn budget count tokens with c (nil: promptc's o200k_base counter). Counts must be
// deterministic: the same text, the same count.
func (prog *Program) SetTokenCounter(c TokenCounter) { prog.counter = c }

func (prog *Program) tokens(text string) int {
	if prog.counter != nil {
		return prog.counter.Count(text)
	}
	return budgetCounter().Count(text)
}

// joined is the message the pieces make (see assemble).
func joined(pieces []piece, sep string) string {
	var b strings.Builder
	for _, p := range pieces {
		if p.text == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		if p.c.heading != "" {
			b.WriteString(p.c.heading)
			b.WriteString("\n\n")
		}
		b.WriteString(p.text)
	}
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	return b.String()
}

// budget applies the turn budget to the rendered blocks of a turn message: from the lowest priority up, and among
// equal priorities from the last block back, each block's shrink variables lose items from the end, one at a time
// (the last variable the block uses first), until the message fits or they are empty; then the block is omitted,
// unless it has the highest priority present. It stops as soon as the message fits. A block whose body fails with
// fewer items keeps the items it last rendered with, and so does a block of the highest priority present whose body
// would render nothing: such a block is never omitted, not even by emptying its lists.
//
// The rule is one item at a time, and so is this loop; but a step costs what it changes, not the whole message (see
// shrinking and countSpans), and gives the bytes of rendering and counting the whole message at each step
// (TestBudgetAgainstReference).
//
// It returns the pieces as cut, the report, and the values each shrunk block was last rendered with (for Origin).
func (prog *Program) budget(pieces []piece, ti int, pv *prepared, sep string) ([]piece, *Budget, map[*compiled]*prepared) {
	limit := prog.Project.Turn.MaxTokens
	n := prog.tokens(joined(pieces, sep))
	b := &Budget{MaxTokens: limit, Before: n, After: n}
	if n <= limit {
		return pieces, b, nil
	}
	used := map[*compiled]*prepared{}
	pieces = slices.Clone(pieces)
	order := make([]int, len(pieces))
	top := pieces[0].c.Priority
	for i, p := range pieces {
		order[i] = i
		top = max(top, p.c.Priority)
	}
	slices.SortStableFunc(order, func(i, j int) int {
		if d := pieces[i].c.Priority - pieces[j].c.Priority; d != 0 {
			return d
		}
		return j - i // among equals, the later block first
	})
	for _, i := range order {
		p := &pieces[i]
		cut := map[string]int{} // items dropped so far from each shrink variable of this block
		vars := prog.shrinkVars(p.c)
		for vi := len(vars) - 1; vi >= 0; vi-- {
			v := vars[vi]
			s := prog.shrinking(pieces, i, ti, pv, cut, v, sep)
			entry := -1
			kept, last := 0, rope{} // the last rendering kept, with how many items dropped
			for k := 1; k <= s.total; k++ {
				text, ok := s.render(k)
				if !ok || p.c.Priority == top && text.empty() {
					break // this block cannot render with fewer items (or would vanish): keep what rendered
				}
				kept, last = k, text
				n = s.count(text)
				if entry < 0 {
					b.Cuts = append(b.Cuts, Cut{Block: p.c.ID, Var: v.Name})
					entry = len(b.Cuts) - 1
				}
				b.Cuts[entry].Items, b.Cuts[entry].Tokens = k, n
				if n <= limit {
					break
				}
			}
			if kept > 0 {
				cut[v.Name] = kept
				p.text = last.String()
				used[p.c] = shrunk(pv, cut, prog)
			}
			if n <= limit {
				b.After = n
				return pieces, b, used
			}
		}
		if p.c.Priority < top && p.text != "" {
			p.text = ""
			n = prog.tokens(joined(pieces, sep))
			b.Cuts = append(b.Cuts, Cut{Block: p.c.ID, Tokens: n})
			if n <= limit {
				b.After = n
				return pieces, b, used
			}
		}
	}
	b.After, b.Exceeded = n, true
	return pieces, b, used
}

// shrinking is the turn budget at work on one shrink variable v of the block pieces[i]: the block rendered with k
// more items of v dropped, for k = 1, 2, …, and the message counted with it, the other blocks as they are.
//
// Each step costs what changes, not the whole message. The values it renders with are made once and only v's list
// changes, a slice of one array: its first items are the same values at every step, and the omitted line goes in
// the place after them. A body whose shape allows it is recorded once (templates.Shrink) and each step splices in
// what the recording wrote for the items it keeps. The message is counted from the pieces of the texts that stay
// (the blocks around it, the part spliced in) and the few that change (countSpans).
type shrinking struct {
	prog  *Program
	p     *piece
	ti    int
	total int         // the items of v the budget may drop
	q     *prepared   // the values the block renders with: q.data[v] and q.dropped[v] change with each step
	set   func(k int) // puts v's list with k items dropped into q
	sh    *templates.Shrink
	env   templates.Env

	before, after string // the message around the block: the blocks before it and a separator, the rest
	counter       *paragraphCounter
	ixBefore      *indexed // before, after and the recorded output, indexed for counter; made on the first count
	ixAfter       *indexed
	ixOut         *indexed
	pieces        []piece
	i             int
	sep           string
}

// shrinking makes the values block pieces[i] renders with as cut says, v's items not yet cut, and records the
// block when it can be spliced.
func (prog *Program) shrinking(pieces []piece, i, ti int, pv *prepared, cut map[string]int, v *blocks.Var, sep string) *shrinking {
	p := &pieces[i]
	q := shrunk(pv, cut, prog)
	s := &shrinking{prog: prog, p: p, ti: ti, q: q, pieces: pieces, i: i, sep: sep}
	name := v.Name
	dropped := pv.dropped[name]
	omitted := func(k int) (any, bool) { return templates.OmittedLine(v, dropped+k, prog.markerTexts) }
	switch x := pv.data[name].(type) {
	case []string:
		base := baseItems(v, pv)
		s.total = len(base)
		list := make([]string, len(base)+1)
		for j, it := range base {
			list[j] = it.(string)
		}
		s.set = func(k int) {
			m := s.total - k
			items := list[:m]
			if line, ok := omitted(k); ok {
				list[m] = line.(string)
				items = list[:m+1]
			}
			q.data[name], q.dropped[name] = items, dropped+k
		}
	case []any:
		base := baseItems(v, pv)
		s.total = len(base)
		list := append(base, nil)
		s.set = func(k int) {
			m := s.total - k
			items := list[:m]
			if line, ok := omitted(k); ok {
				list[m] = line
				items = list[:m+1]
			}
			q.data[name], q.dropped[name] = items, dropped+k
		}
	case []map[string]any:
		s.total = len(x)
		s.set = func(k int) { q.data[name], q.dropped[name] = x[:s.total-k], dropped+k }
	}
	if s.total == 0 {
		return s
	}
	c := p.c
	if c.body.CallsEnv() {
		s.env = prog.env(ti, q, func(string) {})
	}
	if c.markdown {
		s.env.Level = p.level
	}
	s.env.Lines = c.lines
	if len(c.keep) == 0 { // a splice's output is trimmed whole: keep_newlines needs the trace of a plain render
		s.sh = c.body.Shrink(name, q.data, s.env)
	}
	return s
}

// render renders the block with k items of v dropped; ok is false when its body fails.
func (s *shrinking) render(k int) (text rope, ok bool) {
	s.set(k)
	if s.sh != nil {
		out, d := s.sh.Execute(s.q.data, s.env)
		if d != nil {
			return rope{}, false
		}
		text = trimRope(out)
	} else {
		r := s.prog.render(s.p.c, s.ti, s.p.level, s.q, nil)
		if r.err != nil {
			return rope{}, false
		}
		text = rope{tail: r.text}
	}
	return text, true
}

// count counts the message with the block's text as text.
func (s *shrinking) count(text rope) int {
	counter, incremental := budgetCounter().(*paragraphCounter)
	if s.prog.counter != nil || !incremental || text.empty() {
		was := s.p.text
		s.p.text = text.String()
		n := s.prog.tokens(joined(s.pieces, s.sep))
		s.p.text = was
		return n
	}
	if s.counter == nil {
		s.counter = counter
		s.before, s.after = around(s.pieces, s.i, s.sep)
		s.ixBefore, s.ixAfter = counter.index(s.before), counter.index(s.after)
		if s.sh != nil {
			s.ixOut = counter.index(s.sh.Output())
		}
	}
	spans := []span{{ix: s.ixBefore, end: len(s.before)}}
	if h := s.p.c.heading; h != "" {
		spans = append(spans, span{s: h + "\n\n"})
	}
	spans = append(spans, span{s: text.head})
	if text.mid != "" {
		spans = append(spans, span{ix: s.ixOut, start: text.midAt, end: text.midAt + len(text.mid)})
	}
	spans = append(spans, span{s: text.tail}, span{ix: s.ixAfter, end: len(s.after)})
	return counter.countSpans(spans)
}

// around returns the message joined would make of pieces but for piece i, which is not empty: the text before it,
// separator included, and the text after it, final newline included.
func around(pieces []piece, i int, sep string) (before, after string) {
	var b strings.Builder
	for _, p := range pieces[:i] {
		if p.text == "" {
			continue
		}
		if p.c.heading != "" {
			b.WriteString(p.c.heading)
			b.WriteString("\n\n")
		}
		b.WriteString(p.text)
		b.WriteString(sep)
	}
	before = b.String()
	b.Reset()
	for _, p := range pieces[i+1:] {
		if p.text == "" {
			continue
		}
		b.WriteString(sep)
		if p.c.heading != "" {
			b.WriteString(p.c.heading)
			b.WriteString("\n\n")
		}
		b.WriteString(p.text)
	}
	b.WriteByte('\n')
	return before, b.String()
}

// rope is a block's trimmed text in three parts, mid being bytes [midAt, midAt+len(mid)) of a Shrink's recorded
// output.
type rope struct {
	head, mid, tail string
	midAt           int
}

func (r rope) empty() bool    { return r.head == "" && r.mid == "" && r.tail == "" }
func (r rope) String() string { return r.head + r.mid + r.tail }

// trimRope trims a spliced output as render trims a block's output (docs/reference.md#how-a-runbook-is-assembled):
// leading newlines, trailing spaces, tabs and newlines.
func trimRope(out templates.Spliced) rope {
	parts := [3]string{out.Head, out.Mid, out.Tail}
	at := out.MidAt
	for i := range parts {
		t := strings.TrimLeft(parts[i], "\n")
		if i == 1 {
			at += len(parts[i]) - len(t)
		}
		if parts[i] = t; t != "" {
			break
		}
	}
	for i := len(parts) - 1; i >= 0; i-- {
		if parts[i] = strings.TrimRight(parts[i], " \t\n"); parts[i] != "" {
			break
		}
	}
	return rope{head: parts[0], mid: parts[1], tail: parts[2], midAt: at}
}

// shrinkVars are the list and records variables with shrink = true that block c's body uses, in the order it first
// uses them.
func (prog *Program) shrinkVars(c *compiled) []*blocks.Var {
	var out []*blocks.Var
	for _, u := range c.body.Uses.Vars {
		v := prog.Project.Vars[u.Name]
		if v != nil && v.Shrink && (v.Type == blocks.TypeList || v.Type == blocks.TypeRecords) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// baseItems are the items of v's prepared value the budget may drop: a list's items without its omitted line.
func baseItems(v *blocks.Var, pv *prepared) []any {
	switch x := pv.data[v.Name].(type) {
	case []string:
		if pv.dropped[v.Name] > 0 && v.Omitted != "" && len(x) > 0 {
			x = x[:len(x)-1]
		}
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	case []any: // a list of untrusted, background or markdown items, escaped where printed
		if pv.dropped[v.Name] > 0 && v.Omitted != "" && len(x) > 0 {
			x = x[:len(x)-1]
		}
		return slices.Clone(x)
	case []map[string]any:
		out := make([]any, len(x))
		for i, r := range x {
			out[i] = r
		}
		return out
	}
	return nil
}

// shrunk returns pv with cut[name] more items dropped from the end of each variable name: a list's omitted line
// counts every item dropped, by the limits and by the budget, and so does dropped "name".
func shrunk(pv *prepared, cut map[string]int, prog *Program) *prepared {
	q := pv.with(0)
	for name, k := range cut {
		v := prog.Project.Vars[name]
		base := baseItems(v, pv)
		keep := base[:len(base)-k]
		q.dropped[name] = pv.dropped[name] + k
		switch pv.data[name].(type) {
		case []string:
			items := make([]string, 0, len(keep)+1)
			for _, it := range keep {
				items = append(items, it.(string))
			}
			if line, ok := templates.OmittedLine(v, q.dropped[name], prog.markerTexts); ok {
				items = append(items, line.(string))
			}
			q.data[name] = items
		case []any:
			items := slices.Clone(keep)
			if line, ok := templates.OmittedLine(v, q.dropped[name], prog.markerTexts); ok {
				items = append(items, line)
			}
			q.data[name] = items
		case []map[string]any:
			recs := make([]map[string]any, len(keep))
			for i, r := range keep {
				recs[i] = r.(map[string]any)
			}
			q.data[name] = recs
		}
	}
	return q
}
