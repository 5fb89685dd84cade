package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/source"
)

// scopeInversion reports the moves in runbook.order that put every task's runbook in order from most to least
// stable scope, one finding per move. Everything after a block is cached only as widely as that block is shared, so
// a less stable block before more stable ones keeps them out of the wider prefix they could be in.
//
// The order is read statically: in each task, the block that fills each slot by the gates alone, whatever its when.
// In each task, the blocks to keep in place are a longest run of the order that already goes from stable to
// volatile (ties: the one keeping more global blocks, then more task blocks, so that a session block moves down
// rather than the global blocks up); every other block moves, down after the last kept block more stable than it,
// or up before the first kept block less stable than it. Those places are gaps of runbook.order, a range of them
// per task (any gap between the two kept neighbours will do); the moves of one block in one direction whose ranges
// overlap across tasks are one finding, since one edit of runbook.order fixes them all. The bytes and tokens come
// from the built runbooks of the tasks a finding covers.
//
// The passes are linear in the blocks times the tasks: a project with tens of thousands of blocks lints in seconds.
func (l *linter) scopeInversion() {
	l.ran[ScopeInversion] = true
	slots := l.prog.Slots(blocks.Runbook)
	taskIndex := make(map[string]int, len(l.p.Tasks))
	for ti, task := range l.p.Tasks {
		taskIndex[task] = ti
	}
	var moves []*invMove
	byKey := map[invKey][]*invMove{}
	perTask := make([]map[*blocks.Block]*invMove, len(l.p.Tasks))
	for ti := range l.p.Tasks {
		perTask[ti] = map[*blocks.Block]*invMove{}
		var seq []invItem
		for si, s := range slots {
			if b := s.PickTask(ti); b != nil {
				rank, _ := l.prog.Scope(b.ID)
				seq = append(seq, invItem{b: b, slot: si, rank: min(rank, blocks.ScopeSession)})
			}
		}
		for _, tm := range taskMoves(seq, len(slots)) {
			key := invKey{tm.item.b, tm.down}
			var m *invMove
			for _, cand := range byKey[key] {
				if lo, hi := max(cand.lo, tm.lo), min(cand.hi, tm.hi); lo <= hi {
					m, cand.lo, cand.hi = cand, lo, hi
					break
				}
			}
			if m == nil {
				m = &invMove{invKey: key, slot: tm.item.slot, rank: tm.item.rank, lo: tm.lo, hi: tm.hi}
				byKey[key] = append(byKey[key], m)
				moves = append(moves, m)
			}
			m.tasks = append(m.tasks, ti)
			m.lost = max(m.lost, tm.lost)
			if tm.count > m.count {
				m.count, m.crossed = tm.count, tm.crossed
			}
			perTask[ti][tm.item.b] = m
		}
	}
	if len(moves) == 0 {
		return
	}
	l.inversionCosts(taskIndex, perTask)
	for _, m := range moves {
		l.reportMove(m, slots)
	}
}

// invItem is a block filling a runbook slot in one task.
type invItem struct {
	b    *blocks.Block
	slot int // index of its slot in runbook.order
	rank blocks.Scope
}

// invKey groups the moves of tasks: the block to move and the direction.
type invKey struct {
	b    *blocks.Block
	down bool
}

// taskMove is one block to move in one task's order.
type taskMove struct {
	item   invItem
	down   bool
	lo, hi int // the gaps of runbook.order it may move to: "before slot g" for lo <= g <= hi (g = len: at the end)
	// crossed lists the first few of the count blocks it must cross (the more stable ones after it when it moves
	// down, the less stable ones before it when it moves up); lost is the least stable scope on the wrong side of it.
	count   int
	crossed []invItem
	lost    blocks.Scope
}

// invMove is one finding: a block to move, where to, the tasks it fixes and what it costs them.
type invMove struct {
	invKey
	slot    int
	rank    blocks.Scope
	lo, hi  int
	tasks   []int // by index in the manifest, ascending
	count   int
	crossed []invItem
	lost    blocks.Scope

	runbooks int // built runbooks of the tasks
	where    *assemble.Artifact
	bytes    int
	tokens   int
}

