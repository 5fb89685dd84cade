package usage

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Reading a million lines in seconds rules out encoding/json's reflection for every line: scan reads a line by
// walking it once, checking its syntax as it goes, descending only into the keys a Record needs and skipping the rest
// (content, choices, candidates). Anything it does not expect (an escaped key, a number that is not an integer, a
// value of the wrong type) sends the line to json.Unmarshal, whose errors name the field; so both paths agree on
// every line scan accepts. So does a line with a key twice in one object, or with a key that encoding/json would
// match to a field of a Record's only without regard to case ("Usage"): ParseLine's slow path refuses the one and
// reads the other as encoding/json does, so that the two paths never read one line two ways.

var errSlow = errors.New("usage: line needs the full decoder")

// maxDepth bounds the nesting scan walks, as encoding/json's own limit does: a line nested deeper goes to the
// decoder, which refuses it, instead of taking the stack (a 16 MiB line of "[" recursed 16 million calls deep).
const maxDepth = 10000

// maxKeys is the most keys of one object scan compares with each other to find a duplicate; an object with more
// goes to the full decoder, whose check is a map: comparing each key with every one before it is quadratic.
const maxKeys = 32

type scanner struct {
	data  []byte
	i     int
	depth int
	// keys holds the keys of the objects open, innermost last.
	keys [][]byte
}

// keyStacks are scanners' key stacks, kept for the next line: growing one anew for every line of a million cost
// 1.6 KB a line.
var keyStacks = sync.Pool{New: func() any { return new([][]byte) }}

// parseFast decodes a valid JSON line into l, or returns errSlow.
func parseFast(data []byte, l *line) error {
	keys := keyStacks.Get().(*[][]byte)
	s := scanner{data: data, keys: (*keys)[:0]}
	defer func() {
		clear(s.keys[:cap(s.keys)]) // hold no line
		*keys = s.keys[:0]
		keyStacks.Put(keys)
	}()
	if err := s.line(l); err != nil {
		return err
	}
	if s.ws(); s.i != len(data) {
		return errSlow
	}
	return nil
}

func (s *scanner) ws() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.data) {
		return s.data[s.i]
	}
	return 0
}

// object calls field for each key of the object at s.i; field reads or skips the value.
func (s *scanner) object(field func(key string) error) error {
	if s.peek() != '{' || s.depth >= maxDepth {
		return errSlow
	}
	s.i++
	if s.peek() == '}' {
		s.i++
		return nil
	}
	s.depth++
	base := len(s.keys)
	defer func() { s.keys, s.depth = s.keys[:base], s.depth-1 }()
	for {
		if s.peek() != '"' {
			return errSlow
		}
		start := s.i + 1
		if err := s.skipString(); err != nil {
			return err
		}
		key := s.data[start : s.i-1]
		if len(s.keys)-base >= maxKeys {
			return errSlow
		}
		// An escape, or any byte past ASCII (invalid UTF-8, which a decoder reads as U+FFFD so that two keys may be
		// one; a rune that folds to an ASCII letter), is the decoder's: no provider's key has one.
		for _, c := range key {
			if c == '\\' || c >= utf8.RuneSelf {
				return errSlow
			}
		}
		for _, k := range s.keys[base:] {
			if bytes.Equal(k, key) {
				return errSlow // a duplicate: the decoder's check places it
			}
		}
		s.keys = append(s.keys, key)
		if s.peek() != ':' {
			return errSlow
		}
		s.i++
		s.ws()
		if err := field(string(key)); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return nil
		default:
			return errSlow
		}
	}
}

// members walks the keys of an object as the scanner's object does (a duplicate, an escape, a byte past ASCII or
// more than maxKeys keys is errSlow), without its callback: a closure that every object of every span would
// allocate.
type members struct {
	s    *scanner
	base int
	n    int
}

// members opens the object at s.i.
func (s *scanner) members() (members, error) {
	if s.peek() != '{' || s.depth >= maxDepth {
		return members{}, errSlow
	}
	s.i++
	s.depth++
	return members{s: s, base: len(s.keys)}, nil
}

