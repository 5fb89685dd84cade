package usage

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/promptc/promptc/internal/jsondup"
	"github.com/promptc/promptc/internal/plural"
)

// OTLP JSON: a line that holds "resourceSpans" is an ExportTraceServiceRequest, as the OpenTelemetry collector's file
// exporter writes one per line (protojson: lowerCamelCase keys, 64-bit integers as JSON strings; the proto field
// names are read too, as protojson reads them). Its spans that carry the GenAI conventions' token counts are model
// calls, each a Record (docs/usage.md#opentelemetry-spans). This file is the whole of that reader: it shares the line
// scanner with the response reader, nothing of the providers' response shapes.

// TaskAttribute and TurnAttribute are the span attributes usage reads a span's task and turn from (unless
// Tally.Attributes names others). A platform sets them on the span of each model call, where it renders the request:
//
//	span.SetAttributes(attribute.String(usage.TaskAttribute, task), attribute.Int(usage.TurnAttribute, turn))
const (
	TaskAttribute = "promptc.task"
	TurnAttribute = "promptc.turn"
)

// Attributes names the span attributes an OTLP span gives its task (a string) and turn (an integer from 1) in, for a
// platform that already sets attributes of its own; an empty name stands for TaskAttribute or TurnAttribute.
type Attributes struct {
	Task, Turn string
}

// The GenAI semantic conventions' span attributes a model call's Record is read from.
const (
	attrInput         = "gen_ai.usage.input_tokens"
	attrOutput        = "gen_ai.usage.output_tokens"
	attrCacheRead     = "gen_ai.usage.cache_read.input_tokens"
	attrCacheWrite    = "gen_ai.usage.cache_creation.input_tokens"
	attrProvider      = "gen_ai.provider.name"
	attrSystem        = "gen_ai.system"
	attrRequestModel  = "gen_ai.request.model"
	attrResponseModel = "gen_ai.response.model"
	attrResponseID    = "gen_ai.response.id"
	attrOperation     = "gen_ai.operation.name"
)

// slot numbers the attributes a span is read from.
type slot int

const (
	slotInput slot = iota
	slotOutput
	slotCacheRead
	slotCacheWrite
	slotProvider
	slotSystem
	slotRequestModel
	slotResponseModel
	slotResponseID
	slotOperation
	slotTask
	slotTurn
	numSlots
)

// spanProviders maps the conventions' provider names (gen_ai.provider.name, and the older gen_ai.system's) to
// promptc's: each API whose caching rules and prices the model table holds, under every name the conventions give it.
var spanProviders = map[string]string{
	"anthropic":       Anthropic,
	"openai":          OpenAI,
	"azure.ai.openai": OpenAI,
	"az.ai.openai":    OpenAI,
	"aws.bedrock":     Bedrock,
	"gcp.gemini":      Gemini,
	"gcp.vertex_ai":   Gemini,
	"gcp.gen_ai":      Gemini,
	"gemini":          Gemini,
	"vertex_ai":       Gemini,
	"deepseek":        DeepSeek,
	"dashscope":       DashScope,
	"bedrock":         Bedrock,
}

// agentOperation is the operation of an agent's span: the conventions give it the token counts of the model calls
// under it, which have spans of their own, so that counting it would count them twice.
const agentOperation = "invoke_agent"

// spanResult is what one span of a line is: a model call's record, another span, or a problem.
type spanResult struct {
	rec   Record
	other bool
	err   *spanError
}

// spanError is a problem at byte off of an OTLP line. When first is not -1, the message is msg, the place of byte
// first (line:col, which only the line's reader knows), and tail.
type spanError struct {
	off, first int
	msg, tail  string
}

// message words e, on line n of data.
func (e *spanError) message(data []byte, n int) string {
	if e.first < 0 {
		return e.msg
	}
	return fmt.Sprintf("%s (first at %d:%d)%s", e.msg, n, runeColumn(data, e.first), e.tail)
}

func (e *spanError) Error() string { return e.msg }

