// Package jsondup finds a key that a JSON object holds twice. encoding/json keeps the last of two equal keys without a
// word, so a reader that decodes with it asks Find first: promptc refuses a duplicate key wherever it reads JSON, and
// says where both are (docs/usage.md).
package jsondup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting Find walks, encoding/json's own limit: a text nested deeper is not JSON that
// encoding/json decodes, and Find reports nothing in it.
const MaxDepth = 10000

// Error is a key an object holds twice.
type Error struct {
	// Key is the second key as decoded (its escapes resolved); FirstKey the first, which differs from Key only
	// when the object's keys are compared without regard to case.
	Key, FirstKey string
	// Offset and First are the byte offsets of the two keys' opening quotes, First < Offset.
	Offset, First int
}

// Error words the problem with byte offsets; Message words it with the first key's place as its reader names it.
func (e *Error) Error() string { return e.Message(fmt.Sprintf("byte %d", e.First)) }

// Message is the duplicate key as every promptc reader reports it, with first naming where the first key is
// ("3:5"): `duplicate key "url" (first at 3:5): a JSON object may hold each key once`.
func (e *Error) Message(first string) string {
	if e.FirstKey != e.Key {
		return fmt.Sprintf("duplicate key %q (first at %s, as %q: keys are matched without regard to case): a JSON object may hold each key once", e.Key, first, e.FirstKey)
	}
	return fmt.Sprintf("duplicate key %q (first at %s): a JSON object may hold each key once", e.Key, first)
}

