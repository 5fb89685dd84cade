package lsp

import (
	"path/filepath"
	"testing"

	"github.com/promptc/promptc/source"
)

// The conversions between byte offsets and LSP positions, against positions counted by hand: é is one UTF-16 unit
// (two bytes), 🚀 two units (four bytes), — one unit (three bytes).
func TestPositions(t *testing.T) {
	text := "ab\nCafé 🚀 x\n— y\n\nlast"
	f := source.NewFile("t", text)
	for _, tc := range []struct {
		off  int
		want Position
	}{
		{0, Position{0, 0}},
		{2, Position{0, 2}},         // the end of line 1
		{3, Position{1, 0}},         // "C"
		{8, Position{1, 4}},         // the space after é
		{9, Position{1, 5}},         // 🚀
		{13, Position{1, 7}},        // the space after 🚀
		{14, Position{1, 8}},        // x
		{16, Position{2, 0}},        // —
		{19, Position{2, 1}},        // the space after —
		{23, Position{4, 0}},        // "last", after an empty line
		{len(text), Position{4, 4}}, // the end of the file
	} {
		if got := toRange(f, f.Range(tc.off, tc.off)).Start; got != tc.want {
			t.Errorf("byte %d: %+v, want %+v", tc.off, got, tc.want)
		}
		if got := toPosition(text, tc.off); got != tc.want {
			t.Errorf("toPosition(%d) = %+v, want %+v", tc.off, got, tc.want)
		}
		if got := fromPosition(f, tc.want); got != tc.off {
			t.Errorf("fromPosition(%+v) = %d, want %d", tc.want, got, tc.off)
		}
	}
	// Past the end of a line or of the file: clamped.
	if got := fromPosition(f, Position{0, 99}); got != 2 {
		t.Errorf("past the end of line 1: %d, want 2", got)
	}
	if got := fromPosition(f, Position{99, 0}); got != len(text) {
		t.Errorf("past the last line: %d, want %d", got, len(text))
	}
	if got := fromPosition(f, Position{-1, 0}); got != 0 {
		t.Errorf("a negative line: %d", got)
	}
	// A range with no place in its file is the file's start; one whose file has no text uses line and column.
	if got := toRange(f, source.FileRange("t")); got != (Range{}) {
		t.Errorf("a whole-file range: %+v", got)
	}
	if got := toRange(nil, source.Range{Filename: "x", Start: source.Pos{Line: 3, Column: 5, Byte: 40}}); got.Start != (Position{2, 4}) {
		t.Errorf("a range of a file without text: %+v", got)
	}
	// An incremental change applies at UTF-16 positions.
	if got := applyChange("a🚀b", contentChange{Range: &Range{Position{0, 3}, Position{0, 4}}, Text: "c"}); got != "a🚀c" {
		t.Errorf("applyChange = %q", got)
	}
}

func TestURIs(t *testing.T) {
	for _, tc := range []struct {
		uri, path string
		ok        bool
	}{
		{"file:///home/a/promptc.toml", "/home/a/promptc.toml", true},
		{"file:///home/a%20b/x.md", "/home/a b/x.md", true},
		{"file:///home/a/../b/x.md", "/home/b/x.md", true},
		{"untitled:Untitled-1", "", false},
		{"http://example.com/x", "", false},
		{"file://", "", false},
		{"%zz", "", false},
	} {
		p, ok := uriPath(tc.uri)
		if ok != tc.ok || ok && p != filepath.FromSlash(tc.path) {
			t.Errorf("uriPath(%q) = %q, %v; want %q, %v", tc.uri, p, ok, tc.path, tc.ok)
		}
	}
	if got := pathURI(filepath.FromSlash("/home/a b/x.md")); got != "file:///home/a%20b/x.md" {
		t.Errorf("pathURI = %q", got)
	}
}