func spanErrorf(off int, format string, args ...any) *spanError {
	return &spanError{off: off, first: -1, msg: fmt.Sprintf(format, args...)}
}

// otlpFirst says whether data's first key is "resourceSpans", as every line the collector writes begins: the
// reader tells such a line at a glance, before trying it as a response.
func otlpFirst(data []byte) bool {
	s := scanner{data: data}
	if s.peek() != '{' {
		return false
	}
	s.i++
	if s.peek() != '"' {
		return false
	}
	rest := data[s.i+1:]
	for _, k := range [...]string{"resourceSpans", "resource_spans"} {
		if len(rest) > len(k) && string(rest[:len(k)]) == k && rest[len(k)] == '"' {
			return true
		}
	}
	return false
}

// holdsResourceSpans says whether the object data holds "resourceSpans" among its keys: an ExportTraceServiceRequest
// that does not begin with it. Asked only of a line that is not a response.
func holdsResourceSpans(data []byte) bool {
	s := scanner{data: data}
	found := false
	_ = s.object(func(key string) error {
		if key == "resourceSpans" || key == "resource_spans" {
			found = true
			return errSlow
		}
		return s.skip()
	})
	return found
}

// spanReader reads the spans of one OTLP line.
type spanReader struct {
	s    scanner
	keys [numSlots]string
	out  []spanResult
	// at and val are the offsets of the current span's attribute object and of its value, per slot (-1: none).
	at, val [numSlots]int
}

// readSpans appends the spans of the OTLP line data to out. The error is the line's (not JSON, a key twice, a
// request of the wrong shape): none of its spans is then counted. A span's own problem is its result's.
func readSpans(data []byte, attrs Attributes, out []spanResult) ([]spanResult, error) {
	stack := keyStacks.Get().(*[][]byte)
	r := spanReader{s: scanner{data: data, keys: (*stack)[:0]}, out: out}
	defer func() {
		clear(r.s.keys[:cap(r.s.keys)])
		*stack = r.s.keys[:0]
		keyStacks.Put(stack)
	}()
	r.keys = [numSlots]string{attrInput, attrOutput, attrCacheRead, attrCacheWrite, attrProvider, attrSystem,
		attrRequestModel, attrResponseModel, attrResponseID, attrOperation, cmp.Or(attrs.Task, TaskAttribute),
		cmp.Or(attrs.Turn, TurnAttribute)}
	err := r.request()
	if r.s.ws(); err == nil && r.s.i != len(data) {
		err = errSlow
	}
	if err != nil {
		clear(r.out) // hold no line's strings
		return r.out[:0], lineError(data, err)
	}
	return r.out, nil
}

// lineError says what is wrong with a line the reader could not walk: it is not JSON (the decoder's error), or an
// object holds a key twice, or the request has the wrong shape (the reader's own error).
func lineError(data []byte, err error) error {
	var se *json.SyntaxError
	if e := json.Unmarshal(data, &struct{}{}); errors.As(e, &se) {
		return se
	}
	if dup := jsondup.Find(data, nil); dup != nil {
		return dup
	}
	if errors.Is(err, errSlow) {
		// The scanner's other refusals: a key written with an escape or past ASCII, or an object of more than
		// maxKeys keys, which no OTLP object has.
		return errors.New("an OTLP request with a key written with an escape, or an object of more than 32 keys: write it as the collector does (protojson)")
	}
	return err
}

// items walks an array: next says whether an item is at s.i, for the caller to read.
type items struct {
	s    *scanner
	n    int
	done bool
}

// items opens the array at s.i, the value of key (null is an empty array).
func (r *spanReader) items(key []byte) (items, error) {
	s := &r.s
	if s.null() {
		return items{s: s, done: true}, nil
	}
	if s.peek() != '[' {
		return items{}, spanErrorf(s.i, "%q is %s, where an array belongs", key, r.kind())
	}
	s.i++
	return items{s: s}, nil
}

func (it *items) next() (bool, error) {
	if it.done {
		return false, nil
	}
	switch c := it.s.peek(); {
	case c == ']':
		it.s.i++
		it.done = true
		return false, nil
	case it.n > 0 && c == ',':
		it.s.i++
	case it.n > 0:
		return false, errSlow
	}
	it.n++
	return true, nil
}

