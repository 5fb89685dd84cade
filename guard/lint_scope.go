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
// The passes are linear in the blocks (times the number of distinct task sets their gates give): a project with
// tens of thousands of blocks lints in seconds.
func (l *linter) scopeInversion() {
	l.ran[LintScopeInversion] = true
	g := l.inversionGraph()
	g.invertedTasks(l.p.Tasks)
	g.moreStableAfter()
	cost := l.inversionCosts(func(b *blocks.Block) bool { n := g.index[b]; return n != nil && n.count > 0 })
	tokens := map[*assemble.Artifact]map[*blocks.Block]int{}
	for _, n := range g.nodes {
		if n.count == 0 {
			continue
		}
		price := "no fixture renders it together with them, so the cost is not measured"
		if c := cost[n.b]; c.where != nil {
			if tokens[c.where] == nil {
				tokens[c.where] = l.tokensAfter(c.where)
			}
			lost := "from being shared between sessions"
			if n.rank == blocks.ScopeTask {
				lost = "out of the global prefix that every task shares"
			}
			price = fmt.Sprintf("in %s this keeps %d bytes (~%d tokens, %s estimate) of stable text %s", c.where.Path, c.bytes,
				tokens[c.where][n.b], l.tok.Encoding(), lost)
		}
		l.reportInversion(n, price)
	}
}

// invNode is a block that fills a runbook slot in some task, with the tasks it fills it in (its picks) and, once
// found, its inversion: the tasks it happens in, how many more stable blocks come after it, the first few of them
// and the last.
type invNode struct {
	b     *blocks.Block
	slot  int // index of its slot in the runbook's slots
	order int // index in the project's blocks, to break ties within a slot
	rank  blocks.Scope
	picks taskSet

	tasks []string
	count int
	first []*invNode
	last  *invNode
}

// before orders nodes as the runbook does: by slot, then project order.
func (a *invNode) before(b *invNode) int {
	if a.slot != b.slot {
		return a.slot - b.slot
	}
	return a.order - b.order
}

// invGraph is the runbook's static order in every task.
type invGraph struct {
	nodes  []*invNode
	index  map[*blocks.Block]*invNode
	bySlot [][]*invNode // the nodes of each slot
	seqs   [][]*invNode // per task, the nodes filling its slots, in order
}

func (l *linter) inversionGraph() *invGraph {
	slots := l.prog.Slots(blocks.Runbook)
	blockOrder := make(map[*blocks.Block]int, len(l.p.Blocks))
	for i, b := range l.p.Blocks {
		blockOrder[b] = i
	}
	g := &invGraph{index: map[*blocks.Block]*invNode{}, bySlot: make([][]*invNode, len(slots)), seqs: make([][]*invNode, len(l.p.Tasks))}
	for si, s := range slots {
		for ti, task := range l.p.Tasks {
			b := s.Pick(task, nil)
			if b == nil {
				continue
			}
			n := g.index[b]
			if n == nil {
				rank, _ := l.prog.Scope(b.ID)
				n = &invNode{b: b, slot: si, order: blockOrder[b], rank: rank, picks: newTaskSet(len(l.p.Tasks))}
				g.index[b] = n
				g.nodes = append(g.nodes, n)
				g.bySlot[si] = append(g.bySlot[si], n)
			}
			n.picks.add(ti)
			g.seqs[ti] = append(g.seqs[ti], n)
		}
	}
	return g
}

// invertedTasks finds the tasks in which each block comes before a more stable one: a pass from the end of each
// task's order.
func (g *invGraph) invertedTasks(tasks []string) {
	for ti, seq := range g.seqs {
		minAfter := blocks.ScopeTurn + 1
		for i := len(seq) - 1; i >= 0; i-- {
			n := seq[i]
			if minAfter < n.rank {
				n.tasks = append(n.tasks, tasks[ti])
			}
			minAfter = min(minAfter, n.rank)
		}
	}
	for _, n := range g.nodes {
		slices.SortFunc(n.tasks, func(a, b string) int { return slices.Index(tasks, a) - slices.Index(tasks, b) })
	}
}

// moreStableAfter finds, for each inverted block, the more stable blocks after it in every task where both are
// picked: a pass from the end of the order, with the blocks seen so far grouped by scope and task set. Each group
// keeps its blocks from the last slot to the first, so its last element is the earliest block after the current
// slot, and its first the latest.
func (g *invGraph) moreStableAfter() {
	type group struct {
		picks taskSet
		nodes []*invNode
	}
	groups := map[blocks.Scope]map[string]*group{}
	for si := len(g.bySlot) - 1; si >= 0; si-- {
		for _, n := range g.bySlot[si] {
			if len(n.tasks) == 0 {
				continue
			}
			var cands []*invNode
			for rank := blocks.ScopeGlobal; rank < n.rank; rank++ {
				for _, gr := range groups[rank] {
					if !gr.picks.intersects(n.picks) {
						continue
					}
					n.count += len(gr.nodes)
					cands = append(cands, gr.nodes[max(0, len(gr.nodes)-4):]...)
					if n.last == nil || gr.nodes[0].before(n.last) > 0 {
						n.last = gr.nodes[0]
					}
				}
			}
			slices.SortFunc(cands, (*invNode).before)
			n.first = cands[:min(4, len(cands))]
		}
		for _, n := range g.bySlot[si] {
			if groups[n.rank] == nil {
				groups[n.rank] = map[string]*group{}
			}
			key := n.picks.key()
			gr := groups[n.rank][key]
			if gr == nil {
				gr = &group{picks: n.picks}
				groups[n.rank][key] = gr
			}
			gr.nodes = append(gr.nodes, n)
		}
	}
}

// reportInversion reports one inverted block, with price saying what it costs.
func (l *linter) reportInversion(n *invNode, price string) {
	b, r := n.b, n.rank
	var names []string
	for i, c := range n.first {
		if i == 3 && n.count > 4 {
			names = append(names, fmt.Sprintf("and %d more", n.count-3))
			break
		}
		names = append(names, fmt.Sprintf("%q (%s)", c.b.ID, c.rank))
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
