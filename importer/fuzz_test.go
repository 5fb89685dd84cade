package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzImport: any input imports without a panic; valid UTF-8 always imports, and Import's own verification (the
// project compiles, renders each input after its normalisations, and passes check's lints) holds. Without
// normalisations the runbook is the input.
func FuzzImport(f *testing.F) {
	f.Add("# A\n\ntext\n\n## B\n\nmore\n", "# A\n\ntext\n\n## C\n\nmore\n")
	f.Add("```sh\n\n# comment\n```\n\n# A\n\nx", "")
	f.Add("#  A\n\nx\n\n## B ##\n\ny\n\n### C\n\n\nz\n\n#### D\n", "\r\n# {{.x}}\r\n")
	f.Add("\uFEFF'''\n\"\"\" \\\x01\n\n\n# A\n\n\u200b", "a\rb")
	for _, tc := range testdataFiles {
		data, err := os.ReadFile(filepath.Join("testdata", tc.file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data), "")
	}
	a, err := os.ReadFile("testdata/multi/review.md")
	if err != nil {
		f.Fatal(err)
	}
	b, err := os.ReadFile("testdata/multi/fix.md")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(a), string(b))
	f.Fuzz(func(t *testing.T, a, b string) {
		srcs := []Source{{Name: "a.md", Data: []byte(a)}, {Name: "b.md", Data: []byte(b)}}
		res, err := Import(srcs)
		if !utf8.ValidString(a) || !utf8.ValidString(b) {
			if err == nil {
				t.Fatal("invalid UTF-8 imported")
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		for i, task := range []string{"a", "b"} {
			in := string(srcs[i].Data)
			touched := false
			for _, n := range res.Normalisations {
				touched = touched || n.File == srcs[i].Name
			}
			if !touched && res.Runbooks[task] != in {
				t.Errorf("%s: runbook %q differs from input %q without a normalisation", task, res.Runbooks[task], in)
			}
			if touched && res.Runbooks[task] == in {
				t.Errorf("%s: normalisations listed, but the runbook is the input %q", task, in)
			}
			if strings.Contains(res.Runbooks[task], "\r") {
				t.Errorf("%s: runbook holds a CR", task)
			}
		}
	})
}
