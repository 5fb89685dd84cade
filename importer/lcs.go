package importer

// commonSections returns a longest common subsequence of a and b as pairs of indexes (i, j), a[i] == b[j], both
// ascending. Its cost stays near linear in len(a)+len(b) for what import meets: files that share a prefix or a
// suffix, or sections in the same order with some added or removed, or no sections at all in common. The
// common prefix and suffix are matched at once, sections that occur in only one of the two can match nothing
// and are set aside, and what remains is compared with Myers's O((N+M)·D) algorithm in linear space (D: the
// sections added and removed). When D is so large that the comparison would exceed a work budget linear in the
// input (files sharing many sections in very different orders), the sections between the common prefix and
// suffix are left unmatched: each becomes a block of its own, which the runbooks reproduce just as well.
func commonSections(a, b []int) [][2]int {
	var pairs [][2]int
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pairs = append(pairs, [2]int{pre, pre})
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ca, cb := a[pre:len(a)-suf], b[pre:len(b)-suf]

	// Keep, on each side, the sections the other side holds too, with their index in a and b.
	inA := make(map[int]bool, len(ca))
	for _, k := range ca {
		inA[k] = true
	}
	inB := make(map[int]bool, len(cb))
	for _, k := range cb {
		inB[k] = true
	}
	var fa, fb, ia, ib []int
	for i, k := range ca {
		if inB[k] {
			fa, ia = append(fa, k), append(ia, pre+i)
		}
	}
	for j, k := range cb {
		if inA[k] {
			fb, ib = append(fb, k), append(ib, pre+j)
		}
	}
	m := &myers{a: fa, b: fb, budget: lcsBudget(len(a) + len(b))}
	m.compare(0, len(fa), 0, len(fb))
	if !m.over {
		for _, p := range m.pairs {
			pairs = append(pairs, [2]int{ia[p[0]], ib[p[1]]})
		}
	}
	for k := suf; k > 0; k-- {
		pairs = append(pairs, [2]int{len(a) - k, len(b) - k})
	}
	return pairs
}

// lcsBudget is the number of steps commonSections may spend comparing n sections in all: enough for a few
// hundred sections added or removed in any file import reads.
func lcsBudget(n int) int { return 1<<20 + 512*n }

// myers finds a longest common subsequence of a and b by Myers's divide and conquer on the middle snake ("An
// O(ND) Difference Algorithm and Its Variations", 1986, section 4b), spending at most budget steps.
type myers struct {
	a, b   []int
	pairs  [][2]int // the matches found, ascending
	budget int
	over   bool // the budget ran out: pairs is incomplete
	vf, vb []int
}

// compare appends the matches of a[a0:a1] and b[b0:b1] to m.pairs, in order.
func (m *myers) compare(a0, a1, b0, b1 int) {
	for a0 < a1 && b0 < b1 && m.a[a0] == m.b[b0] {
		m.pairs = append(m.pairs, [2]int{a0, b0})
		a0, b0 = a0+1, b0+1
	}
	suf := 0
	for a1 > a0 && b1 > b0 && m.a[a1-1] == m.b[b1-1] {
		a1, b1, suf = a1-1, b1-1, suf+1
	}
	if a0 < a1 && b0 < b1 && !m.over {
		x, y, u, v, ok := m.middleSnake(a0, a1, b0, b1)
		if !ok {
			m.over = true
			return
		}
		// The snake runs from (x, y) to (u, v). Both halves are smaller than the whole: the prefix and suffix
		// stripped above leave at least two differences, and the middle snake lies between them.
		m.compare(a0, x, b0, y)
		for ; x < u; x, y = x+1, y+1 {
			m.pairs = append(m.pairs, [2]int{x, y})
		}
		m.compare(u, a1, v, b1)
	}
	for k := 0; k < suf; k++ {
		m.pairs = append(m.pairs, [2]int{a1 + k, b1 + k})
	}
}

// middleSnake returns the middle snake of an optimal edit path from (a0, b0) to (a1, b1): the diagonal run
// (x, y)→(u, v) where the forward and the backward searches meet. ok is false when the budget ran out.
func (m *myers) middleSnake(a0, a1, b0, b1 int) (x, y, u, v int, ok bool) {
	n, mm := a1-a0, b1-b0
	delta := n - mm
	maxD := (n + mm + 1) / 2
	off := maxD + 1
	if need := 2*off + 1; cap(m.vf) < need {
		m.vf, m.vb = make([]int, need), make([]int, need)
	}
	vf, vb := m.vf[:2*off+1], m.vb[:2*off+1]
	// vf[off+k]: the furthest x on forward diagonal k (x-y = k); vb[off+k]: the furthest x' on diagonal k of the
	// reversed sequences, whose point (x', y') is (n-x', mm-y') forwards, on forward diagonal delta-k.
	vf[off+1], vb[off+1] = 0, 0
	for d := 0; d <= maxD; d++ {
		if m.budget -= 2*d + 1; m.budget < 0 {
			return 0, 0, 0, 0, false
		}
		for k := -d; k <= d; k += 2 {
			var px int
			if k == -d || k != d && vf[off+k-1] < vf[off+k+1] {
				px = vf[off+k+1]
			} else {
				px = vf[off+k-1] + 1
			}
			py := px - k
			ex, ey := px, py
			for ex < n && ey < mm && m.a[a0+ex] == m.b[b0+ey] {
				ex, ey = ex+1, ey+1
			}
			m.budget -= ex - px
			vf[off+k] = ex
			if c := delta - k; delta%2 != 0 && c >= -(d-1) && c <= d-1 && ex+vb[off+c] >= n {
				return a0 + px, b0 + py, a0 + ex, b0 + ey, true
			}
		}
		for k := -d; k <= d; k += 2 {
			var px int
			if k == -d || k != d && vb[off+k-1] < vb[off+k+1] {
				px = vb[off+k+1]
			} else {
				px = vb[off+k-1] + 1
			}
			py := px - k
			ex, ey := px, py
			for ex < n && ey < mm && m.a[a1-1-ex] == m.b[b1-1-ey] {
				ex, ey = ex+1, ey+1
			}
			m.budget -= ex - px
			vb[off+k] = ex
			if c := delta - k; delta%2 == 0 && c >= -d && c <= d && ex+vf[off+c] >= n {
				return a1 - ex, b1 - ey, a1 - px, b1 - py, true
			}
		}
	}
	return 0, 0, 0, 0, false // not reached: the searches meet by d = maxD
}
