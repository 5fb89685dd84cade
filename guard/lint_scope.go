package guard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// scopeInversion reports each runbook block that, in some task's order, comes before a block of a more stable scope.
// Everything after a block is cached only as widely as that block is shared, so the stable blocks after it lose the
// wider prefix they could be in. The order is read statically (the block that fills each slot in a task by the
// gates alone, whatever its when); the bytes and tokens come from the built runbooks.
//
// The pass is linear in the blocks (times the number of distinct task sets their gates give): a project with tens
// of thousands of blocks lints in moments.
func (l *linter) scopeInversion() {
	l.ran[LintScopeInversion] = true
	slots := l.prog.Slots(blocks.Runbook)
	nTasks := len(l.p.Tasks)

	// Each block that fills a slot in some task, with the tasks it fills it in (its picks).
	type node struct {
		b     *blocks.Block
		slot  int // index of its slot in the runbook's slots
		order int // index in the project's blocks, to break ties within a slot
		rank  blocks.Scope
		picks taskSet
		// The inversion, once found: the tasks it happens in, how many more stable blocks come after it, the
		// first few of them and the last.
		tasks []string
		count int
		first []*node
		last  *node
	}
	blockOrder := make(map[*blocks.Block]int, len(l.p.Blocks))
	for i, b := range l.p.Blocks {
		blockOrder[b] = i
	}
	var nodes []*node
	bySlot := make([][]*node, len(slots))
	seqs := make([][]*node, nTasks) // per task, the blocks filling its slots, in order
	index := map[*blocks.Block]*node{}
	for si, s := range slots {
		for ti, task := range l.p.Tasks {
			b := s.Pick(task, nil)
			if b == nil {
				continue
			}
			n := index[b]
			if n == nil {
				rank, _ := l.prog.Scope(b.ID)
				n = &node{b: b, slot: si, order: blockOrder[b], rank: rank, picks: newTaskSet(nTasks)}
				index[b] = n
				nodes = append(nodes, n)
				bySlot[si] = append(bySlot[si], n)
			}
			n.picks.add(ti)
			seqs[ti] = append(seqs[ti], n)
		}
	}
	// The tasks in which each block comes before a more stable one: a pass from the end of each task's order.
	for ti, seq := range seqs {
		minAfter := blocks.ScopeTurn + 1
		for i := len(seq) - 1; i >= 0; i-- {
			n := seq[i]
			if minAfter < n.rank {
				n.tasks = append(n.tasks, l.p.Tasks[ti])
			}
			minAfter = min(minAfter, n.rank)
		}
	}
	for _, n := range nodes {
		slices.SortFunc(n.tasks, func(a, b string) int { return slices.Index(l.p.Tasks, a) - slices.Index(l.p.Tasks, b) })
	}

	// The more stable blocks after each one, in every task where both are picked: a pass from the end of the order,
	// with the blocks seen so far grouped by scope and task set. Each group keeps its blocks from the last slot to
	// the first, so the last element is the earliest block after the current slot.
	type group struct {
		picks taskSet
		nodes []*node
	}
	groups := map[blocks.Scope]map[string]*group{}
	before := func(a, b *node) int {
		if a.slot != b.slot {
			return a.slot - b.slot
		}
		return a.order - b.order
	}
	for si := len(slots) - 1; si >= 0; si-- {
		for _, n := range bySlot[si] {
			if len(n.tasks) == 0 {
				continue
			}
			var cands []*node
			for rank := blocks.ScopeGlobal; rank < n.rank; rank++ {
				for _, g := range groups[rank] {
					if !g.picks.intersects(n.picks) {
						continue
					}
					n.count += len(g.nodes)
					cands = append(cands, g.nodes[max(0, len(g.nodes)-4):]...)
					if n.last == nil || before(g.nodes[0], n.last) > 0 {
						n.last = g.nodes[0]
					}
				}
			}
			slices.SortFunc(cands, before)
			n.first = cands[:min(4, len(cands))]
		}
		for _, n := range bySlot[si] {
			byPicks := groups[n.rank]
			if byPicks == nil {
				byPicks = map[string]*group{}
				groups[n.rank] = byPicks
			}
			key := n.picks.key()
			g := byPicks[key]
			if g == nil {
				g = &group{picks: n.picks}
				byPicks[key] = g
			}
			g.nodes = append(g.nodes, n)
		}
	}

	cost := l.inversionCosts(func(b *blocks.Block) bool { n := index[b]; return n != nil && n.count > 0 })
	tokens := map[*assemble.Artifact]map[*blocks.Block]int{}
	for _, n := range nodes {
		if n.count == 0 {
			continue
		}
		b, r := n.b, n.rank
		var names []string
		for i, c := range n.first {
			if i == 3 && n.count > 4 {
				names = append(names, fmt.Sprintf("and %d more", n.count-3))
				break
			}
			names = append(names, fmt.Sprintf("%q (%s)", c.b.ID, c.rank))
		}
		lost := "from being shared between sessions"
		if r == blocks.ScopeTask {
			lost = "out of the global prefix that every task shares"
		}
		price := "no fixture renders it together with them, so the cost is not measured"
		if c := cost[b]; c.where != nil {
			if tokens[c.where] == nil {
				tokens[c.where] = l.tokensAfter(c.where)
			}
			price = fmt.Sprintf("in %s this keeps %d bytes (~%d tokens, %s estimate) of stable text %s", c.where.Path, c.bytes,
				tokens[c.where][b], l.tok.Encoding(), lost)
		}
		free := "session-free (no session variables in its body or when)"
		if r == blocks.ScopeTask {
			free = "the same for every task (no tasks/except gate, no replaces, no .task)"
		}
		fix := fmt.Sprintf("move %q after %q in runbook.order, or make it %s", b.Slot, n.last.b.ID, free)
		what := fmt.Sprintf("block %q", b.ID)
		if b.Slot != b.ID {
			what = fmt.Sprintf("block %q (in the slot of %q)", b.ID, b.Slot)
		}
		l.add(LintScopeInversion, l.orderRange(b), b.ID, fix,
			"%s has %s scope but comes before more stable %s %s in %s %s: %s",
			what, r, noun(n.count, "block", "blocks"), strings.Join(names, ", "),
			noun(len(n.tasks), "task", "tasks"), strings.Join(n.tasks, ", "), price)
	}
}

