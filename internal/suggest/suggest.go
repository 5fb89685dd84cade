package suggest

import (
	"math"
	"slices"
	"sync"
)

// maxSuggestDistance is the largest edit distance at which a name is suggested.
const maxSuggestDistance = 2

// Suggester finds, among a fixed set of names, the one closest to a misspelt name. Built once for a set of names, it
// answers any number of queries: a project with thousands of unknown names against thousands of blocks costs about
// as much per name as one does, since a large set is searched through a trie rather than name by name. It is safe
// for concurrent use.
type Suggester struct {
	names []string // sorted, without duplicates

	once sync.Once
	root *trieNode // built on the first query of a large set
}

// bruteForceLimit is the size up to which a set is searched name by name: for a few dozen names a trie costs more to
// build than it saves.
const bruteForceLimit = 64

type trieNode struct {
	r        rune
	word     int // 1 + the index in names of the name ending here; 0 for none
	children []*trieNode
}

// NewSuggester returns a suggester for names.
func NewSuggester(names []string) *Suggester {
	sorted := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == "" }) // "" is no suggestion
	slices.Sort(sorted)
	return &Suggester{names: slices.Compact(sorted)}
}

// Suggest returns the name closest to name within an edit distance of 2 (in runes), other than name itself, or ""
// when none is that close. Ties go to the name that sorts first, so the answer does not depend on the order the
// names were given in.
func (s *Suggester) Suggest(name string) string {
	if s == nil || len(s.names) == 0 {
		return ""
	}
	q := []rune(name)
	if len(s.names) <= bruteForceLimit {
		best, bestDist := "", maxSuggestDistance+1
		for _, c := range s.names {
			if c == name {
				continue
			}
			if d := distance(q, []rune(c), bestDist); d < bestDist {
				best, bestDist = c, d
			}
		}
		return best
	}
	s.once.Do(s.build)
	// Search for names one edit away, then two: each search stops at the first name it meets, which is the first in
	// sort order (the trie is walked in rune order), and a search with a smaller budget visits far fewer nodes.
	for limit := 1; limit <= maxSuggestDistance; limit++ {
		if w := s.first(q, limit); w > 0 {
			return s.names[w-1]
		}
	}
	return ""
}

// first returns 1 + the index of the first name, in sort order, within limit edits of q (q itself excepted), or 0.
func (s *Suggester) first(q []rune, limit int) int {
	row := make([]int, len(q)+1)
	for j := range row {
		row[j] = j
	}
	var walk func(n *trieNode, prev []int) int
	walk = func(n *trieNode, prev []int) int {
		for _, c := range n.children {
			cur := make([]int, len(prev))
			cur[0] = prev[0] + 1
			rowMin := cur[0]
			for j := 1; j < len(cur); j++ {
				cost := 1
				if q[j-1] == c.r {
					cost = 0
				}
				cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
				rowMin = min(rowMin, cur[j])
			}
			if d := cur[len(q)]; c.word > 0 && d > 0 && d <= limit {
				return c.word
			}
			if rowMin <= limit {
				if w := walk(c, cur); w > 0 {
					return w
				}
			}
		}
		return 0
	}
	return walk(s.root, row)
}

// DidYouMean formats the suggestion for name as ` (did you mean "x"?)`, or "" when there is none.
func (s *Suggester) DidYouMean(name string) string {
	if c := s.Suggest(name); c != "" {
		return ` (did you mean "` + c + `"?)`
	}
	return ""
}

func (s *Suggester) build() {
	s.root = &trieNode{}
	for i, name := range s.names {
		n := s.root
		for _, r := range name {
			k, found := slices.BinarySearchFunc(n.children, r, func(c *trieNode, r rune) int { return int(c.r) - int(r) })
			if !found {
				n.children = slices.Insert(n.children, k, &trieNode{r: r})
			}
			n = n.children[k]
		}
		n.word = i + 1
	}
}

// Suggest returns the candidate closest to name within an edit distance of 2, or "" when none is that close. Ties go
// to the candidate that sorts first. To look up many names among the same candidates, build a Suggester once.
func Suggest(name string, candidates []string) string { return NewSuggester(candidates).Suggest(name) }

// DidYouMean formats a suggestion as ` (did you mean "x"?)`, or "" when there is none.
func DidYouMean(name string, candidates []string) string {
	return NewSuggester(candidates).DidYouMean(name)
}

// Nearest returns the candidate closest to name at any edit distance, other than name itself, and whether there is
// one. Ties go to the candidate that sorts first. Unlike Suggest, it has no distance limit and "" is a candidate: it is
// for a message that must point somewhere ("the closest entry is"), after Suggest has found nothing close.
func Nearest(name string, candidates []string) (string, bool) {
	sorted := slices.Sorted(slices.Values(candidates))
	q := []rune(name)
	best, bestDist, found := "", math.MaxInt, false
	for _, c := range sorted {
		if c == name {
			continue
		}
		if d := distance(q, []rune(c), bestDist); d < bestDist {
			best, bestDist, found = c, d, true
		}
	}
	return best, found
}

// distance is the Levenshtein distance between a and b, or any value >= limit once it is known to be at least limit.
func distance(a, b []rune, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