// taskMoves finds the fewest blocks to move so that seq goes from most to least stable, and where each goes.
func taskMoves(seq []invItem, nslots int) []taskMove {
	m := len(seq)
	if m < 2 {
		return nil
	}
	// The longest non-decreasing run by scope, scored (length, global blocks kept, task blocks kept) in one number.
	w := int64(m + 1)
	score := make([]int64, m)
	prev := make([]int, m)
	bestEnd := [3]int{-1, -1, -1}
	for i, it := range seq {
		r := int(it.rank)
		p := -1
		for q := 0; q <= r; q++ {
			if j := bestEnd[q]; j >= 0 && (p < 0 || score[j] > score[p]) {
				p = j
			}
		}
		own := w * w
		switch it.rank {
		case blocks.ScopeGlobal:
			own += w
		case blocks.ScopeTask:
			own++
		}
		score[i], prev[i] = own, p
		if p >= 0 {
			score[i] += score[p]
		}
		if bestEnd[r] < 0 || score[i] > score[bestEnd[r]] {
			bestEnd[r] = i
		}
	}
	last := -1
	for _, j := range bestEnd {
		if j >= 0 && (last < 0 || score[j] > score[last]) {
			last = j
		}
	}
	kept := make([]bool, m)
	for j := last; j >= 0; j = prev[j] {
		kept[j] = true
	}
	if !slices.Contains(kept, false) {
		return nil
	}
	// For each scope: the last kept block more stable than it, the first kept block less stable than it.
	var lastBelow, firstAbove [3]int
	for r := range 3 {
		lastBelow[r], firstAbove[r] = -1, -1
		for i, it := range seq {
			if kept[i] && int(it.rank) < r {
				lastBelow[r] = i
			}
			if kept[i] && int(it.rank) > r && firstAbove[r] < 0 {
				firstAbove[r] = i
			}
		}
	}
	// Counts by scope before each position, to count what a move crosses.
	before := make([][3]int, m+1)
	for i, it := range seq {
		before[i+1] = before[i]
		before[i+1][it.rank]++
	}
	// nextBelow[r][i] and nextAbove[r][i]: the first position >= i more (less) stable than scope r, or m; so that
	// listing the first blocks a move crosses costs no scan.
	var nextBelow, nextAbove [3][]int
	for r := range 3 {
		nextBelow[r], nextAbove[r] = make([]int, m+1), make([]int, m+1)
		nextBelow[r][m], nextAbove[r][m] = m, m
		for i := m - 1; i >= 0; i-- {
			nextBelow[r][i], nextAbove[r][i] = nextBelow[r][i+1], nextAbove[r][i+1]
			if int(seq[i].rank) < r {
				nextBelow[r][i] = i
			}
			if int(seq[i].rank) > r {
				nextAbove[r][i] = i
			}
		}
	}
	var out []taskMove
	for i, it := range seq {
		if kept[i] {
			continue
		}
		r := int(it.rank)
		tm := taskMove{item: it, hi: nslots}
		if firstAbove[r] >= 0 {
			tm.hi = seq[firstAbove[r]].slot
		}
		if lastBelow[r] >= 0 {
			tm.lo = seq[lastBelow[r]].slot + 1
		}
		if lastBelow[r] > i {
			// Down, past the more stable blocks after it.
			tm.down, tm.lost = true, it.rank
			for q := 0; q < r; q++ {
				tm.count += before[m][q] - before[i+1][q]
			}
			for j := nextBelow[r][i+1]; j < m && len(tm.crossed) < 4; j = nextBelow[r][j+1] {
				tm.crossed = append(tm.crossed, seq[j])
			}
		} else {
			// Up, before the less stable blocks before it.
			for q := r + 1; q < 3; q++ {
				tm.count += before[i][q]
				if before[i][q] > 0 {
					tm.lost = blocks.Scope(q)
				}
			}
			for j := nextAbove[r][0]; j < i && len(tm.crossed) < 4; j = nextAbove[r][j+1] {
				tm.crossed = append(tm.crossed, seq[j])
			}
		}
		out = append(out, tm)
	}
	return out
}

