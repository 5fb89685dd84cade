// Package docs_test keeps the user documentation honest: docs/reference.md documents every key the loader accepts
// and nothing else, every template function, and trust-level examples that are what promptc produces;
// docs/lint.md lists every lint; the README's Go snippet is the code of a running Example.
package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/keytables"
	"github.com/promptc/promptc/lint"
	"github.com/promptc/promptc/templates"
)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// loaderKeys returns the key tables of the loader, by variable name (manifestKeys, varKeys, …), read from the
// source of package blocks (see keytables.Read).
func loaderKeys(t *testing.T) map[string][]string {
	t.Helper()
	tables, err := keytables.Read(filepath.Join("..", "blocks"))
	if err != nil {
		t.Fatal(err)
	}
	return tables
}

// docTables returns the key tables of reference.md: each Markdown table that follows a <!-- keys: NAME --> line,
// by NAME, as the keys in the first column of its rows.
func docTables(t *testing.T, doc string) map[string][]string {
	t.Helper()
	tables := map[string][]string{}
	lines := strings.Split(doc, "\n")
	marker := regexp.MustCompile(`^<!-- keys: (\w+) -->$`)
	cell := regexp.MustCompile("^\\| `([a-z_]+)` \\|")
	for i := 0; i < len(lines); i++ {
		m := marker.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		if _, dup := tables[m[1]]; dup {
			t.Errorf("reference.md documents %s twice", m[1])
		}
		tables[m[1]] = []string{}
		j := i + 1
		for ; j < len(lines) && strings.HasPrefix(lines[j], "|"); j++ {
			if c := cell.FindStringSubmatch(lines[j]); c != nil {
				tables[m[1]] = append(tables[m[1]], c[1])
			}
		}
		if len(tables[m[1]]) == 0 {
			t.Errorf("reference.md: no key table after <!-- keys: %s -->", m[1])
		}
		i = j
	}
	return tables
}

// TestReferenceKeys: every key table of the loader is documented in reference.md, with exactly the keys the loader
// accepts: none missing, none the loader does not know.
func TestReferenceKeys(t *testing.T) {
	doc := read(t, "reference.md")
	loader := loaderKeys(t)
	// A fixture's [[turn]] holds turn variables and one key of its own, read outside the key tables.
	loader["turnKeys"] = []string{blocks.ReplyKey, blocks.AfterKey}
	documented := docTables(t, doc)
	for _, name := range sortedKeys(loader) {
		want := slices.Sorted(slices.Values(loader[name]))
		got, ok := documented[name]
		if !ok {
			t.Errorf("reference.md has no key table for %s (add <!-- keys: %s --> before one): keys %v", name, name, want)
			continue
		}
		got = slices.Sorted(slices.Values(got))
		for _, k := range want {
			if !slices.Contains(got, k) {
				t.Errorf("key %q of %s is accepted by the loader but missing from reference.md", k, name)
			}
		}
		for _, k := range got {
			if !slices.Contains(want, k) {
				t.Errorf("reference.md documents key %q in %s, which the loader does not accept", k, name)
			}
		}
	}
	for name := range documented {
		if _, ok := loader[name]; !ok {
			t.Errorf("reference.md has a key table for %s, which is not a key table of the loader", name)
		}
	}
}

// TestReferenceFunctions: the function table of reference.md lists exactly the functions promptc adds to
// text/template.
func TestReferenceFunctions(t *testing.T) {
	doc := read(t, "reference.md")
	_, table, ok := strings.Cut(doc, "<!-- funcs -->\n")
	if !ok {
		t.Fatal("reference.md has no <!-- funcs --> table")
	}
	row := regexp.MustCompile("^\\| `([a-zA-Z_]+)` \\| `([^`]*)` \\|")
	var got []string
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "|") {
			break
		}
		if m := row.FindStringSubmatch(line); m != nil {
			got = append(got, m[1])
			if !strings.HasPrefix(m[2], m[1]) {
				t.Errorf("signature %q of %s does not start with its name", m[2], m[1])
			}
		}
	}
	slices.Sort(got)
	got = slices.Compact(got) // title has two rows: title "id" and title S
	want := slices.Sorted(slices.Values(templates.FuncNames))
	if !slices.Equal(got, want) {
		t.Errorf("reference.md functions = %v, templates.FuncNames = %v", got, want)
	}
}