// next reads the next key, leaving the scanner at its value for the caller to read or pass over; ok is false past
// the object's end.
func (m *members) next() (key []byte, ok bool, err error) {
	s := m.s
	switch c := s.peek(); {
	case c == '}':
		s.i++
		s.keys, s.depth = s.keys[:m.base], s.depth-1
		return nil, false, nil
	case m.n > 0 && c == ',':
		s.i++
	case m.n > 0:
		return nil, false, errSlow
	}
	if s.peek() != '"' {
		return nil, false, errSlow
	}
	start := s.i + 1
	if err := s.skipString(); err != nil {
		return nil, false, err
	}
	key = s.data[start : s.i-1]
	if len(s.keys)-m.base >= maxKeys {
		return nil, false, errSlow
	}
	for _, c := range key {
		if c == '\\' || c >= utf8.RuneSelf {
			return nil, false, errSlow
		}
	}
	for _, k := range s.keys[m.base:] {
		if bytes.Equal(k, key) {
			return nil, false, errSlow
		}
	}
	s.keys = append(s.keys, key)
	if s.peek() != ':' {
		return nil, false, errSlow
	}
	s.i++
	s.ws()
	m.n++
	return key, true, nil
}

// skip passes over the value at s.i, checking it is JSON: anything else is errSlow, and encoding/json then says
// what is wrong.
func (s *scanner) skip() error {
	switch c := s.peek(); {
	case c == '"':
		return s.skipString()
	case c == '{':
		// members, not object: a closure for every object passed over cost an allocation each.
		m, err := s.members()
		if err != nil {
			return err
		}
		for {
			_, ok, err := m.next()
			if err != nil || !ok {
				return err
			}
			if err := s.skip(); err != nil {
				return err
			}
		}
	case c == '[':
		if s.depth >= maxDepth {
			return errSlow
		}
		s.i++
		if s.peek() == ']' {
			s.i++
			return nil
		}
		s.depth++
		defer func() { s.depth-- }()
		for {
			if err := s.skip(); err != nil {
				return err
			}
			switch s.peek() {
			case ',':
				s.i++
			case ']':
				s.i++
				return nil
			default:
				return errSlow
			}
		}
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	return errSlow
}

func (s *scanner) literal(word string) error {
	if !bytes.HasPrefix(s.data[s.i:], []byte(word)) {
		return errSlow
	}
	s.i += len(word)
	return nil
}

// number passes over -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() error {
	d := s.data
	digits := func() int {
		n := 0
		for s.i < len(d) && d[s.i] >= '0' && d[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if s.i < len(d) && d[s.i] == '-' {
		s.i++
	}
	if s.i < len(d) && d[s.i] == '0' {
		s.i++
	} else if digits() == 0 {
		return errSlow
	}
	if s.i < len(d) && d[s.i] == '.' {
		s.i++
		if digits() == 0 {
			return errSlow
		}
	}
	if s.i < len(d) && (d[s.i] == 'e' || d[s.i] == 'E') {
		s.i++
		if s.i < len(d) && (d[s.i] == '+' || d[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			return errSlow
		}
	}
	return nil
}

// skipString passes over the string at s.i, checking its escapes and that it holds no control character.
func (s *scanner) skipString() error {
	d := s.data
	for i := s.i + 1; i < len(d); i++ {
		switch c := d[i]; {
		case c == '"':
			s.i = i + 1
			return nil
		case c < 0x20:
			return errSlow
		case c == '\\':
			i++
			if i >= len(d) {
				return errSlow
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d) {
					return errSlow
				}
				for _, h := range d[i+1 : i+5] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return errSlow
					}
				}
				i += 4
			default:
				return errSlow
			}
		}
	}
	return errSlow
}

// str reads a string value; null leaves dst as it is, as encoding/json does.
func (s *scanner) str(dst *string) error {
	if s.null() {
		return nil
	}
	if s.peek() != '"' {
		return errSlow
	}
	start := s.i
	if err := s.skipString(); err != nil {
		return err
	}
	raw := s.data[start+1 : s.i-1]
	// encoding/json resolves escapes and makes each invalid UTF-8 byte U+FFFD: such a string is its to read.
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		*dst = string(raw)
		return nil
	}
	return json.Unmarshal(s.data[start:s.i], dst)
}