// kind names the JSON value at s.i, with its article.
func (r *spanReader) kind() string {
	switch c := r.s.peek(); {
	case c == '"':
		return "a string"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	}
	return "not a JSON value"
}

// The levels of a request: its resourceSpans' items hold scopeSpans, whose items hold spans.
const (
	levelResource = iota
	levelScope
	levelSpan
)

func (r *spanReader) request() error {
	m, err := r.s.members()
	if err != nil {
		return err
	}
	for {
		key, ok, err := m.next()
		switch {
		case err != nil || !ok:
			return err
		case string(key) == "resourceSpans" || string(key) == "resource_spans":
			err = r.list(key, levelResource)
		default:
			err = r.s.skip()
		}
		if err != nil {
			return err
		}
	}
}

// list reads the array under key, whose items are of level.
func (r *spanReader) list(key []byte, level int) error {
	it, err := r.items(key)
	if err != nil {
		return err
	}
	for {
		more, err := it.next()
		if err != nil || !more {
			return err
		}
		if level == levelSpan {
			err = r.spanItem()
		} else {
			err = r.container(key, level)
		}
		if err != nil {
			return err
		}
	}
}

// container reads an item of resourceSpans (its scopeSpans) or of scopeSpans (its spans), the array under key.
func (r *spanReader) container(key []byte, level int) error {
	s := &r.s
	if s.peek() != '{' {
		return spanErrorf(s.i, "an item of %q is %s, where an object belongs", key, r.kind())
	}
	m, err := s.members()
	if err != nil {
		return err
	}
	for {
		k, ok, err := m.next()
		switch {
		case err != nil || !ok:
			return err
		case level == levelResource && (string(k) == "scopeSpans" || string(k) == "scope_spans"):
			err = r.list(k, levelScope)
		case level == levelScope && string(k) == "spans":
			err = r.list(k, levelSpan)
		default:
			err = s.skip()
		}
		if err != nil {
			return err
		}
	}
}

// spanItem reads one span. A span with a problem of its own is passed over whole and reported, so that the line's
// other spans are counted; a line that stops being JSON in it is the line's problem.
func (r *spanReader) spanItem() error {
	s := &r.s
	start, depth, keys := s.i, s.depth, len(s.keys)
	err := r.span()
	se, ok := err.(*spanError)
	if !ok {
		return err
	}
	s.i, s.depth, s.keys = start, depth, s.keys[:keys]
	if err := s.skip(); err != nil {
		return err
	}
	r.out = append(r.out, spanResult{err: se})
	return nil
}

func (r *spanReader) span() error {
	s := &r.s
	start := s.i
	if s.peek() != '{' {
		return spanErrorf(s.i, "a span is %s, where an object belongs", r.kind())
	}
	for i := range r.at {
		r.at[i], r.val[i] = -1, -1
	}
	var when string
	m, err := s.members()
	if err != nil {
		return err
	}
	for {
		key, ok, err := m.next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		switch string(key) {
		case "attributes":
			err = r.attributes(key)
		case "startTimeUnixNano", "start_time_unix_nano":
			when, err = r.startTime(key)
		default:
			err = s.skip()
		}
		if err != nil {
			return err
		}
	}
	rec, other, err := r.record(start)
	if err != nil {
		return err
	}
	rec.Time = when
	r.out = append(r.out, spanResult{rec: rec, other: other})
	return nil
}

func (r *spanReader) attributes(key []byte) error {
	it, err := r.items(key)
	if err != nil {
		return err
	}
	for {
		more, err := it.next()
		if err != nil || !more {
			return err
		}
		if err := r.attribute(); err != nil {
			return err
		}
	}
}

