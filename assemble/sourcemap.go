package assemble

import (
	"sort"

	"github.com/promptc/promptc/blocks"
)

// Span attributes a byte range of an artifact to the block that produced it. The spans of an artifact tile it: the
// separator before a block belongs to that block, and the final newline to the last block.
type Span struct {
	Start, End int // byte range [Start, End)
	// TextStart is where the block's own text (its heading, or its body) starts, after the separator.
	TextStart int
	Block     *blocks.Block
	Scope     blocks.Scope
}

// SpanAt returns the span holding byte off, or false when off is outside the artifact.
func (a *Artifact) SpanAt(off int) (Span, bool) {
	i := sort.Search(len(a.Spans), func(i int) bool { return a.Spans[i].End > off })
	if i == len(a.Spans) || off < a.Spans[i].Start {
		return Span{}, false
	}
	return a.Spans[i], true
}

// PrefixEnd returns the byte offset where the artifact's prefix of the given scope ends: for ScopeGlobal, where the
// text of its first non-global block starts; for ScopeTask, where its first session (or turn) block starts. When
// every block is at most that scope, it is the artifact's length.
func (a *Artifact) PrefixEnd(scope blocks.Scope) int {
	for _, s := range a.Spans {
		if s.Scope > scope {
			return s.TextStart
		}
	}
	return len(a.Text)
}
