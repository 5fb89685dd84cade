package assemble

import (
	"strings"
	"testing"
)

// TestCovers checks the memoised occurrence search against the plain definition: an occurrence of t in s (possibly
// overlapping another) holds byte i.
func TestCovers(t *testing.T) {
	for _, tc := range []struct{ s, sub string }{
		{"abcab-ab", "ab"}, {"aaaa", "aa"}, {"xyz", "q"}, {"--sep--sep", "sep"}, {"aba", "aba"},
	} {
		tr := &trace{}
		for i := range len(tc.s) {
			want := false
			for j := 0; j+len(tc.sub) <= len(tc.s); j++ {
				if strings.HasPrefix(tc.s[j:], tc.sub) && j <= i && i < j+len(tc.sub) {
					want = true
				}
			}
			if got := tr.covers(occKey{entry: tc.sub}, tc.s, tc.sub, i); got != want {
				t.Errorf("covers(%q, %q, %d) = %v, want %v", tc.s, tc.sub, i, got, want)
			}
		}
	}
}
