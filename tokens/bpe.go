package tokens

import (
	"sync"
	"unicode/utf8"
)

// bpe counts tokens with one encoding: its split pattern and its vocabulary table.
type bpe struct {
	split split
	vocab *table
}

var (
	o200kBPE  = sync.OnceValue(func() *bpe { return &bpe{splitO200k, newTable(o200kTable)} })
	cl100kBPE = sync.OnceValue(func() *bpe { return &bpe{splitCl100k, newTable(cl100kTable)} })
)

// count returns the number of tokens of text: each piece the pattern splits it into is one token when the
// vocabulary holds it, else the number of parts byte-pair merging leaves (merges). A text that is not valid UTF-8
// is read with U+FFFD for each byte that starts no character, as a regular expression engine reads it.
func (b *bpe) count(text string) int {
	if !utf8.ValidString(text) {
		text = string([]rune(text))
	}
	n := 0
	b.split.pieces(text, func(piece string) { n += b.pieceCount(piece) })
	return n
}

// pieceCount returns the number of tokens of one piece of the split.
func (b *bpe) pieceCount(piece string) int {
	if _, ok := b.vocab.rank(piece); ok {
		return 1
	}
	return b.merges(piece)
}

const noRank = ^uint32(0)

// merges splits piece into single bytes and merges, again and again, the two adjacent parts whose concatenation
// is the token of lowest rank (the leftmost pair among equal ranks), until no two adjacent parts make a token; it
// returns how many parts are left. A heap of candidate pairs makes it O(n log n) in the piece's length.
func (b *bpe) merges(piece string) int {
	n := int32(len(piece))
	if n < 2 {
		return int(n)
	}
	// Part boundaries 0..n in a linked list; rank[i] is the rank of the pair of parts starting at boundary i.
	next := make([]int32, n+1)
	prev := make([]int32, n+1)
	rank := make([]uint32, n+1)
	for i := range next {
		next[i], prev[i], rank[i] = int32(i)+1, int32(i)-1, noRank
	}
	next[n] = -1
	pairRank := func(i int32) uint32 {
		j := next[i]
		if j < 0 || next[j] < 0 {
			return noRank
		}
		if r, ok := b.vocab.rank(piece[i:next[j]]); ok {
			return r
		}
		return noRank
	}
	var h pairHeap
	for i := int32(0); i+2 <= n; i++ {
		if rank[i] = pairRank(i); rank[i] != noRank {
			h = append(h, pair{rank[i], i})
		}
	}
	h.init()
	parts := int(n)
	for len(h) > 0 {
		top := h.pop()
		i := top.at
		if rank[i] != top.rank {
			continue // stale: the pair changed since it was pushed
		}
		j := next[i]
		k := next[j]
		next[i] = k
		if k >= 0 {
			prev[k] = i
		}
		rank[j] = noRank
		parts--
		for _, x := range [2]int32{i, prev[i]} {
			if x < 0 {
				continue
			}
			if rank[x] = pairRank(x); rank[x] != noRank {
				h.push(pair{rank[x], x})
			}
		}
	}
	return parts
}

// pair is a candidate merge: the parts starting at boundary at, whose concatenation has rank rank.
type pair struct {
	rank uint32
	at   int32
}

// pairHeap is a min-heap of pairs by rank, then by position.
type pairHeap []pair

func (h pairHeap) less(a, b int) bool {
	return h[a].rank < h[b].rank || h[a].rank == h[b].rank && h[a].at < h[b].at
}

func (h pairHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *pairHeap) push(p pair) {
	*h = append(*h, p)
	for i := len(*h) - 1; i > 0; {
		parent := (i - 1) / 2
		if !h.less(i, parent) {
			break
		}
		(*h)[i], (*h)[parent] = (*h)[parent], (*h)[i]
		i = parent
	}
}

func (h *pairHeap) pop() pair {
	old := *h
	top := old[0]
	last := len(old) - 1
	old[0] = old[last]
	*h = old[:last]
	h.down(0)
	return top
}

func (h pairHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
