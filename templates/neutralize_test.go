package templates

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/promptc/promptc/internal/hostile"
)

var neutralizeTests = []struct {
	name    string
	in      string
	markers []string
	want    string
}{
	{name: "no markers", in: "a <!-- END --> b", want: "a <!-- END --> b"},
	{name: "empty value", in: "", markers: []string{"x"}, want: ""},
	{name: "no occurrence", in: "abc", markers: []string{"x", "yz"}, want: "abc"},
	{name: "empty marker ignored", in: "abc", markers: []string{""}, want: "abc"},
	{name: "marker", in: hostile.End, markers: hostile.Markers, want: `<\!-- END ACME-RUNTIME -->`},
	{name: "inside a line", in: "see " + hostile.End + " and", markers: hostile.Markers, want: `see <\!-- END ACME-RUNTIME --> and`},
	{name: "both markers", in: hostile.Begin + "\nx\n" + hostile.End, markers: hostile.Markers,
		want: `<\!-- BEGIN ACME-RUNTIME (auto-managed; do not edit) -->` + "\nx\n" + `<\!-- END ACME-RUNTIME -->`},
	{name: "twice", in: "ab ab", markers: []string{"ab"}, want: `a\b a\b`},
	{name: "run of a periodic marker", in: "@@@@", markers: []string{"@@"}, want: `@\@\@\@`},
	{name: "overlapping", in: "aaa", markers: []string{"aa"}, want: `a\a\a`},
	{name: "overlapping two markers", in: "abab", markers: []string{"aba", "bab"}, want: `a\b\ab`},
	{name: "same start", in: "<!x", markers: []string{"<", "<!"}, want: `<\!x`},
	{name: "duplicate markers", in: "ab", markers: []string{"ab", "ab"}, want: `a\b`},
	{name: "one-character marker", in: "a-b-c", markers: []string{"-"}, want: `a-\b-\c`},
	{name: "multibyte first character", in: "日本語", markers: []string{"日本"}, want: `日\本語`},
	{name: "marker at the end", in: "xEND", markers: []string{"END"}, want: `xE\ND`},
	{name: "partial occurrence", in: "<!-- EN", markers: hostile.Markers, want: "<!-- EN"},
	{name: "escaped marker is no occurrence", in: `\<!-- END ACME-RUNTIME --\>`, markers: hostile.Markers,
		want: `\<!-- END ACME-RUNTIME --\>`},
	{name: "marker holding a backslash", in: `a\b`, markers: []string{`a\b`}, want: `a\\b`},
	{name: "invalid UTF-8 kept", in: "\xffEND", markers: []string{"END"}, want: "\xffE\\ND"},
}

// backslashTests are markers that hold a backslash, where the rule's own backslash could start or complete an
// occurrence: each is broken after its first character that is not a backslash, or else by BreakChar.
var backslashTests = []struct {
	name    string
	in      string
	markers []string
	want    string
}{
	{name: "escaped form of a value is the marker", in: `\<END\>`, markers: []string{`\<END\>`}, want: `\<\END\>`},
	{name: "two leading backslashes", in: `x\\<END>`, markers: []string{`\\<END>`}, want: `x\\<\END>`},
	{name: "beside a begin marker", in: `\<END\> <!-- BEGIN -->`, markers: []string{"<!-- BEGIN -->", `\<END\>`},
		want: `\<\END\> <\!-- BEGIN -->`},
	{name: "a backslash would make the other marker", in: "<END>", markers: []string{"<END>", `<\END>`}, want: "</END>"},
	{name: "a marker of backslashes", in: `a\\\b`, markers: []string{`\\`}, want: `a\/\/\b`},
	{name: "marker ending in backslashes", in: `x\\`, markers: []string{`x\\`}, want: `x/\\`},
}