func (s *scanner) null() bool {
	if s.peek() == 'n' && bytes.HasPrefix(s.data[s.i:], []byte("null")) {
		s.i += 4
		return true
	}
	return false
}

// int reads an integer value.
func (s *scanner) int(dst *int) error {
	if s.null() {
		return nil
	}
	start := s.i
	if err := s.skip(); err != nil {
		return err
	}
	n, err := strconv.Atoi(string(s.data[start:s.i]))
	if err != nil {
		return errSlow
	}
	*dst = n
	return nil
}

func (s *scanner) intPtr(dst **int) error {
	if s.null() {
		return nil
	}
	var n int
	if err := s.int(&n); err != nil {
		return err
	}
	*dst = &n
	return nil
}

func (s *scanner) line(l *line) error {
	return s.object(func(key string) error {
		switch key {
		case "response":
			if s.null() {
				return nil
			}
			l.Response = &line{}
			return s.line(l.Response)
		case "request_id":
			return s.str(&l.RequestID)
		case "task":
			return s.str(&l.Task)
		case "turn":
			return s.int(&l.Turn)
		case "time":
			return s.str(&l.Time)
		case "provider":
			return s.str(&l.Provider)
		case "model":
			return s.str(&l.Model)
		case "id":
			return s.str(&l.ID)
		case "type":
			return s.str(&l.Type)
		case "object":
			return s.str(&l.Object)
		case "responseId":
			return s.str(&l.ResponseID)
		case "modelVersion":
			return s.str(&l.ModelVersion)
		case "usage":
			if s.null() {
				return nil
			}
			l.Usage = &rawUsage{}
			return s.usage(l.Usage)
		case "usageMetadata":
			if s.null() {
				return nil
			}
			l.UsageMetadata = &geminiUsage{}
			return s.gemini(l.UsageMetadata)
		case "error":
			start := s.i
			if s.null() {
				return nil
			}
			if err := s.skip(); err != nil {
				return err
			}
			raw := json.RawMessage(s.data[start:s.i])
			l.Error = &raw
			return nil
		}
		return s.other(key, lineKeys)
	})
}

func (s *scanner) usage(u *rawUsage) error {
	return s.object(func(key string) error {
		switch key {
		case "input_tokens":
			return s.intPtr(&u.InputTokens)
		case "output_tokens":
			return s.int(&u.OutputTokens)
		case "cache_creation_input_tokens":
			return s.int(&u.CacheCreationInputTokens)
		case "cache_read_input_tokens":
			return s.int(&u.CacheReadInputTokens)
		case "cache_creation":
			if s.null() {
				return nil
			}
			u.CacheCreation = &cacheCreation{}
			return s.object(func(key string) error {
				switch key {
				case "ephemeral_5m_input_tokens":
					return s.int(&u.CacheCreation.Ephemeral5m)
				case "ephemeral_1h_input_tokens":
					return s.int(&u.CacheCreation.Ephemeral1h)
				}
				return s.other(key, cacheCreationKeys)
			})
		case "prompt_tokens":
			return s.intPtr(&u.PromptTokens)
		case "completion_tokens":
			return s.int(&u.CompletionTokens)
		case "prompt_tokens_details":
			return s.details(&u.PromptTokensDetails)
		case "input_tokens_details":
			return s.details(&u.InputTokensDetails)
		case "prompt_cache_hit_tokens":
			return s.intPtr(&u.PromptCacheHitTokens)
		case "prompt_cache_miss_tokens":
			return s.intPtr(&u.PromptCacheMissTokens)
		case "inputTokens":
			return s.intPtr(&u.BedrockInputTokens)
		case "outputTokens":
			return s.int(&u.BedrockOutputTokens)
		case "cacheReadInputTokens":
			return s.int(&u.CacheReadInputTokensB)
		case "cacheWriteInputTokens":
			return s.int(&u.CacheWriteInputTokens)
		case "cacheDetails":
			return errSlow // rare: Bedrock with cache lifetimes
		}
		return s.other(key, usageKeys)
	})
}

