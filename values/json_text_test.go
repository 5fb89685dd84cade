package values

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// FuzzDecodeJSONText checks the reader of decode = "json" texts against encoding/json: on any text it accepts a value
// exactly when encoding/json does (but for what it refuses on purpose: a key twice in one object, a number no
// float64 holds, nesting deeper than MaxNesting), then with the same value; every problem is placed in the text.
func FuzzDecodeJSONText(f *testing.F) {
	for _, s := range []string{
		`{"url": "u", "git_ref": "main"}`, `[{"name": "a"}, {"name": "b"}]`, `{"url":"https://docs","url":"https://evil.io"}`,
		"{\"url\": \ufeff\"u\"}", "\ufeff{}", `{"n": 1e400}`, `{"n": 1` + strings.Repeat("0", 400) + `}`, ``, ` `, `{} {}`,
		`{"a": {"b": {"a": 1, "a": 2}}}`, `"\ud800"`, `{"a": 01}`, `{"a": tru}`, `[1,]`, strings.Repeat("[", 70),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, problems, _ := decodeJSONText(s, nil)
		var want any
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		err := dec.Decode(&want)
		if err == nil && strings.TrimLeft(s[dec.InputOffset():], " \t\r\n") != "" {
			err = errTrailing
		}
		if len(problems) == 0 {
			if err != nil {
				t.Fatalf("accepted %q, which encoding/json refuses: %v", s, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q: got %#v, encoding/json %#v", s, got, want)
			}
			return
		}
		for _, p := range problems {
			if p.msg == "" || p.at.Line < 1 || p.at.Column < 1 || p.at.Byte > len(s) {
				t.Fatalf("%q: problem %+v has no message or no place in the text", s, p)
			}
		}
		if m := problems[0].msg; err == nil && !strings.Contains(m, "duplicate key") && !strings.Contains(m, "out of range") &&
			!strings.Contains(m, "nested more than") {
			t.Fatalf("refused %q, which encoding/json accepts: %s", s, m)
		}
	})
}

var errTrailing = jsonErr("trailing data")

type jsonErr string

func (e jsonErr) Error() string { return string(e) }
