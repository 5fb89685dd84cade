package lint

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// squeezeReference is squeezeSpace and squeezedOffsets in one plain pass, the definition the fast paths keep to.
func squeezeReference(s string) (string, []int) {
	var b strings.Builder
	var idx []int
	space := false
	for i, r := range s {
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
				idx = append(idx, i)
			}
			space = true
			continue
		}
		space = false
		n := b.Len()
		b.WriteRune(r)
		for k := n; k < b.Len(); k++ {
			idx = append(idx, i+k-n)
		}
	}
	return b.String(), idx
}

// FuzzSqueezeSpace: squeezeSpace, with its copy-free path, and squeezedOffsets agree with the reference on any text.
func FuzzSqueezeSpace(f *testing.F) {
	for _, s := range []string{"", "a b", "a  b", "a\tb", " lead", "trail ", "caf\u00e9\u00a0ok", "bad \xff byte", "\u2028", "x\r\ny"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, wantIdx := squeezeReference(s)
		if got := squeezeSpace(s); got != want {
			t.Fatalf("squeezeSpace(%q) = %q, want %q", s, got, want)
		}
		if got := squeezedOffsets(s); !slices.Equal(got, wantIdx) && len(got)+len(wantIdx) > 0 {
			t.Fatalf("squeezedOffsets(%q) = %v, want %v", s, got, wantIdx)
		}
	})
}
