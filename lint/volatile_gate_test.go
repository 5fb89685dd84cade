package lint

import (
	"math/rand/v2"
	"slices"
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

// findVolatileOracle is findVolatile as first written: each match checked against every match kept, then sorted.
func findVolatileOracle(text string) []volatileMatch {
	var out []volatileMatch
	pats := volatilePatterns()
	for i := range pats {
		pat := &pats[i]
	next:
		for _, m := range pat.re.FindAllStringIndex(text, -1) {
			if pat.what == "a time of day" && timeInPath(text, m[0], m[1]) {
				continue
			}
			for _, o := range out {
				if m[0] < o.end && o.start < m[1] {
					continue next
				}
			}
			out = append(out, volatileMatch{m[0], m[1], pat})
		}
	}
	slices.SortFunc(out, func(a, b volatileMatch) int { return a.start - b.start })
	return out
}

// TestFindVolatileMerge: merging each pattern's matches in one pass keeps exactly the matches the pairwise check
// kept, in the same order, on texts where the patterns overlap each other.
func TestFindVolatileMerge(t *testing.T) {
	pieces := []string{"2024-05-01T10:00Z", "2024-05-01", "10:30", "12/31/1999", "May 3rd, 2021", "1700000000",
		"deadbeefcafebabe01", "9am", "today", "file.go:12:30", " ", "\n", "x", "-", "1712345678901", "20240501"}
	r := rand.New(rand.NewPCG(7, 8))
	for n := 0; n < 5000; n++ {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		got, want := findVolatile(text), findVolatileOracle(text)
		if !slices.Equal(got, want) {
			t.Fatalf("%q:\n got %v\nwant %v", text, got, want)
		}
	}
}

// TestHasWordFold: the one-pass check finds a relative word exactly when the text in lower case contains one.
func TestHasWordFold(t *testing.T) {
	pieces := []string{"Today", "toNIGHT", "yesterdaY", "TOMORROW", "Currently", "nowadays", "Right Now", "AS OF NOW",
		"as of Today", "At The Moment", "at present", "This ", "LAST ", "next ", "this", "las", "t", "o", "x", " ", "a", "s"}
	r := rand.New(rand.NewPCG(7, 8))
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for range 1 + r.IntN(4) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		want := slices.ContainsFunc(relativeWords, func(w string) bool { return strings.Contains(strings.ToLower(text), w) })
		if got := hasWordFold(text); got != want {
			t.Fatalf("hasWordFold(%q) = %v, want %v", text, got, want)
		}
	}
}
