package templates

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
)

// TestTrace: a traced execution writes what Execute writes, and its pieces tile the output: each literal piece is
// the body text at its source offset, each action piece the output of the action written at its source range.
func TestTrace(t *testing.T) {
	data := map[string]any{"name": "Ada", "labels": []string{"bug", "ui"}, "task": "issue"}
	tests := []struct {
		name, body string
		// pieces describes the pieces as output text → source text (the action, or the literal itself).
		pieces [][2]string
	}{
		{name: "static", body: "Just text.", pieces: [][2]string{{"Just text.", "Just text."}}},
		{name: "raw-like comment only", body: "A {{/* note */}}", pieces: [][2]string{{"A ", "A "}}},
		{name: "const and value", body: "Rule: {{const \"rule\"}} Hi {{.name}}.", pieces: [][2]string{
			{"Rule: ", "Rule: "}, {"Run only listed commands.", `{{const "rule"}}`}, {" Hi ", " Hi "}, {"Ada", "{{.name}}"}, {".", "."}}},
		{name: "range and trim", body: "{{range .labels -}}\n- {{.}}\n{{end}}", pieces: [][2]string{
			{"- ", "- "}, {"bug", "{{.}}"}, {"\n", "\n"}, {"- ", "- "}, {"ui", "{{.}}"}, {"\n", "\n"}}},
		{name: "declarations print nothing", body: "{{$x := .name}}[{{$x}}]{{if .task}}!{{end}}", pieces: [][2]string{
			{"[", "["}, {"Ada", "{{$x}}"}, {"]", "]"}, {"!", "!"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, diags := Parse(&blocks.Block{ID: "b", Body: tt.body}, testConsts)
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			want, d := b.Execute(data, testEnv)
			if d != nil {
				t.Fatal(d)
			}
			got, pieces, d := b.Trace(data, testEnv)
			if d != nil {
				t.Fatal(d)
			}
			if got != want {
				t.Fatalf("Trace wrote %q, Execute %q", got, want)
			}
			var desc [][2]string
			end := 0
			for _, p := range pieces {
				if p.Start != end {
					t.Errorf("piece at %d after one ending at %d: the pieces do not tile the output", p.Start, end)
				}
				end = p.End
				desc = append(desc, [2]string{got[p.Start:p.End], tt.body[p.Src:p.SrcEnd]})
				if !p.Action && got[p.Start:p.End] != tt.body[p.Src:p.SrcEnd] {
					t.Errorf("literal piece %q is %q in the source", got[p.Start:p.End], tt.body[p.Src:p.SrcEnd])
				}
			}
			if end != len(got) {
				t.Errorf("the pieces end at %d of %d bytes", end, len(got))
			}
			if g, w := fmtPieces(desc), fmtPieces(tt.pieces); g != w {
				t.Errorf("pieces\n%s\nwant\n%s", g, w)
			}
		})
	}
}

func fmtPieces(ps [][2]string) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(strings.ReplaceAll(p[0], "\n", `\n`) + " ← " + strings.ReplaceAll(p[1], "\n", `\n`) + "\n")
	}
	return b.String()
}
