package source

import (
	"strings"
	"testing"
)

// TestFilePositions: the one conversion between byte offsets and line:column positions, columns in runes.
func TestFilePositions(t *testing.T) {
	f := NewFile("f", "ab\néé x\n\nz")
	for _, tt := range []struct {
		off  int
		want Pos
	}{
		{0, Pos{1, 1, 0}},
		{2, Pos{1, 3, 2}}, // the newline ends line 1
		{3, Pos{2, 1, 3}},
		{5, Pos{2, 2, 5}}, // é is two bytes, one column
		{7, Pos{2, 3, 7}},
		{10, Pos{3, 1, 10}}, // an empty line
		{11, Pos{4, 1, 11}},
		{12, Pos{4, 2, 12}}, // the end of the text
		{99, Pos{4, 2, 12}}, // clamped
		{-5, Pos{1, 1, 0}},
	} {
		if got := f.Pos(tt.off); got != tt.want {
			t.Errorf("Pos(%d) = %+v, want %+v", tt.off, got, tt.want)
		}
		if tt.off >= 0 && tt.off <= len(f.Text) {
			if back := f.Offset(tt.want.Line, tt.want.Column); back != tt.off {
				t.Errorf("Offset(%d, %d) = %d, want %d", tt.want.Line, tt.want.Column, back, tt.off)
			}
		}
	}
	for _, bad := range [][2]int{{0, 1}, {5, 1}, {1, 0}, {1, 4}, {2, 9}} {
		if got := f.Offset(bad[0], bad[1]); got != -1 {
			t.Errorf("Offset(%d, %d) = %d, want -1", bad[0], bad[1], got)
		}
	}
	if got := TextPos("a\nbc", 4); got != (Pos{2, 3, 4}) {
		t.Errorf("TextPos = %+v", got)
	}
}

// TestRangeString: positions print as path:line:col, "?" for what is unknown, and a file name that could act on a
// terminal or a log, or forge a line, is quoted.
func TestRangeString(t *testing.T) {
	for _, tt := range []struct {
		r    Range
		want string
	}{
		{Range{Filename: "a.toml", Start: Pos{Line: 2, Column: 3}}, "a.toml:2:3"},
		{Range{Filename: "a.toml"}, "a.toml:?:?"},
		{Range{}, "?:?:?"},
		{Range{Filename: "dir/ünï code.toml", Start: Pos{Line: 1, Column: 1}}, "dir/ünï code.toml:1:1"},
		{Range{Filename: "x\nblocks/evil.toml:1:1: forged", Start: Pos{Line: 1, Column: 1}}, `"x\nblocks/evil.toml:1:1: forged":1:1`},
		{Range{Filename: "\x1b[31mred", Start: Pos{Line: 1, Column: 1}}, `"\x1b[31mred":1:1`},
		{Range{Filename: "a\u202eb", Start: Pos{Line: 1, Column: 1}}, `"a\u202eb":1:1`},
		{Range{Filename: "bad\xff", Start: Pos{Line: 1, Column: 1}}, `"bad\xff":1:1`},
	} {
		if got := tt.r.String(); got != tt.want {
			t.Errorf("String() = %s, want %s", got, tt.want)
		}
	}
}

// TestFilePositionsLongLine: columns on a long line are exact (the checkpoints along it count runes, each
// multi-byte character once), and finding one costs a short count, not a scan from the line's start.
func TestFilePositionsLongLine(t *testing.T) {
	line := strings.Repeat("aé日🙂", 5000) // 10 bytes, 4 runes a repeat
	f := NewFile("f", "x\n"+line+"\nz")
	for _, k := range []int{0, 1, 257, 1024, 2047, 4999} {
		off := 2 + 10*k
		if got, want := f.Pos(off), (Pos{Line: 2, Column: 1 + 4*k, Byte: off}); got != want {
			t.Errorf("Pos(%d) = %+v, want %+v", off, got, want)
		}
		if back := f.Offset(2, 1+4*k); back != off {
			t.Errorf("Offset(2, %d) = %d, want %d", 1+4*k, back, off)
		}
	}
	if got := f.Pos(len(f.Text)); got != (Pos{Line: 3, Column: 2, Byte: len(f.Text)}) {
		t.Errorf("end = %+v", got)
	}
}
