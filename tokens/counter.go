package tokens

import (
	"strings"
	"sync"
)

// Counter counts tokens. Texts are split into paragraphs and each distinct paragraph is tokenized once, so counting
// twenty runbooks that share most of their text costs little more than counting one. Splitting at blank lines can
// differ from tokenizing the whole text by a token per paragraph boundary at most: counts are estimates, and reports
// say so (CountExact does not split). The vocabulary is a table read in place from the binary (table.go), loaded on
// the first count, never before. A count takes time linear in the text (n log n in the longest piece the
// vocabulary does not hold). A Counter is safe for concurrent use.
type Counter struct {
	encoding Encoding
	once     sync.Once
	bpe      *bpe // set, under mu, once the vocabulary is loaded
	mu       sync.Mutex
	cache    map[string]int // paragraph -> count
	exact    map[string]int // text -> CountExact's count
}

// New returns a counter for encoding.
func New(encoding Encoding) *Counter {
	return &Counter{encoding: encoding, cache: map[string]int{}, exact: map[string]int{}}
}

// Encoding returns the counter's encoding.
func (c *Counter) Encoding() Encoding { return c.encoding }

// Count returns the estimated number of tokens of text.
func (c *Counter) Count(text string) int {
	n := 0
	for len(text) > 0 {
		// Split after each run of blank lines, keeping the separator with the paragraph before it.
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
		n += c.counted(c.cache, piece)
	}
	return n
}

// CountExact returns the number of tokens of text tokenized whole, as the encoding's own tokenizer counts it: no
// paragraph split, no estimate. Each distinct text is tokenized once, as Count's paragraphs are. It is for callers
// that cut a text only where the tokenizer itself would split (the turn budget), so that the sum of the parts'
// counts is the whole text's.
func (c *Counter) CountExact(text string) int {
	return c.counted(c.exact, text)
}

// Preload starts loading the vocabulary in the background and returns at once: a command that will count tokens
// calls it first, so that the load overlaps reading and compiling the project. Counting
// waits for the load to finish, as it does without Preload.
func (c *Counter) Preload() {
	go c.once.Do(c.load)
}

func (c *Counter) load() {
	b := o200kBPE
	if c.encoding == Cl100k {
		b = cl100kBPE
	}
	bpe := b()
	c.mu.Lock()
	c.bpe = bpe
	c.mu.Unlock()
}

// counted returns the count of p, tokenized whole, from cache or by tokenizing it and keeping the count there.
func (c *Counter) counted(cache map[string]int, p string) int {
	c.mu.Lock()
	n, ok := cache[p]
	c.mu.Unlock()
	if ok {
		return n
	}
	c.once.Do(c.load)
	n = c.bpe.count(p)
	c.mu.Lock()
	if len(cache) >= maxCached {
		// A platform that renders turns for days must not hold every paragraph it ever counted.
		clear(cache)
	}
	cache[p] = n
	c.mu.Unlock()
	return n
}

// maxCached bounds the paragraphs a Counter remembers; a command counts far fewer.
const maxCached = 1 << 17

// Counted returns how many distinct paragraphs the counter has counted, and whether it has loaded its
// vocabulary: what a test of a command that should count nothing checks.
func (c *Counter) Counted() (paragraphs int, loaded bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.cache) + len(c.exact), c.bpe != nil
}