func (s *scanner) details(dst **details) error {
	if s.null() {
		return nil
	}
	d := &details{}
	*dst = d
	return s.object(func(key string) error {
		switch key {
		case "cached_tokens":
			return s.int(&d.CachedTokens)
		case "cache_write_tokens":
			return s.int(&d.CacheWriteTokens)
		case "cache_creation_input_tokens":
			return s.int(&d.CacheCreationInputTokens)
		case "cache_type":
			return s.str(&d.CacheType)
		}
		return s.other(key, detailsKeys)
	})
}

func (s *scanner) gemini(g *geminiUsage) error {
	return s.object(func(key string) error {
		switch key {
		case "promptTokenCount":
			return s.intPtr(&g.PromptTokenCount)
		case "cachedContentTokenCount":
			return s.int(&g.CachedContentTokenCount)
		case "candidatesTokenCount":
			return s.int(&g.CandidatesTokenCount)
		case "thoughtsTokenCount":
			return s.int(&g.ThoughtsTokenCount)
		case "toolUsePromptTokenCount":
			return s.int(&g.ToolUsePromptTokenCount)
		}
		return s.other(key, geminiKeys)
	})
}

// other passes over the value of a key that no case of the caller reads, unless encoding/json would match the key to
// one of known (the keys of the struct the caller fills) without regard to case: that line is the decoder's, which
// reads it so, or refuses it when the object holds the field's own key too. (The key is ASCII: object sends any
// other to the decoder.)
func (s *scanner) other(key string, known *fields) error {
	if len(key) < 64 && known.lens&(1<<len(key)) != 0 {
		for _, k := range known.keys {
			if len(k) == len(key) && k != key && strings.EqualFold(k, key) {
				return errSlow
			}
		}
	}
	return s.skip()
}

// fields are the JSON keys of a struct scan fills, as encoding/json reads them (their tags), with a bit set in lens
// for the length of each: most keys a line holds match none, and are told so by their length.
type fields struct {
	keys []string
	lens uint64
}

// The keys of the structs scan fills.
var (
	lineKeys          = jsonKeys(reflect.TypeFor[line]())
	usageKeys         = jsonKeys(reflect.TypeFor[rawUsage]())
	cacheCreationKeys = jsonKeys(reflect.TypeFor[cacheCreation]())
	detailsKeys       = jsonKeys(reflect.TypeFor[details]())
	geminiKeys        = jsonKeys(reflect.TypeFor[geminiUsage]())
)

func jsonKeys(t reflect.Type) *fields {
	f := &fields{}
	for sf := range t.Fields() {
		k := tagName(sf)
		f.keys = append(f.keys, k)
		if len(k) < 64 {
			f.lens |= 1 << len(k)
		}
	}
	return f
}

func tagName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

// foldedKey says whether key, in the object at path (the keys from the line's top, "[]" for an array's item), is one
// encoding/json matches to a field of a struct of line's without regard to case: two such keys that differ only in
// case are one field, and so a duplicate (jsondup.Find's fold). Any other key is a key like any other.
func foldedKey(path []string, key string) bool {
	t, ok := structAt(path)
	if !ok {
		return false
	}
	for f := range t.Fields() {
		if strings.EqualFold(tagName(f), key) {
			return true
		}
	}
	return false
}

// structAt is the struct of line's that the object at path is read into.
func structAt(path []string) (reflect.Type, bool) {
	t := reflect.TypeFor[line]()
	for _, p := range path {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Slice:
			if p != "[]" {
				return nil, false
			}
			t = t.Elem()
			continue
		case reflect.Struct:
		default:
			return nil, false
		}
		found := false
		for f := range t.Fields() {
			if strings.EqualFold(tagName(f), p) {
				t, found = f.Type, true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t, t.Kind() == reflect.Struct
}
