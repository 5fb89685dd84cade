package jsondup

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

var tests = []struct {
	name, json string
	fold       []string // the path of the one folding object, "" joined by "/"; nil: none
	key, first string   // "" for no duplicate
	off, at    int
}{
	{name: "none", json: `{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}`},
	{name: "top level", json: `{"url":"https://docs","url":"https://evil.io"}`, key: "url", first: "url", off: 22, at: 1},
	{name: "nested", json: `{"a":{"b":1, "b":2}}`, key: "b", first: "b", off: 13, at: 6},
	{name: "in an array item", json: `[1,{"x":0},{"x":1,"y":2,"x":3}]`, key: "x", first: "x", off: 24, at: 12},
	{name: "an escape is the same key", json: `{"a":1,"\u0061":2}`, key: "a", first: "a", off: 7, at: 1},
	{name: "invalid UTF-8 decodes as U+FFFD", json: "{\"\x93\":0,\"\x88\":0}", key: "\ufffd", first: "\ufffd", off: 7, at: 1},
	{name: "the first of two duplicates in text order", json: `{"o":{"p":1,"p":2},"q":1,"q":2}`, key: "p", first: "p", off: 12, at: 6},
	{name: "case differs: two keys", json: `{"usage":1,"Usage":2}`},
	{name: "case differs in a folding object", json: `{"usage":1,"Usage":2}`, fold: []string{}, key: "Usage", first: "usage", off: 11, at: 1},
	{name: "Kelvin sign folds to k", json: `{"r":{"tokens":1,"to\u212aens":2}}`, fold: []string{"r"}, key: "to\u212aens", first: "tokens", off: 17, at: 6},
	{name: "folding only where asked", json: `{"r":{"a":{"x":1,"X":2}}}`, fold: []string{"r"}},
	{name: "folding only the keys asked", json: `{"other":1,"OTHER":2}`, fold: []string{}},
	{name: "a key folded and one not are two", json: `{"x":1,"fX":2}`, fold: []string{}},
	{name: "exact duplicates of keys not folded", json: `{"usage":{},"other":1,"other":2}`, fold: []string{}, key: "other", first: "other", off: 22, at: 12},
	{name: "folding an array's item", json: `{"l":[{"x":1,"X":2}]}`, fold: []string{"l", "[]"}, key: "X", first: "x", off: 13, at: 7},
	{name: "many keys", json: `{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k3":10}`, key: "k3", first: "k3", off: 71, at: 22},
	{name: "many keys, the ninth repeated", json: `{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k8":9}`, key: "k8", first: "k8", off: 64, at: 57},
	{name: "a key ends each object", json: `{"a":{"a":{"a":1}},"b":[],"c":{}}`},
	{name: "strings holding braces and quotes", json: `{"a":"}\"{","b":"\\","a":1}`, key: "a", first: "a", off: 21, at: 1},
	{name: "not JSON before the duplicate", json: `{"a":1,,"a":2}`},
	{name: "not JSON: an unterminated key", json: `{"a":1,"a`},
	{name: "not JSON: no colon", json: `{"a" 1}`},
	{name: "not JSON: a trailing comma", json: `{"a":1,}`},
	{name: "not JSON: a bad array", json: `[1 2]`},
	{name: "not JSON: an unterminated array", json: `[1,`},
	{name: "not JSON: an unterminated object", json: `{"a":1`},
	{name: "not JSON: a bad escape in a key", json: `{"\x":1,"\x":2}`},
	{name: "empty", json: ``},
	{name: "a scalar", json: ` 12 `},
}

func TestFind(t *testing.T) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var fold func([]string, string) bool
			if tt.fold != nil {
				fold = func(p []string, k string) bool {
					return slices.Equal(p, tt.fold) && k != "other" && k != "OTHER" && !strings.HasPrefix(k, "f")
				}
			}
			got := Find([]byte(tt.json), fold)
			if tt.key == "" {
				if got != nil {
					t.Fatalf("Find = %+v, want none", got)
				}
				return
			}
			if got == nil || got.Key != tt.key || got.FirstKey != tt.first || got.Offset != tt.off || got.First != tt.at {
				t.Fatalf("Find = %+v, want %q (first %q) at %d, first at %d", got, tt.key, tt.first, tt.off, tt.at)
			}
			if tt.json[got.Offset] != '"' || tt.json[got.First] != '"' {
				t.Errorf("offsets %d and %d are not the keys' quotes", got.Offset, got.First)
			}
		})
	}
}

