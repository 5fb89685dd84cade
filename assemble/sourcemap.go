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

// Segment is a part of a runbook that changes as one: the blocks shared by every task (ScopeGlobal), then those
// shared by every session of the task (ScopeTask), then the rest (ScopeSession). Providers cache a request's prefix
// up to a point, so a segment's end is where a cache breakpoint can pay: every request that shares the segments
// before it shares that prefix byte for byte.
type Segment struct {
	Start, End int // byte range [Start, End) of the artifact's Text
	// Scope is the scope of the prefix the segment completes: the least stable block of Text[:End] that the
	// segment's own scope allows. A block of a lower scope after one of a higher scope (a scope inversion, which
	// lint reports) belongs to the higher scope's segment: the prefix before it changes as often.
	Scope blocks.Scope
}

// Segments splits the artifact where its scope steps up: at PrefixEnd(ScopeGlobal) and PrefixEnd(ScopeTask). The
// segments tile Text, in order; empty ones are left out, so a runbook of global blocks alone is one segment, and an
// empty runbook has none. The separator before a block belongs to the segment before it, so each segment but the
// last ends with the blank line that separates it from the next.
func (a *Artifact) Segments() []Segment {
	var segs []Segment
	start := 0
	for _, cut := range []struct {
		end   int
		scope blocks.Scope
	}{
		{a.PrefixEnd(blocks.ScopeGlobal), blocks.ScopeGlobal},
		{a.PrefixEnd(blocks.ScopeTask), blocks.ScopeTask},
		{len(a.Text), blocks.ScopeSession},
	} {
		if cut.end > start {
			segs = append(segs, Segment{Start: start, End: cut.end, Scope: cut.scope})
			start = cut.end
		}
	}
	return segs
}
