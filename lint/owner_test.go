package lint

import (
	"testing"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// TestOwnerAt: the byte right after a body belongs to no block, the first and last bytes of a body to it, and a
// file where two bodies overlap (one template file read by two blocks) answers in project order.
func TestOwnerAt(t *testing.T) {
	rng := func(file string, start, end int) source.Range {
		return source.Range{Filename: file, Start: source.Pos{Byte: start}, End: source.Pos{Byte: end}}
	}
	l := &linter{bodies: []*lintBody{
		{b: &blocks.Block{ID: "a", BodyRange: rng("x.toml", 10, 20)}},
		{b: &blocks.Block{ID: "b", BodyRange: rng("x.toml", 30, 40)}},
		{b: &blocks.Block{ID: "t1", BodyRange: rng("templates/t.md", 0, 50)}},
		{b: &blocks.Block{ID: "t2", BodyRange: rng("templates/t.md", 0, 50)}},
	}}
	for _, tc := range []struct {
		file string
		off  int
		want string
	}{
		{"x.toml", 9, ""}, {"x.toml", 10, "a"}, {"x.toml", 19, "a"}, {"x.toml", 20, ""}, {"x.toml", 29, ""},
		{"x.toml", 30, "b"}, {"x.toml", 39, "b"}, {"x.toml", 40, ""}, {"templates/t.md", 5, "t1"},
		{"templates/t.md", 50, ""}, {"y.toml", 12, ""},
	} {
		if got := l.ownerAt(tc.file, tc.off); got != tc.want {
			t.Errorf("ownerAt(%s, %d) = %q, want %q", tc.file, tc.off, got, tc.want)
		}
	}
}
