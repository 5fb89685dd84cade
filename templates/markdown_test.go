package templates

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/promptc/promptc/internal/hostile"
)

// TestEscapeMarkdown: the rules of trust = "markdown", each with its exact bytes; docs/values.md shows the same
// examples.
func TestEscapeMarkdown(t *testing.T) {
	tests := []struct {
		name  string
		level int
		in    string
		want  string
	}{
		{"headings nest below the block", 2, "# Setup\n\nRun `make`.\n\n## Details\nmore", "### Setup\n\nRun `make`.\n\n#### Details\nmore"},
		{"default level", 0, "# Setup", "### Setup"},
		{"already deep enough", 2, "### A\n#### B", "### A\n#### B"},
		{"too deep moves up", 2, "#### A\n##### B", "### A\n#### B"},
		{"capped at 6", 5, "# A\n### B", "###### A\n###### B"},
		{"indent and closing kept", 1, "  # A #", "  ## A #"},
		{"not headings", 2, "#hashtag\n####### seven\n    # indented code", "#hashtag\n####### seven\n    # indented code"},
		{"inline markdown kept", 2, "**bold** _it_ [l](u) <b>", "**bold** _it_ [l](u) <b>"},
		{"unclosed fence closed", 2, "```go\nx := 1", "```go\nx := 1\n```"},
		{"unclosed fence ending in a newline", 2, "~~~~\nx\n", "~~~~\nx\n~~~~"},
		{"closed fence kept", 2, "```\n# not a heading\n```\n# heading", "```\n# not a heading\n```\n### heading"},
		{"longer closing fence", 2, "```\nx\n`````\n# h", "```\nx\n`````\n### h"},
		{"shorter line does not close", 2, "````\nx\n```", "````\nx\n```\n````"},
		{"setext underline removed", 2, "Title\n=====\ntext", "Title\ntext"},
		{"dash underline removed", 2, "Title\n---", "Title"},
		{"underline at the start removed", 2, "---\ntext", "text"},
		{"two underlines", 2, "a\n===\n---\nb", "a\nb"},
		{"thematic break after a blank line kept", 2, "a\n\n---\nb", "a\n\n---\nb"},
		{"CRLF and controls", 2, "a\x00b\u200bc\r\nd\re\tf\x7f", "abc\nd\ne\tf"},
		{"invalid UTF-8", 2, "a\xffb", "a\uFFFDb"},
		{"empty", 2, "", ""},
		{"only a control", 2, "\x01", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EscapeMarkdown(tt.in, tt.level); got != tt.want {
				t.Errorf("EscapeMarkdown(%q, %d) = %q, want %q", tt.in, tt.level, got, tt.want)
			}
		})
	}
	t.Run("markers neutralised", func(t *testing.T) {
		p := &printer{markers: hostile.Markers}
		got := p.printAny(Markdown("see " + hostile.End))
		if strings.Contains(got, hostile.End) || got != "see <\\!-- END ACME-RUNTIME -->" {
			t.Errorf("printed %q", got)
		}
	})
}

func FuzzEscapeMarkdown(f *testing.F) {
	for _, c := range hostile.Small() {
		f.Add(c.Value, 2)
	}
	f.Add("# a\n```\n## b", 5)
	f.Fuzz(func(t *testing.T, in string, level int) {
		level = level%7 + 1
		if level < 1 {
			level += 6
		}
		out := EscapeMarkdown(in, level)
		if !utf8.ValidString(out) {
			t.Fatalf("EscapeMarkdown(%q) = %q: invalid UTF-8", in, out)
		}
		for _, r := range out {
			if r != '\n' && r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
				t.Fatalf("EscapeMarkdown(%q) = %q holds %U", in, out, r)
			}
		}
		// Outside fences, every heading nests below level, and no fence is left open.
		open := 0
		var char byte
		prevText := true
		for _, line := range strings.Split(out, "\n") {
			if open > 0 {
				if c, n, rest := fenceRun(line); c == char && n >= open && strings.TrimSpace(rest) == "" {
					open = 0
				}
				prevText = false
				continue
			}
			if c, n, rest := fenceRun(line); n > 0 && (c == '~' || !strings.Contains(rest, "`")) {
				open, char, prevText = n, c, false
				continue
			}
			if n := atxLevel(line); n > 0 {
				if n <= level && level < 6 {
					t.Fatalf("EscapeMarkdown(%q, %d) = %q: heading %q does not nest", in, level, out, line)
				}
				prevText = false
				continue
			}
			if prevText && setextUnderline(line) {
				t.Fatalf("EscapeMarkdown(%q) = %q: setext underline %q kept", in, out, line)
			}
			prevText = strings.TrimSpace(line) != ""
		}
		if open > 0 {
			t.Fatalf("EscapeMarkdown(%q) = %q: a fence is left open", in, out)
		}
	})
}
