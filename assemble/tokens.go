package assemble

import (
	"sync"

	"github.com/promptc/promptc/tokens"
)

// The turn budget counts tokens with o200k_base, as promptc's reports do, but exactly: with
// tokens.Counter.CountLines, which cuts a text only where the tokenizer splits it too (tokens.LineCut) and counts each
// distinct line once, so that recounting a message after one item is dropped tokenizes only the lines that changed,
// and the count is the whole text's (TestLineCounterExact). The reports' tokens.Counter.Count cuts at blank lines and
// estimates; a budget must not, since what it drops depends on the count. The vocabulary is loaded on the first
// count, so a project without a budget never loads it.

// TokenCounter counts the tokens of a text. tokens.Counter is one.
type TokenCounter interface {
	Count(text string) int
}

// budgetCounter is the counter the turn budget uses unless Program.SetTokenCounter gives another.
var budgetCounter = sync.OnceValue(func() TokenCounter { return &paragraphCounter{} })

// paragraphCounter is tokens.Counter.CountLines, with the counter made on the first count; budgetcount.go cuts the
// texts it indexes at the same places (tokens.LineCut) and counts their pieces with piece.
type paragraphCounter struct {
	once sync.Once
	tok  *tokens.Counter
}

func (c *paragraphCounter) counter() *tokens.Counter {
	c.once.Do(func() { c.tok = tokens.New(tokens.O200k) })
	return c.tok
}

func (c *paragraphCounter) Count(text string) int { return c.counter().CountLines(text) }

// piece counts a piece cut at tokens.LineCut, whole.
func (c *paragraphCounter) piece(p string) int { return c.counter().CountExact(p) }
