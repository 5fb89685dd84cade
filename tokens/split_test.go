package tokens

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// interpreted returns sp's pattern compiled for regexp2's interpreter, a backtracking engine as tiktoken's is. The
// pattern is wrapped in a group: github.com/tiktoken-go/tokenizer registers a compiled matcher for the bare pattern
// strings (and the tests link that package), and that matcher splits white space differently (see split).
func interpreted(sp split) *regexp2.Regexp {
	p := o200kSplit
	if sp == splitCl100k {
		p = cl100kSplit
	}
	return regexp2.MustCompile("(?:"+p+")", regexp2.None)
}

var patterns = map[split]*regexp2.Regexp{splitO200k: interpreted(splitO200k), splitCl100k: interpreted(splitCl100k)}

func (sp split) String() string {
	if sp == splitCl100k {
		return "cl100k_base"
	}
	return "o200k_base"
}

// byPattern returns the pieces the pattern's interpreted matcher splits text into.
func byPattern(t testing.TB, sp split, text string) []string {
	var out []string
	m, err := patterns[sp].FindStringMatch(text)
	for ; err == nil && m != nil; m, err = patterns[sp].FindNextMatch(m) {
		out = append(out, m.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func bySplit(sp split, text string) []string {
	var out []string
	sp.pieces(text, func(p string) { out = append(out, p) })
	return out
}

// splitCases are texts whose pieces were worked out by hand from the pattern (and checked against tiktoken's counts
// in testdata/tiktoken.json): the runs of white space the regular expression matcher used before split wrong, and
// one text for each alternative of the patterns and each way back its loops take.
var splitCases = []struct {
	name          string
	text          string
	o200k, cl100k []string
}{
	{"blank context lines", " \n \n \n", []string{" \n \n \n"}, []string{" \n \n \n"}},
	{"blank context lines, then text", " \n \nx", []string{" \n \n", "x"}, []string{" \n \n", "x"}},
	{"indented blank line", "x\n  \n\ty", []string{"x", "\n  \n", "\ty"}, []string{"x", "\n  \n", "\ty"}},
	{"spaces before a word", "a   b", []string{"a", "  ", " b"}, []string{"a", "  ", " b"}},
	{"spaces at the end", "a   ", []string{"a", "   "}, []string{"a", "   "}},
	{"one tab before a word", "a\tb", []string{"a", "\tb"}, []string{"a", "\tb"}},
	{"tab before punctuation", "a\t-", []string{"a", "\t", "-"}, []string{"a", "\t", "-"}},
	{"newline run, then spaces", "a\n\n  b", []string{"a", "\n\n", " ", " b"}, []string{"a", "\n\n", " ", " b"}},
	{"punctuation takes newlines and slashes", "}\n//x", []string{"}\n//", "x"}, []string{"}\n", "//", "x"}},
	{"space before punctuation", "a ->b", []string{"a", " ->", "b"}, []string{"a", " ->", "b"}},
	{"digits by three", "1234567", []string{"123", "456", "7"}, []string{"123", "456", "7"}},
	{"contraction", "don't", []string{"don't"}, []string{"don", "'t"}},
	{"contraction, upper case", "DON'T", []string{"DON'T"}, []string{"DON", "'T"}},
	{"contraction with a long s", "it'ſ", []string{"it'ſ"}, []string{"it", "'ſ"}},
	{"no contraction", "it'x", []string{"it", "'x"}, []string{"it", "'x"}},
	{"camel case", "HTMLParser", []string{"HTMLParser"}, []string{"HTMLParser"}},
	{"upper then lower", "HelloWorld", []string{"Hello", "World"}, []string{"HelloWorld"}},
	{"letters of both classes", "ABCdef", []string{"ABCdef"}, []string{"ABCdef"}},
	{"a mark alone", "\u0301", []string{"\u0301"}, []string{"\u0301"}},
	{"a mark after a letter", "a\u0301'S", []string{"a\u0301'S"}, []string{"a", "\u0301'", "S"}},
	{"Lo gives back", "A漢BC.", []string{"A漢", "BC", "."}, []string{"A漢BC", "."}},
	{"prefix before a capital", "_Foo", []string{"_Foo"}, []string{"_Foo"}},
	{"no-break space", "a\u00a0b", []string{"a", "\u00a0b"}, []string{"a", "\u00a0b"}},
	{"next line and ideographic space", "a\u0085\u3000\nb", []string{"a", "\u0085\u3000\n", "b"}, []string{"a", "\u0085\u3000\n", "b"}},
	{"carriage returns", "a\r\n\r\nb", []string{"a", "\r\n\r\n", "b"}, []string{"a", "\r\n\r\n", "b"}},
}

func TestSplitCases(t *testing.T) {
	for _, c := range splitCases {
		t.Run(c.name, func(t *testing.T) {
			for sp, want := range map[split][]string{splitO200k: c.o200k, splitCl100k: c.cl100k} {
				if got := bySplit(sp, c.text); !slices.Equal(got, want) {
					t.Errorf("%s: pieces of %q = %q, want %q", sp, c.text, got, want)
				}
				if got := byPattern(t, sp, c.text); !slices.Equal(got, want) {
					t.Errorf("%s: the pattern's pieces of %q = %q, want %q (the case is wrong)", sp, c.text, got, want)
				}
			}
		})
	}
}

// TestSplitAsPattern: on every text of the corpus, the split's pieces are the pattern's, as a backtracking engine
// matches it.
func TestSplitAsPattern(t *testing.T) {
	texts := corpus(t)
	for _, sp := range []split{splitO200k, splitCl100k} {
		for _, text := range texts {
			samePieces(t, sp, text)
		}
	}
}

func samePieces(t testing.TB, sp split, text string) {
	t.Helper()
	if !utf8.ValidString(text) {
		text = string([]rune(text)) // as the engine reads it, and count does
	}
	got, want := bySplit(sp, text), byPattern(t, sp, text)
	if slices.Equal(got, want) {
		return
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Fatalf("%s: piece %d of %.80q is %q, the pattern's is %q", sp, i, text, got[i], want[i])
		}
	}
	t.Fatalf("%s: %d pieces of %.80q, the pattern has %d", sp, len(got), text, len(want))
}

// FuzzSplit compares the split's pieces with the pattern's, for both encodings, on any text.
func FuzzSplit(f *testing.F) {
	for _, c := range splitCases {
		f.Add(c.text)
	}
	f.Add(strings.Repeat(" \n", 50) + "x")
	f.Fuzz(func(t *testing.T, text string) {
		for _, sp := range []split{splitO200k, splitCl100k} {
			samePieces(t, sp, text)
		}
	})
}

// TestCountsAsTiktoken: every text of testdata/tiktoken.json (made by scripts/tiktoken-counts.js to try each
// alternative of the split patterns, runs of white space of every kind above all) counts as OpenAI's tiktoken
// counts it, with both encodings.
func TestCountsAsTiktoken(t *testing.T) {
	data, err := os.ReadFile("testdata/tiktoken.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Text   string
		O200k  int `json:"o200k_base"`
		Cl100k int `json:"cl100k_base"`
	}
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) < 1000 {
		t.Fatalf("%d texts: too few to prove anything", len(rows))
	}
	wrong := 0
	for _, r := range rows {
		for e, want := range map[Encoding]int{O200k: r.O200k, Cl100k: r.Cl100k} {
			b := o200kBPE()
			if e == Cl100k {
				b = cl100kBPE()
			}
			if got := b.count(r.Text); got != want {
				if wrong++; wrong <= 10 {
					t.Errorf("%s: %d tokens, tiktoken counts %d, in %.80q", e, got, want, r.Text)
				}
			}
		}
	}
	if wrong > 10 {
		t.Errorf("and %d more", wrong-10)
	}
}
