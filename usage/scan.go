package usage

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// Reading a million lines in seconds rules out encoding/json's reflection for every line: scan reads a line by
// walking it once, checking its syntax as it goes, descending only into the keys a Record needs and skipping the rest
// (content, choices, candidates). Anything it does not expect (an escaped key, a number that is not an integer, a
// value of the wrong type) sends the line to json.Unmarshal, whose errors name the field; so both paths agree on
// every line scan accepts.

var errSlow = errors.New("usage: line needs the full decoder")

type scanner struct {
	data []byte
	i    int
}

// parseFast decodes a valid JSON line into l, or returns errSlow.
func parseFast(data []byte, l *line) error {
	s := scanner{data: data}
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
	if s.peek() != '{' {
		return errSlow
	}
	s.i++
	if s.peek() == '}' {
		s.i++
		return nil
	}
	for {
		if s.peek() != '"' {
			return errSlow
		}
		start := s.i + 1
		if err := s.skipString(); err != nil {
			return err
		}
		key := s.data[start : s.i-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return errSlow
		}
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

// skip passes over the value at s.i, checking it is JSON: anything else is errSlow, and encoding/json then says
// what is wrong.
func (s *scanner) skip() error {
	switch c := s.peek(); {
	case c == '"':
		return s.skipString()
	case c == '{':
		return s.object(func(string) error { return s.skip() })
	case c == '[':
		s.i++
		if s.peek() == ']' {
			s.i++
			return nil
		}
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
	if bytes.IndexByte(raw, '\\') < 0 {
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
		return s.skip()
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
				return s.skip()
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
		return s.skip()
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
		return s.skip()
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
		return s.skip()
	})
}
