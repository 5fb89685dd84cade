package assemble

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"
)

// TestLineCounterExact: the budget's counter, which counts a text line by line, gives o200k_base's count of the
// whole text, on every artifact of the example projects and on texts made to test the cuts.
func TestLineCounterExact(t *testing.T) {
	texts := []string{
		"", "\n", "a", "a\n", "a\nb", "a\n\nb\n", "a\n  b\n", "x\n  \n\ty", "done.\n\nNext", "- a\n- b\n- (2 more)\n",
		"é\nü", "a\n\u00a0b", "1.\n2.\n", "```go\nx := 1\n```\n", "a\r\nb",
	}
	filepath.WalkDir(filepath.Join("..", "examples"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") && strings.Contains(path, "golden") {
			if b, err := os.ReadFile(path); err == nil {
				texts = append(texts, string(b))
			}
		}
		return nil
	})
	whole := codec.NewO200kBase()
	c := &paragraphCounter{}
	for _, s := range texts {
		want, err := whole.Count(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Count(s); got != want {
			t.Errorf("Count(%.40q…) = %d, want %d", s, got, want)
		}
	}
	if len(texts) < 20 {
		t.Errorf("only %d texts", len(texts))
	}
}
