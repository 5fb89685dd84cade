package tokens

import (
	"strings"
	"sync"
)

// Counter counts tokens. Texts are split into paragraphs and each distinct paragraph is tokenized once, so counting
// twenty runbooks that share most of their text costs little more than counting one. Splitting at blank lines can
// differ from tokenizing the whole text by a token per paragraph boundary at most: counts are estimates, and reports
// say so. The vocabulary is a table read in place from the binary (table.go), and its split pattern is compiled on
// the first count, never before. A Counter is safe for concurrent use.
type Counter struct {
	encoding Encoding
	once     sync.Once
	bpe      *bpe // set, under mu, once the vocabulary is loaded
	mu       sync.Mutex
	cache    map[string]int
}

// New returns a counter for encoding.
func New(encoding Encoding) *Counter {
	return &Counter{encoding: encoding, cache: map[string]int{}}
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
		n += c.piece(piece)
	}
	return n
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

func (c *Counter) piece(p string) int {
	c.mu.Lock()
	n, ok := c.cache[p]
	c.mu.Unlock()
	if ok {
		return n
	}
	c.once.Do(c.load)
	n, err := c.bpe.count(p)
	if err != nil {
		// Only invalid UTF-8 fails, and artifacts are valid UTF-8; fall back to the usual 4 bytes a token.
		n = (len(p) + 3) / 4
	}
	c.mu.Lock()
	if len(c.cache) >= maxCached {
		// A platform that renders turns for days must not hold every paragraph it ever counted.
		clear(c.cache)
	}
	c.cache[p] = n
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
	return len(c.cache), c.bpe != nil
}
