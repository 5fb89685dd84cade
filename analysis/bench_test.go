package analysis

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/internal/gen"
)

// BenchmarkKeystroke measures the re-analysis after one keystroke in a 2,000-block project, as the language server
// runs it (through a Cache): the overlay holds the edited file, everything else is read from the base file system.
// The target is 20 ms and 30 CPU-ms per op (docs/editors.md).
func BenchmarkKeystroke(b *testing.B) { benchKeystroke(b, NewCache(), "", commentEdit) }

// BenchmarkKeystrokeBody is BenchmarkKeystroke with the keystroke in a block's body: that block is parsed again,
// and the positions of every block after it in its file move.
func BenchmarkKeystrokeBody(b *testing.B) { benchKeystroke(b, NewCache(), "body = ", bodyEdit) }

// BenchmarkKeystrokeCold is BenchmarkKeystroke without the cache: every keystroke loads the project from nothing.
func BenchmarkKeystrokeCold(b *testing.B) { benchKeystroke(b, nil, "", commentEdit) }

// commentEdit types a comment at the end of the file; bodyEdit a word into the first body's text.
func commentEdit(text string, i int) string { return text + strings.Repeat("#", i%7+1) + "\n" }

func bodyEdit(text string, i int) string {
	at := strings.Index(text, "body = ") + len("body = ") + 4
	return text[:at] + strings.Repeat("x", i%7+1) + text[at:]
}

// benchKeystroke edits the first blocks/ file that holds holding.
func benchKeystroke(b *testing.B, c *Cache, holding string, edit func(string, int) string) {
	files := gen.Files(2000, 8)
	fsys := gen.FS(files)
	var name string
	for n := range files {
		if strings.HasPrefix(n, "blocks/") && strings.Contains(string(files[n]), holding) && (name == "" || n < name) {
			name = n
		}
	}
	text := string(files[name])
	if s := c.Load(fsys); len(s.Diagnostics()) > 0 {
		b.Fatalf("generated project has diagnostics: %v", s.Diagnostics()[:1])
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		s := c.Load(Overlay(fsys, map[string]string{name: edit(text, i)}))
		if len(s.Diagnostics()) > 0 {
			b.Fatal(s.Diagnostics()[0])
		}
	}
	// Wall time depends on what else the machine runs; the CPU time the process spent per keystroke does not (much).
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// BenchmarkKeystrokeMillionRecords measures a keystroke in a fixture of 2^20 tiny records (6 MiB), valid for a
// records variable with max_items = 10 or each with an undeclared field: the reload and the lint that renders the
// fixture, as the language server runs them (6.5 GB and 5 to 15 s a keystroke before; the target is 1 GB and 5 s).
func BenchmarkKeystrokeMillionRecords(b *testing.B) {
	for _, c := range []struct{ name, record string }{{"valid", `{n=""}`}, {"undeclared", `{x=1}`}} {
		var fixture strings.Builder
		fixture.WriteString("[session]\nrepos = [")
		for i := range 1 << 20 {
			if i > 0 {
				fixture.WriteByte(',')
			}
			fixture.WriteString(c.record)
		}
		fixture.WriteString("]\n")
		fsys := gen.FS(map[string][]byte{
			"promptc.toml": []byte("name = \"a\"\ntasks = [\"t\"]\n[runbook]\norder = [\"r\"]\n" +
				"[vars.repos]\nscope = \"session\"\ntype = \"records\"\nmax_items = 10\n[vars.repos.fields.n]\ntype = \"string\"\n"),
			"blocks/a.toml":     []byte("[[block]]\nid = \"r\"\nbody = \"{{range .repos}}- {{.n}}\\n{{end}}\"\n"),
			"fixtures/big.toml": []byte(fixture.String()),
		})
		b.Run(c.name, func(b *testing.B) {
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				s := Load(Overlay(fsys, map[string]string{"fixtures/big.toml": fixture.String() + strings.Repeat("#", i%7+1) + "\n"}))
				if errs := len(s.Diagnostics()); c.name == "valid" && errs > 0 || c.name != "valid" && errs != 1 {
					b.Fatalf("%d diagnostics: %.200v", errs, s.Diagnostics())
				}
				s.Lint()
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}
