package assemble

import (
	"sync"

	"github.com/promptc/promptc/tokens"
)

// The turn budget counts tokens with o200k_base, as promptc's reports do (see tokens.Counter). A text is split into
// lines, each cut right after a newline that a character other than white space and "/" follows, and each distinct
// piece is tokenized whole (tokens.Counter.CountExact) once and its count cached, so that recounting a message after
// one item is dropped tokenizes only the lines that changed. o200k_base's pre-tokenizer joins a newline with a
// following character only when it is white space or, after punctuation, a "/" ("}\n//" is one piece), so the
// pieces' counts add up to the whole text's exactly (TestLineCounterExact). The vocabulary is loaded on the first
// count, so a project without a budget never loads it.

// TokenCounter counts the tokens of a text. tokens.Counter is one.
type TokenCounter interface {
	Count(text string) int
}

// budgetCounter is the counter the turn budget uses unless Program.SetTokenCounter gives another.
var budgetCounter = sync.OnceValue(func() TokenCounter { return &paragraphCounter{} })

// paragraphCounter cuts a text into pieces and counts each with a tokens.Counter, which caches each distinct piece's
// count (a bounded cache): no cache of its own is needed.
type paragraphCounter struct {
	once sync.Once
	tok  *tokens.Counter
}

func (c *paragraphCounter) Count(text string) int {
	n, start := 0, 0
	for i := 0; i < len(text)-1; i++ {
		if cutAt(text[i], text[i+1]) {
			n += c.piece(text[start : i+1])
			start = i + 1
		}
	}
	if start < len(text) {
		n += c.piece(text[start:])
	}
	return n
}

// isSpace reports whether b starts a white space character (ASCII white space, or any non-ASCII byte, which may
// start a Unicode space: a cut is made only where it surely is not one).
func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f' || b >= 0x80
}

func (c *paragraphCounter) piece(p string) int {
	// Whole: Count's split after a blank line is not one the tokenizer makes when white space follows it.
	c.once.Do(func() { c.tok = tokens.New(tokens.O200k) })
	return c.tok.CountExact(p)
}
