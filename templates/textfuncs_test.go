package templates

import (
	"encoding/json"
	"testing"
)

func TestBullets(t *testing.T) {
	tests := []struct {
		name    string
		in      any
		want    string
		wantErr string
	}{
		{name: "strings", in: []string{"a", "b"}, want: "- a\n- b"},
		{name: "one", in: []string{"only"}, want: "- only"},
		{name: "any", in: []any{"a", "b", "c"}, want: "- a\n- b\n- c"},
		{name: "empty", in: []string{}, want: ""},
		{name: "empty any", in: []any{}, want: ""},
		{name: "nil", in: nil, want: ""},
		{name: "empty item", in: []string{"", "x"}, want: "- \n- x"},
		{name: "item with newline", in: []string{"a\nb"}, want: "- a\nb"},
		{name: "multibyte", in: []string{"日本"}, want: "- 日本"},
		{name: "not a list", in: 3, wantErr: "want a list of strings, got an integer"},
		{name: "string", in: "abc", wantErr: "want a list of strings, got a string"},
		{name: "ints", in: []int{1}, wantErr: "want a list of strings, got a []int"},
		{name: "item not a string", in: []any{"a", 1}, wantErr: "want a list of strings, but item 1 is an integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Bullets(tt.in)
			checkFunc(t, "Bullets", tt.in, got, err, tt.want, tt.wantErr)
		})
	}
}

func TestJoin(t *testing.T) {
	tests := []struct {
		name    string
		in      any
		sep     string
		want    string
		wantErr string
	}{
		{name: "strings", in: []string{"a", "b", "c"}, sep: ", ", want: "a, b, c"},
		{name: "one", in: []string{"a"}, sep: ", ", want: "a"},
		{name: "any", in: []any{"a", "b"}, sep: "/", want: "a/b"},
		{name: "empty separator", in: []string{"a", "b"}, sep: "", want: "ab"},
		{name: "newline separator", in: []string{"a", "b"}, sep: "\n", want: "a\nb"},
		{name: "empty", in: []string{}, sep: ", ", want: ""},
		{name: "nil", in: nil, sep: ", ", want: ""},
		{name: "empty items", in: []string{"", ""}, sep: "-", want: "-"},
		{name: "not a list", in: true, sep: ",", wantErr: "want a list of strings, got a boolean"},
		{name: "item not a string", in: []any{1.5}, sep: ",", wantErr: "want a list of strings, but item 0 is a float"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Join(tt.in, tt.sep)
			checkFunc(t, "Join", tt.in, got, err, tt.want, tt.wantErr)
		})
	}
}

type jsonPoint struct {
	Y     int    `json:"y"`
	X     int    `json:"x"`
	Label string `json:"label,omitempty"`
}

func TestJSON(t *testing.T) {
	tests := []struct {
		name    string
		in      any
		want    string
		wantErr string
	}{
		{name: "nil", in: nil, want: "null"},
		{name: "string", in: "a", want: `"a"`},
		{name: "html not escaped", in: "<a href=\"x\">&</a>", want: `"<a href=\"x\">&</a>"`},
		{name: "control escaped", in: "a\nb\t\x00", want: `"a\nb\t\u0000"`},
		{name: "multibyte raw", in: "日本 🙂", want: `"日本 🙂"`},
		{name: "int", in: 42, want: "42"},
		{name: "float", in: 1.5, want: "1.5"},
		{name: "bool", in: true, want: "true"},
		{name: "list", in: []string{"a", "<>&"}, want: `["a","<>&"]`},
		{name: "empty list", in: []string{}, want: "[]"},
		{name: "nil list", in: []string(nil), want: "null"},
		{name: "any list", in: []any{"a", 1, false, nil}, want: `["a",1,false,null]`},
		{name: "map keys sorted", in: map[string]any{"b": 1, "a": "x", "c": []string{"<>&"}, "B": true},
			want: `{"B":true,"a":"x","b":1,"c":["<>&"]}`},
		{name: "nested maps sorted", in: map[string]any{"z": map[string]int{"y": 1, "x": 2}, "a": map[string]any{}},
			want: `{"a":{},"z":{"x":2,"y":1}}`},
		{name: "struct fields sorted", in: jsonPoint{Y: 2, X: 1}, want: `{"x":1,"y":2}`},
		{name: "struct in map", in: map[string]any{"p": jsonPoint{Y: 2, X: 1, Label: "<p>"}},
			want: `{"p":{"label":"<p>","x":1,"y":2}}`},
		{name: "large int kept exact", in: map[string]any{"n": int64(1<<62 + 1)}, want: `{"n":4611686018427387905}`},
		{name: "raw message compacted", in: map[string]any{"r": json.RawMessage(`{ "b" : 1, "a" : [ 1 , 2 ] }`)},
			want: `{"r":{"a":[1,2],"b":1}}`},
		{name: "unsupported", in: map[string]any{"c": make(chan int)}, wantErr: "json: unsupported type: chan int"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := JSON(tt.in)
			checkFunc(t, "JSON", tt.in, got, err, tt.want, tt.wantErr)
		})
	}
}

func TestJSONDeterministic(t *testing.T) {
	m := map[string]any{}
	for _, k := range []string{"q", "w", "e", "r", "t", "y", "u", "i", "o", "p", "a", "s", "d", "f", "g", "h"} {
		m[k] = map[string]any{k + "2": k, k + "1": []any{k, 1}}
	}
	first, err := JSON(m)
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		if got, _ := JSON(m); got != first {
			t.Fatalf("JSON differs between calls:\n%s\n%s", first, got)
		}
	}
}

func checkFunc(t *testing.T, fn string, in any, got string, err error, want, wantErr string) {
	t.Helper()
	if wantErr != "" {
		if err == nil || err.Error() != wantErr {
			t.Fatalf("%s(%#v) = %q, %v; want error %q", fn, in, got, err, wantErr)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s(%#v) error: %v", fn, in, err)
	}
	if got != want {
		t.Errorf("%s(%#v) = %q, want %q", fn, in, got, want)
	}
}