// startTime reads a span's start, nanoseconds since 1970 (a JSON string or number), as RFC 3339 in UTC ("" for 0).
func (r *spanReader) startTime(key []byte) (string, error) {
	s := &r.s
	at := s.i
	if s.null() {
		return "", nil
	}
	lit, isString, err := r.literal()
	if err != nil {
		return "", err
	}
	if lit == nil && !isString {
		return "", spanErrorf(at, "%q is %s, where nanoseconds since 1970 belong (a whole number, or one in a string)", key, r.kindAt(at))
	}
	n, err := strconv.ParseUint(string(lit), 10, 64)
	switch {
	case err != nil:
		return "", spanErrorf(at, "%q is %s: nanoseconds since 1970 are a whole number", key, quoteLit(lit, isString))
	case n > math.MaxInt64:
		return "", spanErrorf(at, "%q is %s: past the year 2262, the latest time usage reads", key, lit)
	case n == 0:
		return "", nil
	}
	return time.Unix(0, int64(n)).UTC().Format(time.RFC3339Nano), nil
}

// kindAt names the JSON value at byte off.
func (r *spanReader) kindAt(off int) string {
	save := r.s.i
	r.s.i = off
	k := r.kind()
	r.s.i = save
	return k
}

// literal reads the number, or the string's contents, at s.i, and passes over it; any other value is passed over
// and gives nil.
func (r *spanReader) literal() (lit []byte, isString bool, err error) {
	s := &r.s
	start := s.i
	switch c := s.peek(); {
	case c == '"':
		lit, err := r.rawString()
		return lit, true, err
	case c == '-' || c >= '0' && c <= '9':
		if err := s.number(); err != nil {
			return nil, false, err
		}
		return s.data[start:s.i], false, nil
	}
	return nil, false, s.skip()
}

// rawString reads the string at s.i: its bytes in the line, or, when it holds an escape or invalid UTF-8, the string
// as encoding/json decodes it.
func (r *spanReader) rawString() ([]byte, error) {
	s := &r.s
	start := s.i
	if err := s.skipString(); err != nil {
		return nil, err
	}
	raw := s.data[start+1 : s.i-1]
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return raw, nil
	}
	var v string
	if err := json.Unmarshal(s.data[start:s.i], &v); err != nil {
		return nil, err
	}
	return []byte(v), nil
}

func quoteLit(lit []byte, isString bool) string {
	if isString {
		return strconv.Quote(string(lit))
	}
	return string(lit)
}

// attribute reads one {"key": …, "value": …} of a span's attributes, noting where the value of each one the span is
// read from lies: it is read when the span is over, whatever the order of the two keys.
func (r *spanReader) attribute() error {
	s := &r.s
	at := s.i
	if s.peek() != '{' {
		return spanErrorf(at, "an attribute is %s, where an object {\"key\": …, \"value\": …} belongs", r.kind())
	}
	var key []byte
	val := -1
	m, err := s.members()
	if err != nil {
		return err
	}
	for {
		k, ok, err := m.next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		switch string(k) {
		case "key":
			switch c := s.peek(); {
			case c == '"':
				key, err = r.rawString()
			case s.null():
			default:
				err = spanErrorf(s.i, "an attribute's \"key\" is %s, where a string belongs", r.kind())
			}
		case "value":
			val = s.i
			err = s.skip()
		default:
			err = s.skip()
		}
		if err != nil {
			return err
		}
	}
	for i, k := range r.keys {
		if string(key) != k {
			continue
		}
		if r.at[i] >= 0 {
			return &spanError{off: at, first: r.at[i], msg: fmt.Sprintf("attribute %q twice in one span", k), tail: ": a span holds each attribute once"}
		}
		r.at[i], r.val[i] = at, val
	}
	return nil
}

