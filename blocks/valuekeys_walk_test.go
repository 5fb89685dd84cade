package blocks

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/promptc/promptc/internal/hostile"
	"github.com/promptc/promptc/source"
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
		d := walkKeys(src)
		keys := d.keys
		var doc map[string]any
		_, err := toml.Decode(src, &doc)
		for _, k := range keys {
			path := d.path(k.node, nil)
			if k.start < 0 || k.start >= k.end || k.end > len(src) || len(path) == 0 || path[len(path)-1].index >= 0 {
				t.Fatalf("key %+v is not a key of %q", k, src)
			}
			if c := src[k.start]; c != '"' && c != '\'' && !isBareKeyByte(int(c)) {
				t.Fatalf("key %+v of %q starts with %q", k, src, c)
			}
			if err == nil && !lookupPath(doc, path) {
				t.Fatalf("key %q at %d: path %+v is not in the decoded %q", src[k.start:k.end], k.start, path, src)
			}
		}
		for _, h := range d.heads {
			path := d.path(h.node, nil)
			if h.start < 0 || h.start >= h.end || h.end > len(src) || src[h.start] != '[' || len(path) == 0 || path[len(path)-1].index < 0 {
				t.Fatalf("header %+v is not an [[array]] header of %q", h, src)
			}
			if err == nil && !lookupPath(doc, path) {
				t.Fatalf("header %q: path %+v is not in the decoded %q", src[h.start:h.end], path, src)
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
	d := walkKeys(walkSeeds[0])
	var got []string
	for _, k := range d.keys {
		var b strings.Builder
		for _, st := range d.path(k.node, nil) {
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

// BenchmarkWalkKeys walks a 1 MB fixture of records, inline and as arrays of tables, over ten turns: the walk runs
// once per fixture file at every load, so it must cost about what the decoder's own pass does, linear in the size.
func BenchmarkWalkKeys(b *testing.B) {
	var src strings.Builder
	for turn := 0; src.Len() < 1<<20; turn++ {
		src.WriteString("[[turn]]\nchanged = [{path = \"a.go\", status = \"M\"}, {path = \"b.go\", status = \"A\"}]\n")
		for r := 0; r < 200; r++ {
			src.WriteString("[[turn.files]]\npath = \"internal/x/y.go\"\nref = {url = \"https://example.com/a\", tags = [{label = \"go\"}]}\n")
		}
	}
	text := src.String()
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		walkKeys(text)
	}
}

// BenchmarkPlaceEveryTurn places one mistake in every turn of a fixture of 4,000 turns (200 KB), as the loader does
// when each turn's record has a bad field: the lookups must stay linear in the file, not walk every key per mistake.
func BenchmarkPlaceEveryTurn(b *testing.B) {
	const turns = 4000
	text := strings.Repeat("[[turn]]\nmsg = \"x\"\n[[turn.repos]]\nurl = \"u\"\nbad = 1\n", turns)
	f := source.NewFile("f.toml", text)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		d := walkKeys(text)
		for i := range turns {
			at := []valueStep{{key: "turn", index: -1}, {index: i}, {key: "repos", index: -1}, {index: 0}}
			if _, ok := d.place(f, at, "bad"); !ok {
				b.Fatalf("turn %d: the key is not found", i)
			}
		}
	}
}

// TestPlaceScanAsMap: the first places are found by a scan of the keys, the rest through the map of every path
// (docKeys.place); both give the same place for every path of the seeds, its prefixes, and paths that go on below
// a key or stop above it.
func TestPlaceScanAsMap(t *testing.T) {
	for _, src := range walkSeeds {
		f := source.NewFile("f.toml", src)
		d := walkKeys(src)
		var paths [][]valueStep
		for _, list := range [][]pathKey{d.keys, d.heads} {
			for _, k := range list {
				p := d.path(k.node, nil)
				paths = append(paths, p, append(slices.Clone(p), valueStep{key: "below", index: -1}), append(slices.Clone(p), valueStep{index: 7}))
			}
		}
		m := walkKeys(src)
		m.scans = 8 // no scan: the map is made at the first look
		m.place(f, nil, "")
		for _, full := range paths {
			for w := 0; w <= len(full); w++ {
				within := full[:w]
				scanned, sok := d.scan(within, full)
				var mapped pathKey
				mok := false
				for cut := len(full); !mok && cut >= len(within) && cut > 0; cut-- {
					mapped, mok = m.firstAt[pathString(full[:cut])]
				}
				if sok != mok || scanned != mapped {
					t.Fatalf("%q, %v within %d: scan %v %v, map %v %v", src, full, w, scanned, sok, mapped, mok)
				}
			}
		}
	}
}
