package guard

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMayBeVolatile: the pre-check never rules out a pattern that matches, on texts built from the pieces the
// patterns look for, case-folding letters (long s, Kelvin sign) and noise.
func TestMayBeVolatile(t *testing.T) {
	pieces := []string{"2024", "-05-01", "T10:00Z", "12/31/1999", "May 3rd, 2021", "1700000000", "deadbeefcafebabe01",
		"10:30 pm", "9am", "today", "TODAY", "laſt week", "thiſ month", "next quarter", "as of now", "right now",
		"123e4567-e89b-12d3-a456-426614174000", "abcdefab-abcd-abcd-abcd-abcdefabcdef", "K", "ſ", " ", "\n", "x", ":",
		"é", "At present", "currently"}
	r := rand.New(rand.NewPCG(5, 6))
	pats := volatilePatterns()
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for range 1 + r.IntN(5) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		may := mayBeVolatile(text)
		for i, p := range pats {
			if !may[i] && p.re.MatchString(text) {
				t.Fatalf("%q: pattern %d (%s) matches, but mayBeVolatile rules it out", text, i, p.what)
			}
		}
	}
	if len(pats) != len(mayBeVolatile("")) {
		t.Fatalf("%d patterns, %d pre-checks", len(pats), len(mayBeVolatile("")))
	}
}