// record builds the span's Record from the attributes noted, or says it is another span (no token counts, or an
// agent's), or what is wrong with it.
func (r *spanReader) record(start int) (rec Record, other bool, err error) {
	counted := false
	for _, sl := range [...]slot{slotInput, slotOutput, slotCacheRead, slotCacheWrite} {
		counted = counted || r.at[sl] >= 0
	}
	if !counted {
		return Record{}, true, nil
	}
	op, err := r.str(slotOperation)
	if err != nil || op == agentOperation {
		return Record{}, err == nil, err
	}
	if r.at[slotInput] < 0 {
		for _, sl := range [...]slot{slotOutput, slotCacheRead, slotCacheWrite} {
			if r.at[sl] >= 0 {
				return Record{}, false, spanErrorf(r.at[sl], "a span with %s but no %s: a model call's span gives its input tokens", r.keys[sl], attrInput)
			}
		}
	}
	provSlot := slotProvider
	if r.at[provSlot] < 0 {
		provSlot = slotSystem
	}
	name, err := r.str(provSlot)
	if err != nil {
		return Record{}, false, err
	}
	if r.at[provSlot] < 0 {
		return Record{}, false, spanErrorf(start, "a model call's span names no provider: set %s (or the older %s)", attrProvider, attrSystem)
	}
	p, ok := spanProviders[name]
	if !ok {
		return Record{}, false, spanErrorf(r.val[provSlot], "%s %q is none of the providers usage knows: %s", r.keys[provSlot], name, knownSpanProviders())
	}
	rec.Provider = p
	for _, f := range [...]struct {
		dst *string
		sl  slot
	}{{&rec.Model, slotResponseModel}, {&rec.ResponseID, slotResponseID}, {&rec.Task, slotTask}} {
		if *f.dst, err = r.str(f.sl); err != nil {
			return Record{}, false, err
		}
	}
	if rec.Model == "" {
		if rec.Model, err = r.str(slotRequestModel); err != nil {
			return Record{}, false, err
		}
	}
	if r.at[slotTurn] >= 0 {
		if rec.Turn, err = r.count(slotTurn); err != nil {
			return Record{}, false, err
		}
		if rec.Turn < 1 {
			return Record{}, false, spanErrorf(r.val[slotTurn], "attribute %q is %d: turns count from 1", r.keys[slotTurn], rec.Turn)
		}
	}
	for _, f := range [...]struct {
		dst *int
		sl  slot
	}{{&rec.InputTokens, slotInput}, {&rec.OutputTokens, slotOutput}, {&rec.CacheReadTokens, slotCacheRead}, {&rec.CacheWriteTokens, slotCacheWrite}} {
		if *f.dst, err = r.count(f.sl); err != nil {
			return Record{}, false, err
		}
		if *f.dst < 0 {
			return Record{}, false, spanErrorf(r.val[f.sl], "attribute %q is %d: a token count is at least 0", r.keys[f.sl], *f.dst)
		}
	}
	if rec.CacheReadTokens > rec.InputTokens-rec.CacheWriteTokens { // each is at least 0: no sum to wrap around
		return Record{}, false, spanErrorf(r.val[slotInput], "%s and %s exceed the %s: the conventions count cache reads and writes in %s, and this span does not (its instrumentation counts them beside it, as Anthropic's API does)",
			plural.Count(rec.CacheReadTokens, "cache-read token"), plural.Count(rec.CacheWriteTokens, "cache-write token"),
			plural.Count(rec.InputTokens, "input token"), attrInput)
	}
	return rec, false, rec.check()
}

