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
// unless it has the highest priority present. It stops as soon as the message fits.
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
			total := len(baseItems(v, pv))
			entry := -1
			for k := 1; k <= total; k++ {
				cut[v.Name] = k
				q := shrunk(pv, cut, prog)
				r := prog.render(p.c, ti, p.level, q, nil)
				if r.err != nil {
					cut[v.Name] = k - 1 // this block cannot render with fewer items: keep what rendered
					break
				}
				used[p.c] = q
				p.text = r.text // trimmed by render
				n = prog.tokens(joined(pieces, sep))
				if entry < 0 {
					b.Cuts = append(b.Cuts, Cut{Block: p.c.ID, Var: v.Name})
					entry = len(b.Cuts) - 1
				}
				b.Cuts[entry].Items, b.Cuts[entry].Tokens = k, n
				if n <= limit {
					b.After = n
					return pieces, b, used
				}
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