// inversionCost is where an inversion costs most: the runbook, and the bytes of stable text after the block there.
type inversionCost struct {
	where *assemble.Artifact
	bytes int
}

// inversionCosts finds, for each inverted block, the runbook in which the more stable blocks rendered after it are
// largest, in one pass from the end of each runbook. Only blocks that fill their slot in the runbook's task by the
// gates alone count, as in the static order the lint reads.
func (l *linter) inversionCosts(inverted func(*blocks.Block) bool) map[*blocks.Block]inversionCost {
	out := map[*blocks.Block]inversionCost{}
	for _, a := range l.arts {
		if a.Kind != blocks.Runbook {
			continue
		}
		var after [blocks.ScopeTurn + 1]int // bytes of the stable spans after the current one, by scope
		for i := len(a.Spans) - 1; i >= 0; i-- {
			sp := a.Spans[i]
			if !l.picked(sp.Block, a.Task) {
				continue
			}
			if inverted(sp.Block) {
				n := 0
				for s := blocks.ScopeGlobal; s < sp.Scope; s++ {
					n += after[s]
				}
				if n > out[sp.Block].bytes {
					out[sp.Block] = inversionCost{where: a, bytes: n}
				}
			}
			after[sp.Scope] += sp.End - sp.Start
		}
	}
	return out
}

// tokensAfter counts, for each block of a runbook, the tokens of the stable spans after it that inversionCosts
// counts in bytes, in one pass from the end.
func (l *linter) tokensAfter(a *assemble.Artifact) map[*blocks.Block]int {
	out := map[*blocks.Block]int{}
	var after [blocks.ScopeTurn + 1]int
	for i := len(a.Spans) - 1; i >= 0; i-- {
		sp := a.Spans[i]
		if !l.picked(sp.Block, a.Task) {
			continue
		}
		n := 0
		for s := blocks.ScopeGlobal; s < sp.Scope; s++ {
			n += after[s]
		}
		out[sp.Block] = n
		if sp.Scope < blocks.ScopeSession { // only what is more stable than some block is ever counted
			after[sp.Scope] += l.tok.Count(a.Text[sp.Start:sp.End])
		}
	}
	return out
}

// picked reports whether b fills its slot in task by the gates alone.
func (l *linter) picked(b *blocks.Block, task string) bool {
	s := l.slotOf(b)
	return s != nil && s.Pick(task, nil) == b
}

// slotOf returns the runbook slot b fills, or nil.
func (l *linter) slotOf(b *blocks.Block) *assemble.Slot {
	if l.slotIndex == nil {
		l.slotIndex = map[string]*assemble.Slot{}
		for _, s := range l.prog.Slots(blocks.Runbook) {
			l.slotIndex[s.Base.ID] = s
		}
	}
	return l.slotIndex[b.Slot]
}

// orderRange is where b's slot is named in runbook.order, the line to edit; else the block itself.
func (l *linter) orderRange(b *blocks.Block) blocks.Range {
	if i := slices.Index(l.p.Runbook.Order, b.Slot); i >= 0 {
		return l.p.Runbook.EntryRange(i)
	}
	return b.Range
}

// taskSet is a set of tasks, by their index in the manifest.
type taskSet []uint64

func newTaskSet(n int) taskSet { return make(taskSet, (n+63)/64) }

func (s taskSet) add(i int) { s[i/64] |= 1 << (i % 64) }

func (s taskSet) intersects(o taskSet) bool {
	for i := range s {
		if s[i]&o[i] != 0 {
			return true
		}
	}
	return false
}

// key is the set as a map key.
func (s taskSet) key() string {
	b := make([]byte, 0, 8*len(s))
	for _, w := range s {
		for k := 0; k < 8; k++ {
			b = append(b, byte(w>>(8*k)))
		}
	}
	return string(b)
}
