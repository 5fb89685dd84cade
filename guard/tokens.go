package guard

import (
	"fmt"
	"strings"
	"sync"

	"github.com/tiktoken-go/tokenizer/codec"
)

// Token encodings promptc can count with. The vocabularies are compiled into the binary; nothing is downloaded.
const (
	O200k  = "o200k_base"
	Cl100k = "cl100k_base"
)

// Counter counts tokens. Texts are split into paragraphs and each distinct paragraph is tokenized once, so counting
// twenty runbooks that share most of their text costs little more than counting one. Splitting at blank lines can
// differ from tokenizing the whole text by a token per paragraph boundary at most: counts are estimates, and reports
// say so. The vocabulary (tens of milliseconds to load) is loaded on the first count, never before. A Counter is
// safe for concurrent use.
type Counter struct {
	encoding string
	once     sync.Once
	codec    *codec.Codec
	mu       sync.Mutex
	cache    map[string]int
}

// NewCounter returns a counter for encoding ("" means o200k_base).
func NewCounter(encoding string) (*Counter, error) {
	switch encoding {
	case "":
		encoding = O200k
	case O200k, Cl100k:
	default:
		return nil, fmt.Errorf("unknown token encoding %q: use %s or %s", encoding, O200k, Cl100k)
	}
	return &Counter{encoding: encoding, cache: map[string]int{}}, nil
}

// Encoding returns the counter's encoding name.
func (c *Counter) Encoding() string { return c.encoding }

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
// calls it first, so that the load (tens of milliseconds) overlaps reading and compiling the project. Counting
// waits for the load to finish, as it does without Preload.
func (c *Counter) Preload() {
	go c.once.Do(c.load)
}

func (c *Counter) load() {
	if c.encoding == Cl100k {
		c.codec = codec.NewCl100kBase()
	} else {
		c.codec = codec.NewO200kBase()
	}
}

func (c *Counter) piece(p string) int {
	c.mu.Lock()
	n, ok := c.cache[p]
	c.mu.Unlock()
	if ok {
		return n
	}
	c.once.Do(c.load)
	n, err := c.codec.Count(p)
	if err != nil {
		// Only invalid UTF-8 fails, and artifacts are valid UTF-8; fall back to the usual 4 bytes a token.
		n = (len(p) + 3) / 4
	}
	c.mu.Lock()
	c.cache[p] = n
	c.mu.Unlock()
	return n
}
