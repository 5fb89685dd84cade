package guard

import (
	"strings"
	"testing"
)

func TestCounter(t *testing.T) {
	c, err := NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	if c.Encoding() != O200k {
		t.Fatalf("default encoding = %s, want %s", c.Encoding(), O200k)
	}
	tests := []struct {
		name string
		text string
		want int
	}{
		{"empty", "", 0},
		{"one word", "hello", 1},
		{"two words", "hello world", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.Count(tt.text); got != tt.want {
				t.Errorf("Count(%q) = %d, want %d", tt.text, got, tt.want)
			}
		})
	}
	// Paragraph splitting: the sum over paragraphs, each counted once.
	para := "Run only the commands listed in this runbook.\n\n"
	one := c.Count(para)
	if got := c.Count(strings.Repeat(para, 10)); got != 10*one {
		t.Errorf("ten equal paragraphs = %d tokens, want %d", got, 10*one)
	}
	if _, err := NewCounter("gpt2"); err == nil {
		t.Error("NewCounter(gpt2) succeeded, want an error")
	}
}
