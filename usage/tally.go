package usage

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/promptc/promptc/internal/jsondup"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/source"
)

// MaxLineBytes is the longest log line read; a longer one is reported and skipped, so that memory stays bounded
// whatever a log holds.
const MaxLineBytes = 16 << 20

// MaxDiagnostics is the most lines a Tally reports a diagnostic for, over all the files it reads: past that, each
// file that had more lines it could not read gets one diagnostic that counts them, so that the diagnostics of a log
// of junk take the memory of a hundred, not of a line each (a million of them held 830 MB).
const MaxDiagnostics = 100

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
	// Saturated is set when a total reached math.MaxInt (9,223,372,036,854,775,807), the most an int holds: it
	// stopped there instead of wrapping around to a negative count, so that a count equal to math.MaxInt is at least
	// that, and the hit rate and cost, which would be computed from a wrong count, are not given.
	Saturated bool `json:"saturated,omitempty"`
}

func (c *Counts) add(r Record) {
	c.plus(Counts{Requests: 1, InputTokens: r.InputTokens, CacheReadTokens: r.CacheReadTokens,
		CacheWriteTokens: r.CacheWriteTokens, CacheWrite1hTokens: r.CacheWrite1hTokens, OutputTokens: r.OutputTokens})
}

func (c *Counts) plus(o Counts) {
	c.Saturated = c.Saturated || o.Saturated
	for _, f := range [...]struct {
		dst *int
		n   int
	}{
		{&c.Requests, o.Requests}, {&c.InputTokens, o.InputTokens}, {&c.CacheReadTokens, o.CacheReadTokens},
		{&c.CacheWriteTokens, o.CacheWriteTokens}, {&c.CacheWrite1hTokens, o.CacheWrite1hTokens},
		{&c.OutputTokens, o.OutputTokens},
	} {
		// Every count is at least 0 (ParseLine refuses a negative one).
		if *f.dst > math.MaxInt-f.n {
			*f.dst, c.Saturated = math.MaxInt, true
		} else {
			*f.dst += f.n
		}
	}
}

// HitRate is CacheReadTokens ÷ InputTokens (0 without input, or when Saturated), rounded to four decimals.
func (c Counts) HitRate() float64 {
	if c.InputTokens == 0 || c.Saturated {
		return 0
	}
	return round4(float64(c.CacheReadTokens) / float64(c.InputTokens))
}

// round4 rounds to four decimals, so that reports print the same digits on every machine. (math.Round, not a
// conversion to int64: a cost of 10^15 units would not fit one after the scaling.)
func round4(f float64) float64 {
	return math.Round(f*10000) / 10000
}

type bucket struct {
	Counts
	turns map[int]*Counts
	// first and last are the earliest and latest time of its requests that give one (zero when none does).
	first, last time.Time
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
	// Skipped is the number of lines not counted: the first MaxDiagnostics each reported by a diagnostic, the rest
	// counted in one per file.
	Skipped int
	Files   int
	// Spans is the number of spans the OTLP lines held; of them, DuplicateSpans repeated a request already counted,
	// OtherSpans were not model calls (no token counts, or an agent's span), and SkippedSpans were not counted for
	// a problem of their own, reported as Skipped lines are.
	Spans, DuplicateSpans, OtherSpans, SkippedSpans int
	// Attributes names the span attributes an OTLP span gives its task and turn in (TaskAttribute and TurnAttribute
	// when empty).
	Attributes Attributes
	// reported is the number of lines and spans reported by a diagnostic of their own.
	reported int
	// spans is the spans of the OTLP line being read, kept for the next one.
	spans []spanResult
	// hours are the counts per hour (from the Unix epoch, UTC) and bucket of the requests that give a time, for
	// Series; untimed counts the others.
	hours   map[hourKey]*Counts
	untimed int
}

// NewTally returns an empty tally.
func NewTally() *Tally {
	return &Tally{buckets: map[Key]*bucket{}, seen: map[uint64]struct{}{}, hours: map[hourKey]*Counts{}}
}

// Add counts r, unless a request with the same request id or response id was counted before; it reports whether
// r was counted.
func (t *Tally) Add(r Record) bool {
	if !t.add(r) {
		t.Duplicates++
		return false
	}
	return true
}