func TestMessage(t *testing.T) {
	e := Find([]byte(`{"url":1,"url":2}`), nil)
	if got, want := e.Message("3:5"), `duplicate key "url" (first at 3:5): a JSON object may hold each key once`; got != want {
		t.Errorf("Message = %q, want %q", got, want)
	}
	if got, want := e.Error(), `duplicate key "url" (first at byte 1): a JSON object may hold each key once`; got != want {
		t.Errorf("Error = %q, want %q", got, want)
	}
	e = Find([]byte(`{"a\u001b":1,"A`+"\\u001b"+`":2}`), func([]string, string) bool { return true })
	if got, want := e.Message("1:2"), `duplicate key "A\x1b" (first at 1:2, as "a\x1b": keys are matched without regard to case): a JSON object may hold each key once`; got != want {
		t.Errorf("Message = %q, want %q", got, want)
	}
}

func TestPosition(t *testing.T) {
	data := []byte("{\n  \"é\": 1,\n  \"x\": 2}")
	for _, tt := range []struct{ off, line, col int }{{0, 1, 1}, {2, 2, 1}, {4, 2, 3}, {9, 2, 7}, {14, 3, 2}, {-1, 1, 1}, {99, 3, 10}} {
		if l, c := Position(data, tt.off); l != tt.line || c != tt.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", tt.off, l, c, tt.line, tt.col)
		}
	}
}

// Nesting deeper than encoding/json decodes is not walked (and does not exhaust the stack).
func TestDepth(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+5) + `{"a":1,"a":2}` + strings.Repeat("]", MaxDepth+5)
	if e := Find([]byte(deep), nil); e != nil {
		t.Errorf("Find walked past the depth limit: %+v", e)
	}
	ok := strings.Repeat("[", MaxDepth-1) + `{"a":1,"a":2}` + strings.Repeat("]", MaxDepth-1)
	if e := Find([]byte(ok), nil); e == nil || e.Offset != MaxDepth-1+7 {
		t.Errorf("Find at the depth limit: %+v", e)
	}
}

// FuzzFind: on every text encoding/json decodes, Find reports a duplicate exactly when decoding the text into generic
// maps loses a key, at a key of the text that repeats an earlier one.
func FuzzFind(f *testing.F) {
	for _, tt := range tests {
		f.Add(tt.json)
	}
	f.Fuzz(func(t *testing.T, s string) {
		data := []byte(s)
		e := Find(data, nil)
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		lost := countKeys(data) != mapKeys(v)
		if lost != (e != nil) {
			t.Fatalf("Find = %+v; decoding lost a key: %v", e, lost)
		}
		if e != nil {
			var a, b string
			if json.Unmarshal(keyAt(data, e.Offset), &a) != nil || json.Unmarshal(keyAt(data, e.First), &b) != nil || a != b || a != e.Key || e.First >= e.Offset {
				t.Fatalf("Find = %+v: keys %q and %q", e, a, b)
			}
		}
	})
}

// countKeys counts the keys of every object of a valid text, with encoding/json's tokenizer.
func countKeys(data []byte) int {
	type frame struct{ object, key bool } // key: an object's next token is a key
	dec := json.NewDecoder(bytes.NewReader(data))
	var stack []frame
	n := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return n
		}
		if tok == json.Delim('}') || tok == json.Delim(']') {
			stack = stack[:len(stack)-1]
			continue
		}
		if k := len(stack) - 1; k >= 0 && stack[k].object {
			if stack[k].key {
				n++
				stack[k].key = false
				continue
			}
			stack[k].key = true // this token starts the value; a key follows it
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{object: true, key: true})
		case json.Delim('['):
			stack = append(stack, frame{})
		}
	}
}

func mapKeys(v any) int {
	switch x := v.(type) {
	case map[string]any:
		n := len(x)
		for _, e := range x {
			n += mapKeys(e)
		}
		return n
	case []any:
		n := 0
		for _, e := range x {
			n += mapKeys(e)
		}
		return n
	}
	return 0
}

// keyAt is the JSON string starting at off.
func keyAt(data []byte, off int) []byte {
	for i := off + 1; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return data[off : i+1]
		}
	}
	return nil
}
