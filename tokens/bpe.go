package tokens

import (
	"sync"

	"github.com/dlclark/regexp2/v2"
	// The tokenizer's package registers compiled matchers for its split patterns: linking it makes the patterns
	// below, the same strings, run as compiled code rather than interpreted. Its vocabularies are not built.
	_ "github.com/tiktoken-go/tokenizer/codec"
)

// The patterns that split a text into pieces before byte-pair merging, as OpenAI's tiktoken defines them for each
// encoding.
const (
	o200kSplit  = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	cl100kSplit = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

// bpe counts tokens with one encoding: its split pattern and its vocabulary table.
type bpe struct {
	split *regexp2.Regexp
	vocab *table
}

var (
	o200kBPE  = sync.OnceValue(func() *bpe { return &bpe{regexp2.MustCompile(o200kSplit, regexp2.None), newTable(o200kTable)} })
	cl100kBPE = sync.OnceValue(func() *bpe { return &bpe{regexp2.MustCompile(cl100kSplit, regexp2.None), newTable(cl100kTable)} })
)

// count returns the number of tokens of text: each piece the pattern splits it into is one token when the
// vocabulary holds it, else the number of parts byte-pair merging leaves (merges). It fails only when the
// pattern's matcher does.
func (b *bpe) count(text string) (int, error) {
	n := 0
	m, err := b.split.FindStringMatch(text)
	for ; err == nil && m != nil; m, err = b.split.FindNextMatch(m) {
		piece := m.String()
		if _, ok := b.vocab.rank(piece); ok {
			n++
		} else {
			n += b.merges(piece)
		}
	}
	return n, err
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
