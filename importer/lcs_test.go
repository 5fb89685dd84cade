package importer

import (
	"math/rand/v2"
	"testing"
)

// lcsLength is the textbook dynamic programme, the oracle commonSections is checked against.
func lcsLength(a, b []int) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// checkPairs fails unless pairs is a common subsequence of a and b: both indexes ascending, the values equal.
func checkPairs(t *testing.T, a, b []int, pairs [][2]int) {
	t.Helper()
	for k, p := range pairs {
		if p[0] < 0 || p[0] >= len(a) || p[1] < 0 || p[1] >= len(b) || a[p[0]] != b[p[1]] {
			t.Fatalf("a=%v b=%v: pair %v does not match", a, b, p)
		}
		if k > 0 && (p[0] <= pairs[k-1][0] || p[1] <= pairs[k-1][1]) {
			t.Fatalf("a=%v b=%v: pairs %v then %v do not ascend", a, b, pairs[k-1], p)
		}
	}
}

func TestCommonSectionsIsLongest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		alphabet := 1 + r.IntN(6)
		a, b := make([]int, r.IntN(14)), make([]int, r.IntN(14))
		for i := range a {
			a[i] = r.IntN(alphabet)
		}
		for i := range b {
			b[i] = r.IntN(alphabet)
		}
		pairs := commonSections(a, b)
		checkPairs(t, a, b, pairs)
		if want := lcsLength(a, b); len(pairs) != want {
			t.Fatalf("a=%v b=%v: %d pairs %v, the longest common subsequence has %d", a, b, len(pairs), pairs, want)
		}
	}
}

// TestCommonSectionsBudget: sections shared in reverse order cost the comparison more than its budget; the
// prefix and suffix still match, what lies between does not, and the result is still a common subsequence.
func TestCommonSectionsBudget(t *testing.T) {
	const n = 40000
	a, b := make([]int, n+2), make([]int, n+2)
	a[0], b[0], a[n+1], b[n+1] = -1, -1, -2, -2
	for i := 1; i <= n; i++ {
		a[i], b[i] = i, n+1-i
	}
	pairs := commonSections(a, b)
	checkPairs(t, a, b, pairs)
	if len(pairs) != 2 || pairs[0] != [2]int{0, 0} || pairs[1] != [2]int{n + 1, n + 1} {
		t.Errorf("pairs = %v, want the prefix and the suffix only", pairs)
	}
}