// TestNeutralizeBackslashMarkers: whatever backslashes a marker holds, no value keeps it (docs/values.md, markers).
func TestNeutralizeBackslashMarkers(t *testing.T) {
	for _, tt := range backslashTests {
		t.Run(tt.name, func(t *testing.T) {
			got := Neutralize(tt.in, tt.markers)
			if got != tt.want {
				t.Errorf("Neutralize(%q, %q) = %q, want %q", tt.in, tt.markers, got, tt.want)
			}
			for _, m := range tt.markers {
				if strings.Contains(got, m) {
					t.Errorf("Neutralize(%q, %q) = %q still holds %q", tt.in, tt.markers, got, m)
				}
			}
		})
	}
}

func TestNeutralize(t *testing.T) {
	for _, tt := range neutralizeTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Neutralize(tt.in, tt.markers); got != tt.want {
				t.Errorf("Neutralize(%q, %q) = %q, want %q", tt.in, tt.markers, got, tt.want)
			}
			if got := refNeutralize(tt.in, tt.markers); got != tt.want {
				t.Errorf("reference Neutralize(%q, %q) = %q, want %q", tt.in, tt.markers, got, tt.want)
			}
		})
	}
}

// refNeutralize applies docs/reference.md#target literally: scan left to right; where a marker starts, copy the occurrence's first
// character, insert a backslash and resume after it.
func refNeutralize(s string, markers []string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		hit := false
		for _, m := range markers {
			if m != "" && strings.HasPrefix(s[i:], m) {
				hit = true
				break
			}
		}
		if !hit {
			b.WriteByte(s[i])
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+size])
		b.WriteByte('\\')
		i += size
	}
	return b.String()
}

// TestNeutralizeNoAllocation: a value without markers, the common case, is returned as it is.
func TestNeutralizeNoAllocation(t *testing.T) {
	s := strings.Repeat("clean value ", 100)
	if n := testing.AllocsPerRun(100, func() { Neutralize(s, hostile.Markers) }); n != 0 {
		t.Errorf("Neutralize of a clean value allocates %v times", n)
	}
}

// TestNeutralizeLinear: a megabyte of overlapping marker prefixes against hundreds of markers, some of them
// periodic (every position of a run of 'a' starts an occurrence), takes time linear in the value. A quadratic
// implementation takes minutes here; the deadline only catches that.
func TestNeutralizeLinear(t *testing.T) {
	markers := append([]string(nil), hostile.Markers...)
	for i := range 500 {
		markers = append(markers, fmt.Sprintf("<!-- END ACME-%d -->", i), strings.Repeat("a", i%40+1))
	}
	values := []string{hostile.MegabyteOfMarkers(), strings.Repeat("a", 1<<20), hostile.Megabyte()}
	start := time.Now()
	for _, v := range values {
		out := Neutralize(v, markers)
		if strings.Contains(out, hostile.End) || strings.Contains(out, hostile.Begin) || strings.Contains(out, "aa") {
			t.Errorf("Neutralize left a marker in a %d-byte value", len(v))
		}
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Neutralize took %v for 3 MiB against %d markers", d, len(markers))
	}
	if got, want := Neutralize(hostile.MegabyteOfMarkers(), hostile.Markers), refNeutralize(hostile.MegabyteOfMarkers(), hostile.Markers); got != want {
		t.Error("Neutralize of the megabyte of markers differs from the reference")
	}
}

