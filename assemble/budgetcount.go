package assemble

import (
	"sort"
	"strings"

	"github.com/promptc/promptc/tokens"
)

// The turn budget counts the message after every item it drops (docs/reference.md#turn-budget). Counted whole, that
// is the whole message thousands of times. paragraphCounter's count of a text is the sum of its pieces' counts, and
// where it cuts depends only on the two bytes around a cut; so a message made of a few large texts that do not
// change (the blocks around the one being cut, the part of its output a Shrink reuses) and a few small ones that do
// is counted from the large texts' pieces, counted once (indexed), and the pieces that touch the small texts, which
// are counted again. TestSpansCount checks that this is the count of the whole text.

// wordCutAt reports whether o200k_base's pre-tokenizer surely splits text between bytes prev and next too: an ASCII
// letter followed by a space. A letter is matched only by the patterns of words, which end where the letters end
// unless a contraction follows ('s, 't, …, which starts with an apostrophe), the space starts the next match, and
// no pattern looks behind; so the count of the text is the sum of the counts of the two sides. index cuts there as
// well within a long line, so that a list printed on one line is not counted whole after every item dropped
// (TestIndexedExact).
func wordCutAt(prev, next byte) bool {
	return next == ' ' && ('a' <= prev && prev <= 'z' || 'A' <= prev && prev <= 'Z')
}

// longLine is how long a piece index lets grow before it cuts at words too.
const longLine = 128

// indexed is a text with the places paragraphCounter cuts it and the running count of its pieces.
type indexed struct {
	s    string
	cuts []int // every x in (0, len(s)) with tokens.LineCut(s[x-1], s[x]), and some with wordCutAt, in order
	sum  []int // sum[i] is the count of s[cuts[0]:cuts[i]]
}

func (c *paragraphCounter) index(s string) *indexed {
	ix := &indexed{s: s}
	last := 0
	for x := 1; x < len(s); x++ {
		if tokens.LineCut(s[x-1], s[x]) || x-last >= longLine && wordCutAt(s[x-1], s[x]) {
			ix.cuts = append(ix.cuts, x)
			last = x
		}
	}
	ix.sum = make([]int, len(ix.cuts))
	for i := 1; i < len(ix.cuts); i++ {
		ix.sum[i] = ix.sum[i-1] + c.piece(s[ix.cuts[i-1]:ix.cuts[i]])
	}
	return ix
}

// span is part of a message: bytes [start, end) of an indexed text, or (ix nil) the text s.
type span struct {
	ix         *indexed
	s          string
	start, end int
}

func (sp span) text() string {
	if sp.ix != nil {
		return sp.ix.s[sp.start:sp.end]
	}
	return sp.s
}

// countSpans counts the text the spans make, one after the other, as Count counts it.
func (c *paragraphCounter) countSpans(spans []span) int {
	n := 0
	var open []string // the piece being assembled, which ends at the next cut
	flush := func() {
		if len(open) > 0 {
			n += c.piece(strings.Join(open, ""))
			open = open[:0]
		}
	}
	var prev byte // the last byte so far
	started := false
	for _, sp := range spans {
		s := sp.text()
		if s == "" {
			continue
		}
		if started && tokens.LineCut(prev, s[0]) {
			flush()
		}
		if sp.ix == nil {
			from := 0
			for x := 1; x < len(s); x++ {
				if tokens.LineCut(s[x-1], s[x]) {
					open = append(open, s[from:x])
					flush()
					from = x
				}
			}
			open = append(open, s[from:])
		} else {
			// The cuts strictly inside the span are the indexed text's, and the pieces between them its pieces.
			cuts := sp.ix.cuts
			lo := sort.SearchInts(cuts, sp.start+1) // the first cut after start
			hi := sort.SearchInts(cuts, sp.end) - 1 // the last cut before end
			if lo <= hi {
				open = append(open, sp.ix.s[sp.start:cuts[lo]])
				flush()
				n += sp.ix.sum[hi] - sp.ix.sum[lo]
				open = append(open, sp.ix.s[cuts[hi]:sp.end])
			} else {
				open = append(open, s)
			}
		}
		prev, started = s[len(s)-1], true
	}
	flush()
	return n
}
