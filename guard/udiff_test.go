package guard

import (
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want string
	}{
		{"equal", "x\n", "x\n", ""},
		{
			name: "one line changed in the middle",
			a:    "1\n2\n3\n4\n5\n6\n7\n8\n9\n",
			b:    "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
			want: "--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
		},
		{
			name: "change at the start",
			a:    "1\n2\n3\n4\n5\n",
			b:    "0\n2\n3\n4\n5\n",
			want: "--- a\n+++ b\n@@ -1,4 +1,4 @@\n-1\n+0\n 2\n 3\n 4\n",
		},
		{
			name: "two changes far apart make two hunks",
			a:    "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
			b:    "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve\n",
			want: "--- a\n+++ b\n@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+twelve\n",
		},
		{
			name: "two changes close together share a hunk",
			a:    "1\n2\n3\n4\n5\n6\n7\n",
			b:    "1\ntwo\n3\n4\n5\nsix\n7\n",
			want: "--- a\n+++ b\n@@ -1,7 +1,7 @@\n 1\n-2\n+two\n 3\n 4\n 5\n-6\n+six\n 7\n",
		},
		{
			name: "lines appended",
			a:    "1\n2\n",
			b:    "1\n2\n3\n",
			want: "--- a\n+++ b\n@@ -1,2 +1,3 @@\n 1\n 2\n+3\n",
		},
		{
			name: "from empty",
			a:    "",
			b:    "x\n",
			want: "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n",
		},
		{
			name: "missing final newline",
			a:    "x\n",
			b:    "x",
			want: "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+x\n\\ No newline at end of file\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := UnifiedDiff("a", "b", tt.a, tt.b, true, true)
			if got != tt.want {
				t.Errorf("UnifiedDiff =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestLineDiff: the lines tile both texts in order, a kept line has the same bytes in both, and the lines are the
// unified diff's.
func TestLineDiff(t *testing.T) {
	for _, tt := range []struct{ a, b string }{
		{"", ""}, {"x\n", "x\n"}, {"", "x\n"}, {"x\n", ""}, {"x\n", "x"}, {"x", "x\ny"},
		{"1\n2\n3\n4\n5\n", "0\n2\n3\n4\n5\n"},
		{"1\n2\n3\n4\n5\n6\n7\n", "1\ntwo\n3\n4\n5\nsix\n7\n"},
		{"héllo\nwörld\n", "héllo\nwörld!\n"},
	} {
		checkLineDiff(t, tt.a, tt.b)
	}
	got := LineDiff("1\n2\n3\n", "1\ntwo\n3\n")
	want := []DiffLine{{' ', 0, 2, 0, 2}, {'-', 2, 4, 2, 2}, {'+', 4, 4, 2, 6}, {' ', 4, 6, 6, 8}}
	if len(got) != len(want) {
		t.Fatalf("LineDiff = %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func checkLineDiff(t *testing.T, a, b string) {
	t.Helper()
	var ra, rb strings.Builder
	ai, bi := 0, 0
	for _, l := range LineDiff(a, b) {
		if l.AStart != ai || l.BStart != bi || l.AEnd < l.AStart || l.BEnd < l.BStart {
			t.Fatalf("LineDiff(%q, %q): line %+v does not follow a %d, b %d", a, b, l, ai, bi)
		}
		switch l.Op {
		case ' ':
			if a[l.AStart:l.AEnd] != b[l.BStart:l.BEnd] || l.AEnd == l.AStart {
				t.Fatalf("LineDiff(%q, %q): kept line %+v differs", a, b, l)
			}
		case '-':
			if l.BEnd != l.BStart || l.AEnd == l.AStart {
				t.Fatalf("LineDiff(%q, %q): removed line %+v", a, b, l)
			}
		case '+':
			if l.AEnd != l.AStart || l.BEnd == l.BStart {
				t.Fatalf("LineDiff(%q, %q): added line %+v", a, b, l)
			}
		default:
			t.Fatalf("LineDiff(%q, %q): op %q", a, b, l.Op)
		}
		ra.WriteString(a[l.AStart:l.AEnd])
		rb.WriteString(b[l.BStart:l.BEnd])
		ai, bi = l.AEnd, l.BEnd
	}
	if ra.String() != a || rb.String() != b {
		t.Fatalf("LineDiff(%q, %q) tiles %q and %q", a, b, ra.String(), rb.String())
	}
}

func FuzzLineDiff(f *testing.F) {
	f.Add("1\n2\n3\n", "1\ntwo\n3\n")
	f.Add("x\n", "x")
	f.Add("", "a\r\nb")
	f.Fuzz(func(t *testing.T, a, b string) { checkLineDiff(t, a, b) })
}

func TestUnifiedDiffMissingSide(t *testing.T) {
	got := UnifiedDiff("golden/x", "build/x", "", "a\n", false, true)
	want := "--- /dev/null\n+++ build/x\n@@ -0,0 +1 @@\n+a\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// BenchmarkDiffLarge diffs two 1 MiB artifacts that differ in one line: the size of a big runbook after a one-line
// edit. The target is 100 ms.
func BenchmarkDiffLarge(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 1<<20; i++ {
		sb.WriteString("- rule number ")
		sb.WriteString(strings.Repeat("x", i%50))
		sb.WriteString(" keeps the prefix stable\n")
	}
	a := sb.String()
	mid := strings.Index(a[len(a)/2:], "\n") + len(a)/2 + 1
	bText := a[:mid] + "- an edited line\n" + a[mid:]
	b.SetBytes(int64(len(a)))
	for b.Loop() {
		if UnifiedDiff("a", "b", a, bText, true, true) == "" {
			b.Fatal("no diff")
		}
	}
}
