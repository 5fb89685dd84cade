package blocks

import (
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/promptc/promptc/internal/hostile"
)

// walkSeeds hold the shapes walkKeys must follow: arrays of tables under arrays of tables (the records of the
// second [[turn]] count from 0 again), sub-tables of the last record, dotted keys, inline tables and arrays of
// them, quoted keys, and text that looks like keys inside strings and comments.
var walkSeeds = []string{
	"[[turn]]\n[[turn.c]]\np = 1\n[[turn.c]]\np = 2\n[[turn]]\n[[turn.c]]\n\"p\" = 3\n",
	"[[s.r]]\nref.url = 'x'\n[[s.r.ref.tags]]\nl = 1\n[[s.r]]\n[ s . r . \"ref\" ]\nurl = 2\n",
	"a = {b = {c = [{d = 1}, {'e' = [{f = 2}]}]}}\nturn = [{x = [{y = 1}]}, {x = []}]\n",
	"a = \"\"\"\n[[x]]\nk = 1\n\"\"\" # [y]\nb = [ # c = 1\n  {c = 1},\n]\n",
	"x.\"a.b\".c = 1\n[t]\n'q' . r = {s = \"}\", t = ']'}\n",
	"[[a]]\n[[a]]\n[a.b]\nc = 1\n[[a.d]]\ne = 2\n",
	"", "[", "[[", "a = {", "a = [{b = ", "a.b.", "[a]]\n{", "= 1", "a = [1979-05-27 07:32:00, {b = 1}]",
}

// FuzzWalkKeys checks that no input makes walkKeys panic or hang, that every key it records is a key of the
// source, and, when BurntSushi/toml accepts the input, that each path leads to that key in the decoded document:
// the right element of every array of tables and inline array on the way.
func FuzzWalkKeys(f *testing.F) {
	for _, s := range walkSeeds {
		f.Add(s)
	}
	for _, c := range hostile.Small() {
		f.Add("a = {" + strconv.Quote(c.Value) + " = 1}\n[[" + strconv.Quote(c.Value) + "]]\n")
	}
	f.Fuzz(func(t *testing.T, src string) {
		keys := walkKeys(src).keys
		var doc map[string]any
		_, err := toml.Decode(src, &doc)
		for _, k := range keys {
			if k.start < 0 || k.start >= k.end || k.end > len(src) || len(k.path) == 0 || k.path[len(k.path)-1].index >= 0 {
				t.Fatalf("key %+v is not a key of %q", k, src)
			}
			if c := src[k.start]; c != '"' && c != '\'' && !isBareKeyByte(int(c)) {
				t.Fatalf("key %+v of %q starts with %q", k, src, c)
			}
			if err == nil && !lookupPath(doc, k.path) {
				t.Fatalf("key %q at %d: path %+v is not in the decoded %q", src[k.start:k.end], k.start, k.path, src)
			}
		}
	})
}

// lookupPath reports whether path leads to a value of doc.
func lookupPath(doc any, path []valueStep) bool {
	cur := doc
	for _, st := range path {
		switch x := cur.(type) {
		case map[string]any:
			if st.index >= 0 {
				return false
			}
			v, ok := x[st.key]
			if !ok {
				return false
			}
			cur = v
		case []map[string]any:
			if st.index < 0 || st.index >= len(x) {
				return false
			}
			cur = x[st.index]
		case []any:
			if st.index < 0 || st.index >= len(x) {
				return false
			}
			cur = x[st.index]
		default:
			return false
		}
	}
	return true
}

func TestWalkKeysSeeds(t *testing.T) {
	// The second [[turn]]'s only record is its record 0, not the file's third.
	keys := walkKeys(walkSeeds[0]).keys
	var got []string
	for _, k := range keys {
		var b strings.Builder
		for _, st := range k.path {
			if st.index >= 0 {
				b.WriteString("[" + string(rune('0'+st.index)) + "]")
			} else {
				b.WriteString("." + st.key)
			}
		}
		got = append(got, b.String())
	}
	want := ".turn .turn .turn[0].c .turn[0].c[0].p .turn .turn[0].c .turn[0].c[1].p .turn .turn .turn[1].c .turn[1].c[0].p"
	if strings.Join(got, " ") != want {
		t.Errorf("paths = %s\nwant    %s", strings.Join(got, " "), want)
	}
}