// add is Add without counting the duplicate, which a line and a span count apart.
func (t *Tally) add(r Record) bool {
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
	if r.Time != "" {
		if at, err := time.Parse(time.RFC3339Nano, r.Time); err == nil {
			if b.first.IsZero() || at.Before(b.first) {
				b.first = at
			}
			if at.After(b.last) {
				b.last = at
			}
			t.addHour(at, key, r)
		} else {
			t.untimed++
		}
	} else {
		t.untimed++
	}
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

// Read counts the JSON Lines of r, named filename in diagnostics: one response (or wrapper) per line, or one OTLP
// ExportTraceServiceRequest (a line that holds "resourceSpans"), whose model calls' spans are each a request (the
// task and turn from t.Attributes); blank lines are skipped. A line that is neither, or a span that is a model call
// with a problem, is reported as filename:line:col and skipped; the rest are counted. Past MaxDiagnostics reported
// lines and spans (over every Read of t), those skipped are counted, and the file gets one diagnostic saying how many
// more there were. Read streams: it holds one line at a time. The error is r's own (a failed read), never a line's.
func (t *Tally) Read(r io.Reader, filename string) (diags source.Diagnostics, err error) {
	t.Files++
	hidden, hiddenSpans := 0, 0
	skip := func(n, col int, format string, args ...any) {
		t.Skipped++
		if t.reported >= MaxDiagnostics {
			hidden++
			return
		}
		t.reported++
		diags.Errorf(lineRange(filename, n, col), format, args...)
	}
	// A span's diagnostic is worded only when it is reported: placing it counts the runes before it.
	skipSpan := func(n int, place func() (col int, msg string)) {
		t.SkippedSpans++
		if t.reported >= MaxDiagnostics {
			hiddenSpans++
			return
		}
		t.reported++
		col, msg := place()
		diags.Errorf(lineRange(filename, n, col), "%s", msg)
	}
	defer func() {
		var more []string
		if hidden > 0 {
			more = append(more, plural.Count(hidden, "more line"))
		}
		if hiddenSpans > 0 {
			more = append(more, plural.Count(hiddenSpans, "more span"))
		}
		if len(more) > 0 {
			diags.Errorf(source.FileRange(filename), "%s not read besides (not listed: only the first %d problems are)",
				strings.Join(more, " and "), MaxDiagnostics)
		}
	}()
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
			skip(n, 1, "line longer than %d MiB: not read", MaxLineBytes>>20)
		case len(bytes.TrimSpace(data)) > 0:
			t.Lines++
			if otlpFirst(data) {
				t.readSpans(data, n, skip, skipSpan)
				break
			}
			rec, perr := ParseLine(data)
			if perr != nil && holdsResourceSpans(data) {
				t.readSpans(data, n, skip, skipSpan)
				break
			}
			if perr != nil {
				skip(n, errColumn(data, perr), "%s", lineMessage(data, n, perr))
				break
			}
			t.Add(rec)
		}
		if err == io.EOF {
			return diags, nil
		}
	}
}

// readSpans counts the spans of OTLP line n (data), or reports the line.
func (t *Tally) readSpans(data []byte, n int, skip func(n, col int, format string, args ...any), skipSpan func(n int, place func() (int, string))) {
	spans, err := readSpans(data, t.Attributes, t.spans[:0])
	defer func() {
		clear(spans) // hold no line's strings
		t.spans = spans[:0]
	}()
	if err != nil {
		if se, ok := err.(*spanError); ok {
			skip(n, runeColumn(data, se.off), "%s", se.message(data, n))
		} else {
			skip(n, errColumn(data, err), "%s", lineMessage(data, n, err))
		}
		return
	}
	// Columns are counted on from the last one, so that a line of many bad spans costs one pass.
	col, off := 1, 0
	column := func(to int) int {
		col += utf8.RuneCount(data[off:to])
		off = to
		return col
	}
	for _, s := range spans {
		t.Spans++
		switch {
		case s.err != nil:
			skipSpan(n, func() (int, string) { return column(s.err.off), s.err.message(data, n) })
		case s.other:
			t.OtherSpans++
		case !t.add(s.rec):
			t.DuplicateSpans++
		}
	}
}

// runeColumn is the column (in runes, from 1) of byte off of data.
func runeColumn(data []byte, off int) int {
	return utf8.RuneCount(data[:max(0, min(off, len(data)))]) + 1
}

func lineRange(filename string, line, col int) source.Range {
	p := source.Pos{Line: line, Column: col}
	return source.Range{Filename: filename, Start: p, End: p}
}

// errColumn is the column (in runes, from 1) where a line's error lies: encoding/json gives the offset of the byte
// after the one it failed on; a duplicate key is placed at its second occurrence.
func errColumn(data []byte, err error) int {
	off := -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var de *jsondup.Error
	switch {
	case errors.As(err, &se):
		off = int(se.Offset) - 1
	case errors.As(err, &te):
		off = valueStart(data, int(te.Offset))
	case errors.As(err, &de):
		off = de.Offset
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

// lineMessage words err, the problem of line n (data).
func lineMessage(data []byte, n int, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var de *jsondup.Error
	switch {
	case errors.As(err, &se):
		return "not JSON: " + strings.TrimPrefix(se.Error(), "invalid character ")
	case errors.As(err, &de):
		return de.Message(fmt.Sprintf("%d:%d", n, utf8.RuneCount(data[:de.First])+1))
	case errors.As(err, &te):
		if te.Field == "" {
			return fmt.Sprintf("a log line is a JSON object, not %s", jsonValue(te.Value))
		}
		if lit, ok := strings.CutPrefix(te.Value, "number "); ok && te.Type.Kind() == reflect.Int {
			if strings.ContainsAny(lit, ".eE") {
				return fmt.Sprintf("%q is %s: a token count is a whole number, written without a fraction or an exponent", te.Field, lit)
			}
			return fmt.Sprintf("%q is %s: a token count is at most %s", te.Field, lit, plural.Thousands(math.MaxInt))
		}
		return fmt.Sprintf("%q is %s, where %s belongs", te.Field, jsonValue(te.Value), goValue(te.Type))
	}
	return err.Error()
}

// jsonValue names a JSON value as encoding/json's type errors give it ("string", "number 1.5", "object"), with its
// article.
func jsonValue(v string) string {
	switch {
	case v == "object" || v == "array":
		return "an " + v
	case v == "bool":
		return "a boolean"
	case strings.HasPrefix(v, "number "):
		return "the number " + strings.TrimPrefix(v, "number ")
	}
	return "a " + v
}

// goValue names what a field of a line's struct holds as JSON, not as Go (a user never sees usage.rawUsage).
func goValue(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int:
		return "a whole number"
	case reflect.String:
		return "a string"
	case reflect.Struct:
		return "an object"
	case reflect.Slice:
		return "an array"
	}
	return "another value"
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