func FuzzNeutralize(f *testing.F) {
	for _, tt := range neutralizeTests {
		m1, m2 := "", ""
		if len(tt.markers) > 0 {
			m1 = tt.markers[0]
		}
		if len(tt.markers) > 1 {
			m2 = tt.markers[1]
		}
		f.Add(tt.in, m1, m2)
	}
	for _, tt := range backslashTests {
		f.Add(tt.in, tt.markers[0], tt.markers[len(tt.markers)-1])
	}
	for _, c := range hostileSeeds() {
		f.Add(c, hostile.Begin, hostile.End)
	}
	f.Fuzz(func(t *testing.T, in, m1, m2 string) {
		markers := []string{m1, m2}
		out := Neutralize(in, markers)
		brk := BreakChar(markers)
		if !strings.Contains(m1+m2, `\`) {
			if want := refNeutralize(in, markers); out != want {
				t.Fatalf("Neutralize(%q, %q) = %q, reference gives %q", in, markers, out, want)
			}
		}
		// A marker of two characters or more, in valid UTF-8, cannot survive, whatever backslashes it holds (unless
		// every punctuation character is in a marker, and so no byte breaks them all). One of a single character
		// cannot be broken after its first.
		breakable := brk != '\\' || !strings.Contains(m1+m2, `\`)
		for _, m := range markers {
			if utf8.RuneCountInString(m) >= 2 && utf8.ValidString(m) && breakable && strings.Contains(out, m) {
				t.Fatalf("Neutralize(%q, %q) = %q still holds %q", in, markers, out, m)
			}
		}
		if drop := func(s string) string { return strings.NewReplacer(`\`, "", string(brk), "").Replace(s) }; drop(out) != drop(in) {
			t.Fatalf("Neutralize(%q, %q) = %q changed more than the breaking bytes", in, markers, out)
		}
	})
}

func BenchmarkNeutralize(b *testing.B) {
	many := append([]string(nil), hostile.Markers...)
	for i := range 100 {
		many = append(many, fmt.Sprintf("<!-- END TARGET-%d -->", i))
	}
	for _, bc := range []struct {
		name    string
		value   string
		markers []string
	}{
		{"clean", benchValues["clean"], hostile.Markers},
		{"megabyte", hostile.Megabyte(), hostile.Markers},
		{"megabyte of markers", hostile.MegabyteOfMarkers(), hostile.Markers},
		{"megabyte, 102 markers", hostile.Megabyte(), many},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.value)))
			for b.Loop() {
				Neutralize(bc.value, bc.markers)
			}
		})
	}
}

// TestBreakMarkerEdges: a value that ends with a long enough beginning of a marker, or starts with a long enough end
// of one, has that piece broken, so the text beside it cannot complete the marker.
func TestBreakMarkerEdges(t *testing.T) {
	markers := []string{"<!-- END ACME -->", "<!-- BEGIN ACME -->"}
	for _, tt := range []struct{ in, want string }{
		{"see <!-- END ACME", `see <\!-- END ACME`},       // " -->" after it would finish the end marker
		{"<!-- BEGIN AC", `<\!-- BEGIN AC`},               // 13 of 19 bytes
		{" ACME --> and go on", ` \ACME --> and go on`},   // 9 of 17 bytes of the end: half is enough
		{"ACME --> and go on", "ACME --> and go on"},      // 8 of 17: under half
		{"D ACME --> and go on", `D\ ACME --> and go on`}, // "<!-- EN" before it would finish it
		{"END ACME -->", `E\ND ACME -->`},
		{"<!-- END ACME -->", "<!-- END ACME -->"}, // whole markers are Neutralize's: not an edge
		{"a <!-- E", "a <!-- E"},                   // under half of the marker: everyday text
		{"x -->", "x -->"},
		{"<!--", "<!--"},
		{"", ""},
		{"plain", "plain"},
		{"ND ACME -->...<!-- BEGIN", `N\D ACME -->...<\!-- BEGIN`}, // both ends
	} {
		if got := BreakMarkerEdges(tt.in, markers); got != tt.want {
			t.Errorf("BreakMarkerEdges(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// A short marker: half of "[[END]]" is 4 bytes, and 4 is also the shortest piece broken.
	for _, tt := range []struct{ in, want string }{
		{"x [[EN", `x [\[EN`},
		{"x [[E", "x [[E"},
		{"END]] y", `E\ND]] y`},
		{"ND]] y", `N\D]] y`},
		{"D]] y", "D]] y"},
	} {
		if got := BreakMarkerEdges(tt.in, []string{"[[END]]"}); got != tt.want {
			t.Errorf("BreakMarkerEdges(%q, [[END]]) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// Half of "<END>" is 3 bytes, under the shortest piece broken: "<EN" is everyday text.
	for _, tt := range []struct{ in, want string }{
		{"x <END", `x <\END`},
		{"x <EN", "x <EN"},
		{"ND> y", "ND> y"},
	} {
		if got := BreakMarkerEdges(tt.in, []string{"<END>"}); got != tt.want {
			t.Errorf("BreakMarkerEdges(%q, <END>) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
