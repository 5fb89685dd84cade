package usage

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
)

// MaxLineBytes is the longest log line read; a longer one is reported and skipped, so that memory stays bounded
// whatever a log holds.
const MaxLineBytes = 16 << 20

// Key names a bucket: the requests of one provider, model and task.
type Key struct {
	Provider, Model, Task string
}

// Counts are token totals.
type Counts struct {
	Requests           int `json:"requests"`
	InputTokens        int `json:"input_tokens"`
	CacheReadTokens    int `json:"cache_read_tokens"`
	CacheWriteTokens   int `json:"cache_write_tokens"`
	CacheWrite1hTokens int `json:"cache_write_1h_tokens,omitempty"`
	OutputTokens       int `json:"output_tokens"`
}

func (c *Counts) add(r Record) {
	c.Requests++
	c.InputTokens += r.InputTokens
	c.CacheReadTokens += r.CacheReadTokens
	c.CacheWriteTokens += r.CacheWriteTokens
	c.CacheWrite1hTokens += r.CacheWrite1hTokens
	c.OutputTokens += r.OutputTokens
}

func (c *Counts) plus(o Counts) {
	c.Requests += o.Requests
	c.InputTokens += o.InputTokens
	c.CacheReadTokens += o.CacheReadTokens
	c.CacheWriteTokens += o.CacheWriteTokens
	c.CacheWrite1hTokens += o.CacheWrite1hTokens
	c.OutputTokens += o.OutputTokens
}

// HitRate is CacheReadTokens ÷ InputTokens (0 without input), rounded to four decimals.
func (c Counts) HitRate() float64 {
	if c.InputTokens == 0 {
		return 0
	}
	return round4(float64(c.CacheReadTokens) / float64(c.InputTokens))
}

// round4 rounds to four decimals, so that reports print the same digits on every machine.
func round4(f float64) float64 {
	return float64(int64(f*10000+0.5)) / 10000
}

type bucket struct {
	Counts
	turns map[int]*Counts
}

// Tally accumulates log lines: each request once, per bucket. The zero Tally is not ready; use NewTally. A Tally
// holds no line after reading it, only the totals and, to count each request once, a 64-bit hash of each id seen:
// memory grows with the number of distinct ids (about 30 bytes each: 53 MiB after a million lines of two ids
// each), never with the size of the logs.
type Tally struct {
	buckets map[Key]*bucket
	seen    map[uint64]struct{}
	// Lines is the number of non-blank lines read, Duplicates those that repeated a request already counted,
	// NoID the requests counted with neither a request id nor a response id (each such line is its own request).
	Lines, Duplicates, NoID int
	// Skipped is the number of lines not counted, each reported by a diagnostic.
	Skipped int
	Files   int
}

// NewTally returns an empty tally.
func NewTally() *Tally {
	return &Tally{buckets: map[Key]*bucket{}, seen: map[uint64]struct{}{}}
}

// Add counts r, unless a request with the same request id or response id was counted before; it reports whether
// r was counted.
func (t *Tally) Add(r Record) bool {
	var keys [2]uint64
	n := 0
	if r.RequestID != "" {
		keys[n] = idHash("request", r.RequestID)
		n++
	}
	if r.ResponseID != "" {
		keys[n] = idHash("response", r.Provider, r.ResponseID)
		n++
	}
	dup := false
	for _, k := range keys[:n] {
		if _, ok := t.seen[k]; ok {
			dup = true
		}
		// A duplicate's other id joins the set too: a raw body then its wrapper, then the wrapper's request id
		// again, are one request.
		t.seen[k] = struct{}{}
	}
	if dup {
		t.Duplicates++
		return false
	}
	if n == 0 {
		t.NoID++
	}
	key := Key{r.Provider, r.Model, r.Task}
	b := t.buckets[key]
	if b == nil {
		b = &bucket{}
		t.buckets[key] = b
	}
	b.add(r)
	if r.Turn > 0 {
		if b.turns == nil {
			b.turns = map[int]*Counts{}
		}
		c := b.turns[r.Turn]
		if c == nil {
			c = &Counts{}
			b.turns[r.Turn] = c
		}
		c.add(r)
	}
	return true
}