// TestReferenceTrustExamples: each before → after line of reference.md is what templates.Prepare, the one place
// values become template data, makes of the value at that trust level, with the markers the page names.
func TestReferenceTrustExamples(t *testing.T) {
	doc := read(t, "reference.md")
	_, rest, ok := strings.Cut(doc, "<!-- trust-examples -->\n```\n")
	if !ok {
		t.Fatal("reference.md has no <!-- trust-examples --> block")
	}
	block, _, _ := strings.Cut(rest, "```\n")
	markers := []string{"<!-- BEGIN ACME -->", "<!-- END ACME -->"}
	quoted := `("(?:[^"\\]|\\.)*")`
	line := regexp.MustCompile(`^(\w+) +` + quoted + `  →  ` + quoted + `$`)
	trusts := map[string]blocks.Trust{"untrusted": blocks.Untrusted, "background": blocks.Background, "code": blocks.Code, "markdown": blocks.Markdown, "trusted": blocks.Trusted}
	n := 0
	for _, l := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("reference.md: trust example %q is not TRUST \"before\"  →  \"after\"", l)
			continue
		}
		trust, ok := trusts[m[1]]
		in, err1 := strconv.Unquote(m[2])
		want, err2 := strconv.Unquote(m[3])
		if !ok || err1 != nil || err2 != nil {
			t.Errorf("reference.md: trust example %q: unknown trust or bad Go string", l)
			continue
		}
		v := &blocks.Var{Name: "x", Type: blocks.TypeText, Trust: trust}
		if trust == blocks.Code {
			v.Lang = "diff"
		}
		prepared, _, verr := templates.Prepare(v, in, markers)
		got := templates.Printed(prepared, markers) // what the value prints alone
		if verr != nil || got != want {
			t.Errorf("%s %q: promptc gives %q (%v), reference.md says %q", m[1], in, got, verr, want)
		}
		n++
	}
	for name := range trusts {
		if !strings.Contains(block, "\n"+name+" ") && !strings.HasPrefix(block, name+" ") {
			t.Errorf("reference.md has no example for trust %s", name)
		}
	}
	if n < 10 {
		t.Errorf("only %d trust examples", n)
	}
}

// TestLintDocumented: docs/lint.md lists every lint id package lint registers, in its table and with a section.
func TestLintDocumented(t *testing.T) {
	doc := read(t, "lint.md")
	for _, id := range lint.IDs() {
		if !strings.Contains(doc, "| `"+string(id)+"` |") {
			t.Errorf("lint %q is not in the table of docs/lint.md", id)
		}
		if !regexp.MustCompile(`(?m)^### .*\b` + regexp.QuoteMeta(string(id)) + `\b`).MatchString(doc) {
			t.Errorf("lint %q has no section (### …) in docs/lint.md", id)
		}
	}
}

// TestReadmeLinksStayInRepository: the README and docs/ link nothing a clone lacks (the design contract lives
// outside the repository: no ../shared, no DESIGN.md), and every relative link names a file that exists.
func TestReadmeLinksStayInRepository(t *testing.T) {
	files, _ := filepath.Glob("*.md")
	files = append(files, filepath.Join("..", "README.md"))
	link := regexp.MustCompile(`[^\\]\]\(([^)#\s]+)(#[^)]*)?\)`)
	for _, f := range files {
		doc := read(t, f)
		if strings.Contains(doc, "../shared") {
			t.Errorf("%s links ../shared, outside the repository", f)
		}
		if strings.Contains(doc, "DESIGN") || strings.Contains(doc, "§") {
			t.Errorf("%s refers to the design contract (DESIGN, §), which users do not have: link a page of docs/", f)
		}
		// Markdown in code (a hostile value such as [link](x)) is not a link.
		prose := stripCode(doc)
		for _, m := range link.FindAllStringSubmatch(prose, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			p := filepath.Join(filepath.Dir(f), filepath.FromSlash(target))
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s links %s, which does not exist in the repository", f, target)
			}
		}
	}
	if !strings.Contains(read(t, filepath.Join("..", "README.md")), "](docs/reference.md)") {
		t.Error("README.md does not link docs/reference.md")
	}
}

// TestReadmeGoSnippet: the README's "From Go" code is the body of assemble's ExampleLoadDir, which runs as a test
// with a checked output.
func TestReadmeGoSnippet(t *testing.T) {
	src := read(t, filepath.Join("..", "assemble", "readme_example_test.go"))
	_, body, ok := strings.Cut(src, "func ExampleLoadDir() {\n")
	if !ok {
		t.Fatal("assemble/readme_example_test.go has no ExampleLoadDir")
	}
	body, _, ok = strings.Cut(body, "\n\t// Output:")
	if !ok {
		t.Fatal("ExampleLoadDir has no // Output:")
	}
	var snippet strings.Builder
	for _, l := range strings.Split(body, "\n") {
		snippet.WriteString(strings.TrimPrefix(l, "\t"))
		snippet.WriteByte('\n')
	}
	readme := read(t, filepath.Join("..", "README.md"))
	if !strings.Contains(readme, "```go\n"+snippet.String()+"```\n") {
		t.Errorf("README.md does not show ExampleLoadDir's code as a ```go block; it should read:\n%s", snippet.String())
	}
}

// stripCode removes code from Markdown: a run of n backticks opens a code span (or fence) that the next run of
// exactly n backticks closes, as CommonMark reads them.
func stripCode(doc string) string {
	var out strings.Builder
	for i := 0; i < len(doc); {
		if doc[i] != '`' {
			out.WriteByte(doc[i])
			i++
			continue
		}
		n := 0
		for i+n < len(doc) && doc[i+n] == '`' {
			n++
		}
		j := i + n
		closed := false
		for j < len(doc) {
			if doc[j] != '`' {
				j++
				continue
			}
			m := 0
			for j+m < len(doc) && doc[j+m] == '`' {
				m++
			}
			if m == n {
				closed = true
				break
			}
			j += m
		}
		if !closed { // literal backticks
			out.WriteString(doc[i : i+n])
			i += n
			continue
		}
		i = j + n
	}
	return out.String()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