// inversionCosts measures each move on the built runbooks of the tasks it covers, keeping the runbook where it
// costs most: for a block that moves down, the bytes of the more stable blocks after it; for one that moves up, its
// own bytes when a less stable block comes before it. Only blocks that fill their slot in the runbook's task by the
// gates alone count, as in the static order the lint reads. Tokens are counted once per chosen runbook.
func (l *linter) inversionCosts(taskIndex map[string]int, perTask []map[*blocks.Block]*invMove) {
	at := map[*invMove]int{}                    // the span measured in m.where
	pickedIn := map[*assemble.Artifact][]bool{} // per runbook, whether each span fills its slot by the gates
	for _, a := range l.arts {
		ti, ok := taskIndex[a.Task]
		if a.Kind != blocks.Runbook || !ok || len(perTask[ti]) == 0 {
			continue
		}
		picked := make([]bool, len(a.Spans))
		pickedIn[a] = picked
		worst := make([]blocks.Scope, len(a.Spans)) // the least stable picked scope before each span
		var w blocks.Scope
		for i, sp := range a.Spans {
			picked[i] = l.picked(sp.Block, ti)
			worst[i] = w
			if picked[i] {
				w = max(w, sp.Scope)
			}
		}
		counted := map[*invMove]bool{}
		var after [blocks.ScopeTurn + 1]int // bytes of the picked spans after the current one, by scope
		for i := len(a.Spans) - 1; i >= 0; i-- {
			sp := a.Spans[i]
			if !picked[i] {
				continue
			}
			if m := perTask[ti][sp.Block]; m != nil {
				if !counted[m] {
					counted[m] = true
					m.runbooks++
				}
				n := 0
				if m.down {
					for s := blocks.ScopeGlobal; s < sp.Scope; s++ {
						n += after[s]
					}
				} else if worst[i] > sp.Scope {
					n = sp.End - sp.Start
				}
				if n > m.bytes {
					m.where, m.bytes, at[m] = a, n, i
				}
			}
			after[sp.Scope] += sp.End - sp.Start
		}
	}
	tokens := map[*assemble.Artifact][][blocks.ScopeTurn + 1]int{}
	for m, i := range at {
		a := m.where
		if !m.down {
			m.tokens = l.tok.Count(a.Text[a.Spans[i].Start:a.Spans[i].End])
			continue
		}
		if tokens[a] == nil {
			tokens[a] = l.tokensAfter(a, pickedIn[a])
		}
		for s := blocks.ScopeGlobal; s < a.Spans[i].Scope; s++ {
			m.tokens += tokens[a][i][s]
		}
	}
}

// tokensAfter counts, for each span of a runbook, the tokens of the picked spans after it (picked: per span, whether
// it fills its slot by the gates), by scope, in one pass from the end.
func (l *linter) tokensAfter(a *assemble.Artifact, picked []bool) [][blocks.ScopeTurn + 1]int {
	out := make([][blocks.ScopeTurn + 1]int, len(a.Spans))
	var after [blocks.ScopeTurn + 1]int
	for i := len(a.Spans) - 1; i >= 0; i-- {
		out[i] = after
		sp := a.Spans[i]
		if sp.Scope < blocks.ScopeSession && picked[i] { // only what is more stable than some block is ever counted
			after[sp.Scope] += l.tok.Count(a.Text[sp.Start:sp.End])
		}
	}
	return out
}