// idHash is FNV-1a, 64 bits, of parts joined by NUL bytes: fixed, so the same logs count the same on every run (a
// collision between two of a million ids has odds of about 1 in 10^7). It hashes the parts where they lie: Add
// runs for every line of a log, and joining them first cost two allocations an id.
func idHash(parts ...string) uint64 {
	const offset64, prime64 = 14695981039346656037, 1099511628211
	h := uint64(offset64)
	for i, p := range parts {
		if i > 0 {
			h *= prime64 // the NUL between parts: h ^ 0 is h
		}
		for j := 0; j < len(p); j++ {
			h = (h ^ uint64(p[j])) * prime64
		}
	}
	return h
}

// Read counts the JSON Lines of r, named filename in diagnostics: one response (or wrapper) per line; blank lines
// are skipped. A line that is not a response is reported as filename:line:col and skipped; the rest are counted.
// Read streams: it holds one line at a time. The error is r's own (a failed read), never a line's.
func (t *Tally) Read(r io.Reader, filename string) (blocks.Diagnostics, error) {
	t.Files++
	var diags blocks.Diagnostics
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for n := 1; ; n++ {
		data, err := br.ReadSlice('\n')
		tooLong := false
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], data...)
			for errors.Is(err, bufio.ErrBufferFull) {
				data, err = br.ReadSlice('\n')
				if len(long)+len(data) > MaxLineBytes {
					tooLong = true
				} else {
					long = append(long, data...)
				}
			}
			data = long
		}
		if err != nil && err != io.EOF {
			return diags, err
		}
		switch {
		case tooLong:
			t.Lines++
			t.Skipped++
			diags.Errorf(lineRange(filename, n, 1), "line longer than %d MiB: not read", MaxLineBytes>>20)
		case len(bytes.TrimSpace(data)) > 0:
			t.Lines++
			rec, perr := ParseLine(data)
			if perr != nil {
				t.Skipped++
				diags.Errorf(lineRange(filename, n, errColumn(data, perr)), "%s", lineMessage(perr))
				break
			}
			t.Add(rec)
		}
		if err == io.EOF {
			return diags, nil
		}
	}
}

func lineRange(filename string, line, col int) blocks.Range {
	p := blocks.Pos{Line: line, Column: col}
	return blocks.Range{Filename: filename, Start: p, End: p}
}

// errColumn is the column (in runes, from 1) where a JSON error lies: encoding/json gives the offset of the byte
// after the one it failed on.
func errColumn(data []byte, err error) int {
	off := -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = int(se.Offset) - 1
	case errors.As(err, &te):
		off = valueStart(data, int(te.Offset))
	}
	if off < 0 {
		return 1
	}
	off = min(off, len(data))
	return utf8.RuneCount(data[:off]) + 1
}

// valueStart is the offset of the start of the JSON value that ends right before end (a type error's offset).
func valueStart(data []byte, end int) int {
	i := min(end, len(data)) - 1
	if i < 0 {
		return -1
	}
	if data[i] == '"' {
		for j := i - 1; j >= 0; j-- {
			if data[j] == '"' && (j == 0 || data[j-1] != '\\') {
				return j
			}
		}
		return i
	}
	for i > 0 && strings.IndexByte("0123456789+-.eEtruefalsn", data[i-1]) >= 0 {
		i--
	}
	return i
}

func lineMessage(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return "not JSON: " + strings.TrimPrefix(se.Error(), "invalid character ")
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			return fmt.Sprintf("a log line is a JSON object, not %s", te.Value)
		}
		return fmt.Sprintf("%q is %s, where a %s belongs", field, te.Value, te.Type)
	}
	return err.Error()
}

// Buckets returns the keys of the buckets counted, sorted by provider, model and task.
func (t *Tally) Buckets() []Key {
	keys := make([]Key, 0, len(t.buckets))
	for k := range t.buckets {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b Key) int {
		return cmpKeys(a, b)
	})
	return keys
}

func cmpKeys(a, b Key) int {
	if c := strings.Compare(a.Provider, b.Provider); c != 0 {
		return c
	}
	if c := strings.Compare(a.Model, b.Model); c != 0 {
		return c
	}
	return strings.Compare(a.Task, b.Task)
}

// Counts returns the totals of bucket k.
func (t *Tally) Counts(k Key) Counts {
	if b := t.buckets[k]; b != nil {
		return b.Counts
	}
	return Counts{}
}

// Turns returns bucket k's totals per turn, for the requests whose wrapper named a turn, by turn number.
func (t *Tally) Turns(k Key) map[int]Counts {
	b := t.buckets[k]
	if b == nil {
		return nil
	}
	out := make(map[int]Counts, len(b.turns))
	for n, c := range b.turns {
		out[n] = *c
	}
	return out
}
