package source

import (
	"strings"
	"testing"
)

func TestSnippetWriter(t *testing.T) {
	src := map[string]string{
		"blocks/main.toml": "[[block]]\nid   = \"rules\"\nbody = \"\"\"{{const \"boundry\"}}\"\"\"\n",
		"templates/é.md":   "é\tà {{.x}}\n",
		"long.toml":        "k = \"" + strings.Repeat("a", 300) + "X\"\n",
		"evil.toml":        "a\x1b[2Jb = 1\n",
	}
	sw := SnippetWriter{Source: func(name string) (string, bool) { s, ok := src[name]; return s, ok }}
	rng := func(name string, l1, c1, l2, c2 int) *Range {
		return &Range{Filename: name, Start: Pos{Line: l1, Column: c1}, End: Pos{Line: l2, Column: c2}}
	}
	tests := []struct {
		name string
		d    Diagnostic
		want string
	}{
		{
			name: "a range on one line",
			d:    Diagnostic{Summary: `unknown constant "boundry"`, Subject: rng("blocks/main.toml", 3, 19, 3, 28)},
			want: "blocks/main.toml:3:19: unknown constant \"boundry\"\n" +
				"  3 | body = \"\"\"{{const \"boundry\"}}\"\"\"\n" +
				"    |                   ^^^^^^^^^\n",
		},
		{
			name: "an empty range: one caret",
			d:    Diagnostic{Summary: "x", Subject: rng("blocks/main.toml", 2, 1, 2, 1)},
			want: "blocks/main.toml:2:1: x\n  2 | id   = \"rules\"\n    | ^\n",
		},
		{
			name: "a range past its line: carets to the line's end",
			d:    Diagnostic{Summary: "x", Subject: rng("blocks/main.toml", 2, 8, 3, 4)},
			want: "blocks/main.toml:2:8: x\n  2 | id   = \"rules\"\n    |        ^^^^^^^\n",
		},
		{
			name: "columns in runes, tabs kept under tabs",
			d:    Diagnostic{Summary: "x", Subject: rng("templates/é.md", 1, 4, 1, 5)},
			want: "templates/é.md:1:4: x\n  1 | é\tà {{.x}}\n    |  \t ^\n",
		},
		{
			name: "a long line: a window around the range",
			d:    Diagnostic{Summary: "x", Subject: rng("long.toml", 1, 306, 1, 307)},
			want: "long.toml:1:306: x\n  1 | …" + strings.Repeat("a", 40) + "X\"\n    | " + strings.Repeat(" ", 41) + "^\n",
		},
		{
			name: "control characters never reach the terminal",
			d:    Diagnostic{Summary: "x", Subject: rng("evil.toml", 1, 1, 1, 2)},
			want: "evil.toml:1:1: x\n  1 | a\uFFFD[2Jb = 1\n    | ^\n",
		},
		{
			name: "an unknown end: one caret",
			d:    Diagnostic{Summary: "x", Subject: &Range{Filename: "blocks/main.toml", Start: Pos{Line: 2, Column: 6}}},
			want: "blocks/main.toml:2:6: x\n  2 | id   = \"rules\"\n    |      ^\n",
		},
		{
			name: "no source at hand: the line alone",
			d:    Diagnostic{Summary: "x", Subject: rng("fixtures/gone.toml", 1, 1, 1, 2)},
			want: "fixtures/gone.toml:1:1: x\n",
		},
		{
			name: "no subject",
			d:    Diagnostic{Summary: "from the Go API"},
			want: "from the Go API\n",
		},
		{
			name: "a line the file does not have",
			d:    Diagnostic{Summary: "x", Subject: rng("blocks/main.toml", 9, 1, 9, 1)},
			want: "blocks/main.toml:9:1: x\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := sw.Write(&b, Diagnostics{tt.d}); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
			// Every line Diagnostics.String prints is there, in order: the snippet only adds.
			if plain := (Diagnostics{tt.d}).String(); !strings.HasPrefix(b.String(), plain) {
				t.Errorf("snippet output does not start with %q", plain)
			}
		})
	}
}
