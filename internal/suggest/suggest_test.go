package suggest_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/promptc/promptc/internal/suggest"
)

// fillers returns n names far (edit distance > 2) from every short name the tests below look up, to push a set past
// the size at which Suggester switches from a name-by-name search to a trie.
func fillers(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("filler_%03d", i)
	}
	return out
}

// TestSuggestTieBreak: among candidates at the best distance, the one that sorts first wins, whatever the order the
// candidates come in; a closer candidate beats one that sorts earlier; the name itself is never suggested.
func TestSuggestTieBreak(t *testing.T) {
	tests := []struct {
		name       string
		query      string
		candidates []string
		want       string
	}{
		{"ties sorted", "cat", []string{"cab", "cot", "cut"}, "cab"},
		{"ties reversed", "cat", []string{"cut", "cot", "cab"}, "cab"},
		{"ties shuffled", "cat", []string{"cot", "cut", "cab"}, "cab"},
		{"ties with repeats", "cat", []string{"cut", "cot", "cut", "cab", "cot"}, "cab"},
		{"closer beats first", "hello", []string{"help", "hell", "hallo"}, "hallo"},
		{"distance 2 ties", "abcd", []string{"xbcx", "axcx", "abxx"}, "abxx"},
		{"itself excluded", "cat", []string{"cat", "cot", "bat"}, "bat"},
		{"only itself", "cat", []string{"cat"}, ""},
		{"too far", "cat", []string{"dogs", "do", "catalog"}, ""},
		{"runes not bytes", "café", []string{"cafx", "cafe"}, "cafe"},
		{"no candidates", "cat", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := suggest.Suggest(tt.query, tt.candidates); got != tt.want {
				t.Errorf("Suggest(%q, %q) = %q, want %q", tt.query, tt.candidates, got, tt.want)
			}
			// The same set grown past the brute-force limit is searched through the trie, and must agree.
			large := append(fillers(100), tt.candidates...)
			slices.Reverse(large)
			if got := suggest.NewSuggester(large).Suggest(tt.query); got != tt.want {
				t.Errorf("Suggester(%d names).Suggest(%q) = %q, want %q", len(large), tt.query, got, tt.want)
			}
		})
	}
}

// TestSuggesterMatchesReference compares Suggester with a plain implementation of its contract on random sets drawn
// from small alphabets, where ties are common, with sets both below and above the brute-force limit.
func TestSuggesterMatchesReference(t *testing.T) {
	tests := []struct {
		name     string
		alphabet string
		maxLen   int
		setSize  int  // candidates drawn, before duplicates are dropped
		trie     bool // the distinct candidates are always more than the brute-force limit of 64
	}{
		{"ab, few", "ab", 4, 8, false},
		{"abc, few", "abc", 4, 40, false},
		{"abé, few", "abé", 4, 64, false},
		{"ab, many", "ab", 7, 400, true},
		{"abc, many", "abc", 5, 300, true},
		{"abé, many", "abé", 5, 300, true},
		{"abcd, many", "abcd", 4, 300, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(len(tt.name))))
			alphabet := []rune(tt.alphabet)
			// Candidates are never empty: the name-by-name search may pick "" (and so answer "no suggestion")
			// where the trie, which never looks at its root, picks the next best; no name a project declares is
			// empty.
			word := func(minLen int) string {
				var b strings.Builder
				for range minLen + rng.IntN(tt.maxLen+1-minLen) {
					b.WriteRune(alphabet[rng.IntN(len(alphabet))])
				}
				return b.String()
			}
			for i := range 300 {
				cands := make([]string, tt.setSize)
				for k := range cands {
					cands[k] = word(1)
				}
				if distinct := len(slices.Compact(slices.Sorted(slices.Values(cands)))); (distinct > 64) != tt.trie {
					t.Fatalf("%d distinct candidates: the case does not test the search it is meant for", distinct)
				}
				query := word(0)
				if i%3 == 0 {
					query = cands[rng.IntN(len(cands))] // the name itself is in the set
				}
				s := suggest.NewSuggester(cands)
				want := referenceSuggest(query, cands)
				for range 2 { // the trie is built on the first query and reused
					if got := s.Suggest(query); got != want {
						t.Fatalf("Suggest(%q) among %d names = %q (distance %d), want %q (distance %d); names: %q",
							query, len(cands), got, levenshtein([]rune(query), []rune(got)),
							want, levenshtein([]rune(query), []rune(want)), cands)
					}
				}
			}
		})
	}
}

// referenceSuggest is Suggest's contract written plainly: the candidate other than name at the smallest
// Levenshtein distance in runes, if that is at most 2, the one that sorts first among equals.
func referenceSuggest(name string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := levenshtein([]rune(name), []rune(c))
		if d < bestDist || (d == bestDist && c < best) {
			best, bestDist = c, d
		}
	}
	return best
}

func levenshtein(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
		}
	}
	return d[len(a)][len(b)]
}

// TestNearest: the closest candidate at any distance, the one that sorts first among equals, the name itself
// excepted, "" a candidate like any other; and on random sets, the plain reference's answer.
func TestNearest(t *testing.T) {
	tests := []struct {
		name       string
		query      string
		candidates []string
		want       string
		ok         bool
	}{
		{"far", "teams", []string{"discord", "slack"}, "slack", true},
		{"ties go to the first in sort order", "zzzz", []string{"bbbb", "aaaa", "cccc"}, "aaaa", true},
		{"close too", "slak", []string{"slack", "discord"}, "slack", true},
		{"empty candidate", "x", []string{"abc", ""}, "", true},
		{"itself excluded", "abc", []string{"abc", "xyzzy"}, "xyzzy", true},
		{"only itself", "abc", []string{"abc"}, "", false},
		{"none", "abc", nil, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := suggest.Nearest(tt.query, tt.candidates); got != tt.want || ok != tt.ok {
				t.Errorf("Nearest(%q, %q) = %q, %v, want %q, %v", tt.query, tt.candidates, got, ok, tt.want, tt.ok)
			}
		})
	}
	rng := rand.New(rand.NewPCG(2, 3))
	word := func() string {
		var b strings.Builder
		for range rng.IntN(7) {
			b.WriteByte("abc"[rng.IntN(3)])
		}
		return b.String()
	}
	for range 2000 {
		cands := make([]string, 1+rng.IntN(12))
		for k := range cands {
			cands[k] = word()
		}
		query := word()
		want, wantDist := "", -1
		for _, c := range cands {
			if c == query {
				continue
			}
			d := levenshtein([]rune(query), []rune(c))
			if wantDist < 0 || d < wantDist || (d == wantDist && c < want) {
				want, wantDist = c, d
			}
		}
		if got, ok := suggest.Nearest(query, cands); got != want || ok != (wantDist >= 0) {
			t.Fatalf("Nearest(%q, %q) = %q, %v, want %q (distance %d)", query, cands, got, ok, want, wantDist)
		}
	}
}
