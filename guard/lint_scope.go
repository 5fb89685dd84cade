package guard

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/promptc/promptc/blocks"
)

// scopeInversion reports each runbook block that, in some task's order, comes before a block of a more stable scope.
// Everything after a block is cached only as widely as that block is shared, so the stable blocks after it lose the
// wider prefix they could be in. The order is read statically (every block a task's gate admits, whatever its when);
// the bytes and tokens come from the built runbooks.
func (l *linter) scopeInversion() {
	l.ran[LintScopeInversion] = true
	type inversion struct {
		b     *blocks.Block
		later []*blocks.Block // more stable blocks after b, in order
		seen  map[string]bool
		tasks []string
	}
	var order []*inversion
	byID := map[string]*inversion{}
	for _, task := range l.p.Tasks {
		var seq []*blocks.Block
		for _, id := range l.p.Runbook.Order {
			if b := l.slotBlock(id, task); b != nil {
				seq = append(seq, b)
			}
		}
		for i, b := range seq {
			r := blocks.ScopeRank(l.prog.Scope(b.ID))
			for _, c := range seq[i+1:] {
				rc := blocks.ScopeRank(l.prog.Scope(c.ID))
				if rc >= r {
					continue
				}
				inv := byID[b.ID]
				if inv == nil {
					inv = &inversion{b: b, seen: map[string]bool{}}
					byID[b.ID] = inv
					order = append(order, inv)
				}
				if len(inv.tasks) == 0 || inv.tasks[len(inv.tasks)-1] != task {
					inv.tasks = append(inv.tasks, task)
				}
				if !inv.seen[c.ID] {
					inv.seen[c.ID] = true
					inv.later = append(inv.later, c)
				}
			}
		}
	}
	for _, inv := range order {
		b := inv.b
		scope := l.prog.Scope(b.ID)
		r := blocks.ScopeRank(scope)
		// Order the later blocks as the runbook order has them (one task's sequence may not hold them all).
		sort.SliceStable(inv.later, func(i, j int) bool { return l.orderIndex(inv.later[i]) < l.orderIndex(inv.later[j]) })
		var names []string
		for i, c := range inv.later {
			if i == 3 && len(inv.later) > 4 {
				names = append(names, fmt.Sprintf("and %d more", len(inv.later)-3))
				break
			}
			names = append(names, fmt.Sprintf("%q (%s)", c.ID, l.prog.Scope(c.ID)))
		}
		// The cost: in the runbook where it is largest, the bytes of the more stable blocks rendered after b.
		bestBytes, bestTokens, where := 0, 0, ""
		for _, a := range l.arts {
			if a.Kind != blocks.Runbook {
				continue
			}
			after := false
			n, tokens := 0, 0
			for _, sp := range a.Spans {
				if sp.Block == b {
					after = true
					continue
				}
				if after && inv.seen[sp.Block.ID] && blocks.ScopeRank(sp.Scope) < r {
					n += sp.End - sp.Start
					tokens += l.tok.Count(a.Text[sp.Start:sp.End])
				}
			}
			if n > bestBytes {
				bestBytes, bestTokens, where = n, tokens, a.Path
			}
		}
		lost := "from being shared between sessions"
		if r == blocks.ScopeRank(blocks.ScopeTask) {
			lost = "out of the global prefix that every task shares"
		}
		cost := "no fixture renders it together with them, so the cost is not measured"
		if where != "" {
			cost = fmt.Sprintf("in %s this keeps %d bytes (~%d tokens, %s estimate) of stable text %s", where, bestBytes, bestTokens, l.tok.Encoding(), lost)
		}
		last := inv.later[len(inv.later)-1]
		free := "session-free (no session variables in its body or when)"
		if r == blocks.ScopeRank(blocks.ScopeTask) {
			free = "the same for every task (no tasks/except gate, no replaces, no .task)"
		}
		fix := fmt.Sprintf("move %q after %q in runbook.order, or make it %s", b.Slot, last.ID, free)
		what := fmt.Sprintf("block %q", b.ID)
		if b.Slot != b.ID {
			what = fmt.Sprintf("block %q (in the slot of %q)", b.ID, b.Slot)
		}
		l.add(LintScopeInversion, l.orderPos(b), b.ID, fix,
			"%s has %s scope but comes before more stable %s %s in %s %s: %s",
			what, scope, noun(len(inv.later), "block", "blocks"), strings.Join(names, ", "),
			noun(len(inv.tasks), "task", "tasks"), strings.Join(inv.tasks, ", "), cost)
	}
}

// slotBlock returns the block that fills slot id in task's runbook by the static gates (ignoring when): a replacing
// block that admits the task, else the slot's own block, else nil.
func (l *linter) slotBlock(id, task string) *blocks.Block {
	b := l.p.ByID[id]
	if b == nil || b.Slot != id {
		return nil
	}
	for _, r := range b.ReplacedBy {
		if r.AdmitsTask(task) {
			return r
		}
	}
	if b.AdmitsTask(task) {
		return b
	}
	return nil
}

func (l *linter) orderIndex(b *blocks.Block) int {
	for i, id := range l.p.Runbook.Order {
		if id == b.Slot {
			return i
		}
	}
	return len(l.p.Runbook.Order)
}

// orderPos is where b's slot is named in runbook.order, the line to edit; else the block itself.
func (l *linter) orderPos(b *blocks.Block) blocks.Pos {
	if pos, ok := l.p.Locate(l.p.Runbook.Pos, strconv.Quote(b.Slot)); ok {
		return pos
	}
	return b.Pos
}