// reportMove reports one move: the block, where it goes, the blocks it crosses, the tasks it fixes and the cost.
func (l *linter) reportMove(m *invMove, slots []*assemble.Slot) {
	b := m.b
	var names []string
	for i, c := range m.crossed {
		if i == 3 && m.count > 4 {
			names = append(names, fmt.Sprintf("and %d more", m.count-3))
			break
		}
		names = append(names, fmt.Sprintf("%q (%s)", c.b.ID, c.rank))
	}
	tasks := make([]string, len(m.tasks))
	for i, ti := range m.tasks {
		tasks[i] = l.p.Tasks[ti]
	}
	what := fmt.Sprintf("block %q", b.ID)
	if b.Slot != b.ID {
		what = fmt.Sprintf("block %q (in the slot of %q)", b.ID, b.Slot)
	}
	lost := "from being shared between sessions"
	if m.lost == blocks.ScopeTask {
		lost = "out of the global prefix that every task shares"
	}
	price := "no fixture renders these tasks, so the cost is not measured"
	if m.runbooks > 0 {
		price = fmt.Sprintf("over %s it keeps nothing out yet (no fixture renders the blocks together)", plural.Count(m.runbooks, "runbook"))
	}
	var fix, summary string
	move := MoveEntry{Entry: b.Slot, After: m.down}
	if m.down {
		anchor := slots[m.lo-1].Base.ID
		move.Anchor = anchor
		free := "session-free (no session variables in its body or when)"
		if m.rank == blocks.ScopeTask {
			free = "the same for every task (no tasks/except gate, no replaces, no .task)"
		}
		fix = fmt.Sprintf("move %q after %q in runbook.order (%s), or make it %s", b.Slot, anchor, l.p.Runbook.EntryRange(m.lo-1), free)
		if m.where != nil {
			price = fmt.Sprintf("over %s it keeps up to %d bytes (~%d tokens, %s estimate) of stable text %s, in %s",
				plural.Count(m.runbooks, "runbook"), m.bytes, m.tokens, l.tok.Encoding(), lost, m.where.Path)
		}
		summary = fmt.Sprintf("%s has %s scope but comes before %s %s in %s %s: %s",
			what, m.rank, plural.Noun(m.count, "more stable block", "more stable blocks"), strings.Join(names, ", "),
			plural.Noun(len(tasks), "task", "tasks"), strings.Join(tasks, ", "), price)
	} else {
		anchor := slots[m.hi].Base.ID
		move.Anchor = anchor
		fix = fmt.Sprintf("move %q before %q in runbook.order (%s)", b.Slot, anchor, l.p.Runbook.EntryRange(m.hi))
		if m.where != nil {
			price = fmt.Sprintf("over %s it keeps up to %d bytes (~%d tokens, %s estimate) of its own stable text %s, in %s",
				plural.Count(m.runbooks, "runbook"), m.bytes, m.tokens, l.tok.Encoding(), lost, m.where.Path)
		}
		summary = fmt.Sprintf("%s has %s scope but comes after %s %s in %s %s: %s",
			what, m.rank, plural.Noun(m.count, "less stable block", "less stable blocks"), strings.Join(names, ", "),
			plural.Noun(len(tasks), "task", "tasks"), strings.Join(tasks, ", "), price)
	}
	l.addFix(move, ScopeInversion, l.orderRange(b), b.ID, fix, "%s", summary)
}

// picked reports whether b fills its slot in the task of index ti by the gates alone.
func (l *linter) picked(b *blocks.Block, ti int) bool {
	s := l.slotOf(b)
	return s != nil && s.PickTask(ti) == b
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
func (l *linter) orderRange(b *blocks.Block) source.Range {
	if l.orderIndex == nil {
		l.orderIndex = make(map[string]int, len(l.p.Runbook.Order))
		for i, id := range l.p.Runbook.Order {
			if _, dup := l.orderIndex[id]; !dup {
				l.orderIndex[id] = i
			}
		}
	}
	if i, ok := l.orderIndex[b.Slot]; ok {
		return l.p.Runbook.EntryRange(i)
	}
	return b.Range
}