// Position returns the line and column (in runes, both from 1) of byte off of data.
func Position(data []byte, off int) (line, col int) {
	off = max(0, min(off, len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	return line, utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
}

// Find returns the first key of data (in the order of the text) that repeats a key of the same object, keys compared
// as encoding/json decodes them (escapes resolved: "a" and "\u0061" are one key; invalid UTF-8 made U+FFFD), or nil
// when there is none. fold, when not nil,
// names the keys compared as encoding/json matches a key to a struct field, without regard to case: it is given the
// keys leading to the object from the top ("[]" for an array's item) and the key, and reports whether the key is
// matched so (it names a field of the struct the object is read into); two such keys that differ only in case are one.
// Find reports nothing in a text that is not JSON past the point where it stops being JSON: the decoder says what is
// wrong there.
func Find(data []byte, fold func(path []string, key string) bool) *Error {
	w := walker{data: data, fold: fold}
	w.value(0)
	return w.dup
}

type key struct {
	name []byte // as compared: as decoded, or folded
	// folded is set when name is folded: a folded key is never equal to one compared byte for byte.
	folded bool
	raw    string // as decoded
	off    int
}

type walker struct {
	data []byte
	i    int
	fold func(path []string, key string) bool
	path []string
	// keys holds the keys of every object open, innermost last: an object compares its keys from its base on.
	keys []key
	dup  *Error
	bad  bool
}

func (w *walker) ws() {
	for w.i < len(w.data) {
		switch w.data[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

// value walks the value at w.i; it stops (w.bad) at the first byte that is not JSON, and at the first duplicate.
func (w *walker) value(depth int) {
	if depth > MaxDepth {
		w.bad = true
		return
	}
	w.ws()
	if w.i >= len(w.data) {
		w.bad = true
		return
	}
	switch w.data[w.i] {
	case '{':
		w.object(depth)
	case '[':
		w.i++
		w.ws()
		if w.i < len(w.data) && w.data[w.i] == ']' {
			w.i++
			return
		}
		w.path = append(w.path, "[]")
		defer func() { w.path = w.path[:len(w.path)-1] }()
		for {
			w.value(depth + 1)
			if w.bad || w.dup != nil {
				return
			}
			w.ws()
			if w.i >= len(w.data) {
				w.bad = true
				return
			}
			switch w.data[w.i] {
			case ',':
				w.i++
			case ']':
				w.i++
				return
			default:
				w.bad = true
				return
			}
		}
	case '"':
		w.str()
	default:
		// A number or a literal: the decoder checks them; Find passes over their bytes.
		for w.i < len(w.data) && bytes.IndexByte([]byte("{}[],:\" \t\n\r"), w.data[w.i]) < 0 {
			w.i++
		}
	}
}

// str passes over the string at w.i and returns its bytes between the quotes, and whether they hold an escape.
func (w *walker) str() (raw []byte, escaped bool) {
	start := w.i + 1
	for i := start; i < len(w.data); i++ {
		switch w.data[i] {
		case '"':
			w.i = i + 1
			return w.data[start:i], escaped
		case '\\':
			escaped = true
			i++
		}
	}
	w.bad = true
	return nil, false
}

func (w *walker) object(depth int) {
	w.i++ // {
	base := len(w.keys)
	defer func() { w.keys = w.keys[:base] }()
	var many map[string]int // past a few keys, an index of the object's keys
	for {
		w.ws()
		if w.i >= len(w.data) {
			w.bad = true
			return
		}
		if w.data[w.i] == '}' && len(w.keys) == base {
			w.i++
			return
		}
		if w.data[w.i] != '"' {
			w.bad = true
			return
		}
		off := w.i
		raw, escaped := w.str()
		if w.bad {
			return
		}
		name := raw
		// A decoder resolves escapes and makes each invalid UTF-8 byte U+FFFD ("\x93" and "\x88" are one key).
		if escaped || !utf8.Valid(raw) {
			var s string
			if json.Unmarshal(w.data[off:w.i], &s) != nil {
				w.bad = true
				return
			}
			name = []byte(s)
		}
		k := key{name: name, raw: string(name), off: off}
		if w.fold != nil && w.fold(w.path, k.raw) {
			k.name, k.folded = foldName(name), true
		}
		if first := w.find(k, base, many); first >= 0 {
			f := w.keys[first]
			w.dup = &Error{Key: k.raw, FirstKey: f.raw, Offset: off, First: f.off}
			return
		}
		w.keys = append(w.keys, k)
		if n := len(w.keys) - base; n == 8 {
			many = make(map[string]int, 16)
			for j := base; j < len(w.keys); j++ {
				many[mapKey(w.keys[j])] = j
			}
		} else if many != nil {
			many[mapKey(k)] = len(w.keys) - 1
		}
		w.ws()
		if w.i >= len(w.data) || w.data[w.i] != ':' {
			w.bad = true
			return
		}
		w.i++
		w.path = append(w.path, k.raw)
		w.value(depth + 1)
		w.path = w.path[:len(w.path)-1]
		if w.bad || w.dup != nil {
			return
		}
		w.ws()
		if w.i >= len(w.data) {
			w.bad = true
			return
		}
		switch w.data[w.i] {
		case ',':
			w.i++
		case '}':
			w.i++
			return
		default:
			w.bad = true
			return
		}
	}
}

// find returns the index of the key of the open object (from base on) equal to k, or -1.
func (w *walker) find(k key, base int, many map[string]int) int {
	if many != nil {
		if j, ok := many[mapKey(k)]; ok {
			return j
		}
		return -1
	}
	for j := base; j < len(w.keys); j++ {
		if w.keys[j].folded == k.folded && bytes.Equal(w.keys[j].name, k.name) {
			return j
		}
	}
	return -1
}

// mapKey is k in an object's index of many keys: folded keys and others apart.
func mapKey(k key) string {
	if k.folded {
		return "f" + string(k.name)
	}
	return "r" + string(k.name)
}

// foldName folds a key as encoding/json does to match it to a struct field: two keys fold alike exactly when
// bytes.EqualFold says they are equal.
func foldName(in []byte) []byte {
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); {
		if c := in[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(in[i:])
		out = utf8.AppendRune(out, unicode.ToUpper(unicode.ToLower(r)))
		i += n
	}
	return out
}
