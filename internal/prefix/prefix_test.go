package prefix

import (
	"strings"
	"testing"
)

func TestCommon(t *testing.T) {
	long := strings.Repeat("abcdefgh", 3)
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "a", 0},
		{"a", "a", 1},
		{"abc", "abd", 2},
		{long, long, 24},
		{long + "x", long + "y", 24},
		{long[:7] + "X" + long[8:], long, 7},    // inside the first eight-byte word
		{long[:8] + "X" + long[9:], long, 8},    // the first byte of the second word
		{long[:15] + "X" + long[16:], long, 15}, // the last byte of a word
		{long, long[:20], 20},                   // one is a prefix of the other, not on a word boundary
		{"é", "è", 1},                           // bytes, not runes: both start with 0xC3
	} {
		if got := Common(tt.a, tt.b); got != tt.want {
			t.Errorf("Common(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Common(tt.b, tt.a); got != tt.want {
			t.Errorf("Common(%q, %q) = %d, want %d (argument order)", tt.b, tt.a, got, tt.want)
		}
	}
}

func FuzzCommon(f *testing.F) {
	f.Add("abcdefghij", "abcdefghiX")
	f.Fuzz(func(t *testing.T, a, b string) {
		n := Common(a, b)
		want := 0
		for want < len(a) && want < len(b) && a[want] == b[want] {
			want++
		}
		if n != want {
			t.Fatalf("Common(%q, %q) = %d, want %d", a, b, n, want)
		}
	})
}