func knownSpanProviders() string {
	names := make([]string, 0, len(spanProviders))
	for n := range spanProviders {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// value finds the AnyValue of slot's attribute: which of its fields holds the value ("" when it has none, or the
// attribute is not there) and the value's offset.
func (r *spanReader) value(sl slot) (field string, at int, err error) {
	s := &r.s
	if r.val[sl] < 0 {
		return "", -1, nil
	}
	save := s.i
	defer func() { s.i = save }()
	s.i = r.val[sl]
	if s.null() {
		return "", -1, nil
	}
	if s.peek() != '{' {
		return "", -1, spanErrorf(s.i, "the value of attribute %q is %s, where an AnyValue object (stringValue, intValue, …) belongs", r.keys[sl], r.kind())
	}
	at = -1
	m, err := s.members()
	if err != nil {
		return "", -1, err
	}
	for {
		k, ok, err := m.next()
		if err != nil || !ok {
			return field, at, err
		}
		name := anyValueField(k)
		switch {
		case name == "":
			err = s.skip()
		case s.null(): // an unset field, as protojson reads it
		case field != "":
			err = spanErrorf(s.i, "the value of attribute %q holds both %s and %s: an AnyValue holds one", r.keys[sl], field, name)
		default:
			field, at = name, s.i
			err = s.skip()
		}
		if err != nil {
			return "", -1, err
		}
	}
}

// anyValueField is the AnyValue field key names, as protojson writes it, or "" for another key.
func anyValueField(key []byte) string {
	switch string(key) {
	case "stringValue", "string_value":
		return "stringValue"
	case "intValue", "int_value":
		return "intValue"
	case "doubleValue", "double_value":
		return "doubleValue"
	case "boolValue", "bool_value":
		return "boolValue"
	case "arrayValue", "array_value":
		return "arrayValue"
	case "kvlistValue", "kvlist_value":
		return "kvlistValue"
	case "bytesValue", "bytes_value":
		return "bytesValue"
	}
	return ""
}

func article(field string) string {
	if strings.IndexByte("aeiou", field[0]) >= 0 {
		return "an " + field
	}
	return "a " + field
}

// str reads slot's attribute, a stringValue ("" when the span has none).
func (r *spanReader) str(sl slot) (string, error) {
	field, at, err := r.value(sl)
	switch {
	case err != nil:
		return "", err
	case field == "" && r.at[sl] >= 0:
		return "", spanErrorf(r.at[sl], "attribute %q has no value (a stringValue belongs)", r.keys[sl])
	case field == "":
		return "", nil
	case field != "stringValue":
		return "", spanErrorf(r.val[sl], "attribute %q is %s, where a stringValue belongs", r.keys[sl], article(field))
	}
	save := r.s.i
	defer func() { r.s.i = save }()
	r.s.i = at
	if c := r.s.peek(); c != '"' {
		return "", spanErrorf(at, "the stringValue of attribute %q is %s, where a string belongs", r.keys[sl], r.kind())
	}
	v, err := r.rawString()
	return string(v), err
}

// count reads slot's attribute, an integer: an intValue (a JSON string, as protojson writes one, or a number), or a
// doubleValue with no fraction. An attribute with no value is an error; a span without the attribute gives 0.
func (r *spanReader) count(sl slot) (int, error) {
	field, at, err := r.value(sl)
	switch {
	case err != nil:
		return 0, err
	case field == "" && r.at[sl] >= 0:
		return 0, spanErrorf(r.at[sl], "attribute %q has no value (an intValue belongs)", r.keys[sl])
	case field == "":
		return 0, nil
	case field != "intValue" && field != "doubleValue":
		return 0, spanErrorf(r.val[sl], "attribute %q is %s, where an intValue belongs", r.keys[sl], article(field))
	}
	save := r.s.i
	defer func() { r.s.i = save }()
	r.s.i = at
	lit, isString, err := r.literal()
	if err != nil {
		return 0, err
	}
	if lit == nil && !isString {
		return 0, spanErrorf(at, "the %s of attribute %q is %s, where a number belongs", field, r.keys[sl], r.kindAt(at))
	}
	if field == "intValue" {
		n, err := strconv.ParseInt(string(lit), 10, strconv.IntSize)
		switch {
		case errors.Is(err, strconv.ErrRange):
			return 0, spanErrorf(at, "attribute %q is %s: a count is at most %s", r.keys[sl], lit, plural.Thousands(math.MaxInt))
		case err != nil:
			return 0, spanErrorf(at, "the intValue of attribute %q is %s: an intValue is a whole number", r.keys[sl], quoteLit(lit, isString))
		}
		return int(n), nil
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange), math.IsNaN(f), f != math.Trunc(f):
		return 0, spanErrorf(at, "attribute %q is the doubleValue %s: a count is a whole number", r.keys[sl], quoteLit(lit, isString))
	case f >= math.MaxInt || f < math.MinInt:
		return 0, spanErrorf(at, "attribute %q is %s: a count is at most %s", r.keys[sl], lit, plural.Thousands(math.MaxInt))
	}
	return int(f), nil
}
