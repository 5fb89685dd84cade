package assemble

import (
	"strings"
	"sync"

	"github.com/tiktoken-go/tokenizer/codec"
)

// The turn budget counts tokens as promptc's reports do (o200k_base, see guard.Counter): each paragraph of a text
// (split after each run of blank lines) is tokenized once and its count cached, so that recounting a message after
// one item is dropped tokenizes only the paragraph that changed. The vocabulary is loaded on the first count, so a
// project without a budget never loads it.

// TokenCounter counts the tokens of a text. guard.Counter is one.
type TokenCounter interface {
	Count(text string) int
}

// budgetCounter is the counter the turn budget uses unless Program.SetTokenCounter gives another.
var budgetCounter = sync.OnceValue(func() TokenCounter { return &paragraphCounter{cache: map[string]int{}} })

type paragraphCounter struct {
	once  sync.Once
	codec *codec.Codec
	mu    sync.Mutex
	cache map[string]int
}

func (c *paragraphCounter) Count(text string) int {
	n := 0
	for len(text) > 0 {
		i := strings.Index(text, "\n\n")
		var piece string
		if i < 0 {
			piece, text = text, ""
		} else {
			j := i + 2
			for j < len(text) && text[j] == '\n' {
				j++
			}
			piece, text = text[:j], text[j:]
		}
		n += c.piece(piece)
	}
	return n
}

func (c *paragraphCounter) piece(p string) int {
	c.mu.Lock()
	n, ok := c.cache[p]
	c.mu.Unlock()
	if ok {
		return n
	}
	c.once.Do(func() { c.codec = codec.NewO200kBase() })
	n, err := c.codec.Count(p)
	if err != nil {
		n = (len(p) + 3) / 4 // only invalid UTF-8 fails, and artifacts are valid UTF-8
	}
	c.mu.Lock()
	if len(c.cache) > 1<<16 {
		clear(c.cache) // a long-running platform renders many turns: bound what the cache holds
	}
	c.cache[p] = n
	c.mu.Unlock()
	return n
}
