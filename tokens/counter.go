package tokens

import (
	"strings"
	"sync"
)

// Counter counts tokens. A text is cut into pieces and each distinct piece is tokenized once, so counting twenty
// runbooks that share most of their text costs little more than counting one. There is one cutting loop and two places
// to cut, for two kinds of caller:
//
//   - Count cuts after each run of blank lines: the paragraphs of runbooks repeat across tasks and fixtures, so the
//     reports (check, diff, lint, stats, project, simulate) count with it. A cut there can differ from tokenizing the
//     whole text by a token per paragraph boundary at most: its counts are estimates, and reports say so.
//   - CountLines cuts only where the encoding's pre-tokenizer itself splits (LineCut), so that its count is the whole
//     text's exactly: the turn budget, which decides what a message drops by its count, counts with it.
//
// CountExact does not cut at all: the reference the other two are held to. The vocabulary is a table read in place
// from the binary (table.go), loaded on the first count, never before. A count takes time linear in the text (n log n
// in the longest piece the vocabulary does not hold). A Counter is safe for concurrent use.
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

// Count returns the estimated number of tokens of text, cut after each run of blank lines (see Counter).
func (c *Counter) Count(text string) int { return c.sum(text, paragraphEnd, c.cache) }

// CountLines returns the number of tokens of text, as CountExact does, counted line by line: text is cut only where
// LineCut says the tokenizer splits it too, and each distinct line is tokenized whole once, so that recounting a text
// after one line changed tokenizes only that line.
func (c *Counter) CountLines(text string) int { return c.sum(text, lineEnd, c.exact) }

// LineCut reports whether CountLines cuts a text between bytes prev and next: after a newline that a character other
// than white space and "/" follows. The pre-tokenizers of o200k_base and cl100k_base join a newline with a following
// character only when it is white space or, after punctuation, a "/" ("}\n//" is one piece in o200k_base), so the
// pieces' counts add up to the whole text's exactly. Any byte from 0x80 up counts as white space: a cut is made only
// where the next character surely is not a Unicode space.
func LineCut(prev, next byte) bool {
	return prev == '\n' && next != '/' && next != ' ' && next != '\t' && next != '\n' && next != '\r' &&
		next != '\v' && next != '\f' && next < 0x80
}

// sum cuts text into pieces, end giving the length of the first piece of what is left, and adds up the pieces'
// counts, each tokenized whole once and kept in cache.
func (c *Counter) sum(text string, end func(string) int, cache map[string]int) int {
	n := 0
	for len(text) > 0 {
		i := end(text)
		n += c.counted(cache, text[:i])
		text = text[i:]
	}
	return n
}

// paragraphEnd is where Count's first piece of text ends: after the first run of blank lines, the separator kept
// with the paragraph before it.
func paragraphEnd(text string) int {
	i := strings.Index(text, "\n\n")
	if i < 0 {
		return len(text)
	}
	j := i + 2
	for j < len(text) && text[j] == '\n' {
		j++
	}
	return j
}

// lineEnd is where CountLines's first piece of text ends: at its first LineCut.
func lineEnd(text string) int {
	for i := 0; i < len(text)-1; i++ {
		if LineCut(text[i], text[i+1]) {
			return i + 1
		}
	}
	return len(text)
}

// CountExact returns the number of tokens of text tokenized whole, as the encoding's own tokenizer counts it: no
// paragraph split, no estimate. Each distinct text is tokenized once, as Count's paragraphs are. It is for callers
// that cut a text themselves only where the tokenizer itself would split (LineCut: the turn budget's index of the
// texts it recounts), so that the sum of the parts' counts is the whole text's.
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
