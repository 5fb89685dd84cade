package tokens

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/tiktoken-go/tokenizer/codec"

	"github.com/promptc/promptc/internal/hostile"
)

// corpus is every text file of the repository (sources, docs, golden files, test data) and hostile values: the
// texts promptc counts, and worse.
func corpus(t *testing.T) []string {
	t.Helper()
	var texts []string
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || strings.HasSuffix(path, ".tbl") {
			return nil
		}
		data, err := os.ReadFile(path)
		// With -short (make unit), the repository's files up to 4 KiB: every kind of text, a fraction of the bytes.
		limit := 1 << 20
		if testing.Short() {
			limit = 4 << 10
		}
		if err == nil && utf8.Valid(data) && len(data) < limit {
			texts = append(texts, string(data))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range hostile.Corpus() {
		texts = append(texts, c.Value)
	}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []rune("aZ09 \n\t'sé漢字🙂\u200b-_/.:`*#")
	for range 2000 {
		var b strings.Builder
		for range r.IntN(60) {
			b.WriteRune(alphabet[r.IntN(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	return texts
}

// TestSameVocabularyAsTiktokenGo: the tables and the merge count each piece of every text of the corpus exactly as
// github.com/tiktoken-go/tokenizer does with its vocabularies, to the token. The pieces are that package's own (its
// matcher for the split patterns, which TestSplitAsPattern and TestCountsAsTiktoken show to differ from tiktoken's
// on runs of white space), so that only the vocabularies and the merge are compared here. And Counter.Count is the
// sum of its paragraphs' counts.
func TestSameVocabularyAsTiktokenGo(t *testing.T) {
	texts := corpus(t)
	if len(texts) < 500 {
		t.Fatalf("corpus of %d texts: too small to prove anything", len(texts))
	}
	for _, e := range Encodings() {
		ref, b, pattern := codec.NewO200kBase(), o200kBPE(), o200kSplit
		if e == Cl100k {
			ref, b, pattern = codec.NewCl100kBase(), cl100kBPE(), cl100kSplit
		}
		// The bare pattern string: the matcher tiktoken-go registers for it, as its codec uses it.
		theirs := regexp2.MustCompile(pattern, regexp2.None)
		c := New(e)
		pieces := 0
		for _, text := range texts {
			if !utf8.ValidString(text) {
				text = string([]rune(text)) // as their matcher reads it
			}
			want, err := ref.Count(text)
			if err != nil {
				t.Fatal(err)
			}
			got := 0
			m, err := theirs.FindStringMatch(text)
			for ; err == nil && m != nil; m, err = theirs.FindNextMatch(m) {
				got += b.pieceCount(m.String())
			}
			if err != nil || got != want {
				t.Fatalf("%s: %d tokens (%v), tiktoken-go counts %d, in %q", e, got, err, want, text[:min(len(text), 200)])
			}
			if len(text) > 64<<10 {
				continue // the paragraph split is the same for every size: the smaller texts check it
			}
			sum := 0
			for _, p := range paragraphs(text) {
				sum += b.count(p)
				pieces++
			}
			if got := c.Count(text); got != sum {
				t.Fatalf("%s: Count = %d, its paragraphs count %d, in %q", e, got, sum, text[:min(len(text), 200)])
			}
		}
		t.Logf("%s: %d texts, %d paragraphs, every count equal", e, len(texts), pieces)
	}
}

// paragraphs splits text as Counter.Count does: after each run of blank lines.
func paragraphs(text string) []string {
	var out []string
	for len(text) > 0 {
		i := strings.Index(text, "\n\n")
		if i < 0 {
			return append(out, text)
		}
		j := i + 2
		for j < len(text) && text[j] == '\n' {
			j++
		}
		out, text = append(out, text[:j]), text[j:]
	}
	return out
}

func TestEncoding(t *testing.T) {
	for _, e := range Encodings() {
		var got Encoding
		if err := got.Set(e.String()); err != nil || got != e {
			t.Errorf("Set(%q) = %v, %v", e.String(), got, err)
		}
		if b, err := e.MarshalText(); err != nil || string(b) != e.String() {
			t.Errorf("MarshalText = %q, %v", b, err)
		}
	}
	if e, err := ParseEncoding(""); err != nil || e != O200k {
		t.Errorf(`ParseEncoding("") = %v, %v; want o200k_base`, e, err)
	}
	var e Encoding
	if err := e.UnmarshalText([]byte("gpt2")); err == nil || err.Error() != `unknown token encoding "gpt2": use o200k_base or cl100k_base` {
		t.Errorf("UnmarshalText(gpt2) = %v", err)
	}
	if _, err := Encoding(7).MarshalText(); err == nil {
		t.Error("MarshalText of Encoding(7) succeeded")
	}
}

func TestCounterCountsNothingUntilAsked(t *testing.T) {
	c := New(O200k)
	if n, loaded := c.Counted(); n != 0 || loaded {
		t.Fatalf("a new counter: %d paragraphs, loaded %v", n, loaded)
	}
	if got := c.Count("hello world"); got != 2 {
		t.Errorf(`Count("hello world") = %d, want 2`, got)
	}
	if n, loaded := c.Counted(); n != 1 || !loaded {
		t.Errorf("after one count: %d paragraphs, loaded %v; want 1, true", n, loaded)
	}
}

// TestCountLinesExact: CountLines, which cuts at LineCut, gives CountExact's count of the whole text in both
// encodings, on every text of the corpus and on texts made to test the cuts (a blank line before
// a line of white space, which the tokenizer joins; "}\n//"; a newline before a non-ASCII space).
func TestCountLinesExact(t *testing.T) {
	texts := []string{
		"", "\n", "a", "a\n", "a\nb", "a\n\nb\n", "a\n  b\n", "x\n  \n\ty", "done.\n\nNext", "- a\n- b\n- (2 more)\n",
		"é\nü", "a\n\u00a0b", "a\n\u3000b", "1.\n2.\n", "```go\nx := 1\n```\n", "a\r\nb", "a\n\n  \nb",
		"x\n\n \n \n-y\n", "}\n// x\n", "a.\n/b\n", "it\n's\n", "x\n'll do\n",
	}
	texts = append(texts, corpus(t)...)
	for _, e := range Encodings() {
		lines, whole := New(e), New(e)
		for _, s := range texts {
			if got, want := lines.CountLines(s), whole.CountExact(s); got != want {
				t.Errorf("%s: CountLines(%.40q…) = %d, want %d", e, s, got, want)
			}
		}
	}
}
