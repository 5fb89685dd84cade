package assemble

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptc/promptc/tokens"
)

// TestLineCounterExact: the budget's counter, which counts a text line by line, gives o200k_base's count of the
// whole text (tokens.Counter.CountExact, which the tokens package holds to tiktoken's counts), on every artifact of
// the example projects and on texts made to test the cuts: a blank line followed by a line of white space, which the
// tokenizer joins ("\n\n  \n" is one piece), and a newline between punctuation and a "/" ("}\n//").
func TestLineCounterExact(t *testing.T) {
	texts := []string{
		"", "\n", "a", "a\n", "a\nb", "a\n\nb\n", "a\n  b\n", "x\n  \n\ty", "done.\n\nNext", "- a\n- b\n- (2 more)\n",
		"é\nü", "a\n\u00a0b", "1.\n2.\n", "```go\nx := 1\n```\n", "a\r\nb",
		"a\n\n  \nb", "x\n\n \n \n-y\n", "}\n// x\n", "a.\n/b\n",
	}
	filepath.WalkDir(filepath.Join("..", "examples"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") && strings.Contains(path, "golden") {
			if b, err := os.ReadFile(path); err == nil {
				texts = append(texts, string(b))
			}
		}
		return nil
	})
	whole := tokens.New(tokens.O200k)
	c := &paragraphCounter{}
	for _, s := range texts {
		want := whole.CountExact(s)
		if got := c.Count(s); got != want {
			t.Errorf("Count(%.40q…) = %d, want %d", s, got, want)
		}
	}
	if len(texts) < 20 {
		t.Errorf("only %d texts", len(texts))
	}
}
