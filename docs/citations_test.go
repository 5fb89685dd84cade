package docs_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCommentsCiteTheRepository: a comment in the Go code (tests included) that points at a rule points at the repository's own
// docs (docs/reference.md and the topic pages), never at a design contract the repository does not hold (a "§3.2"
// or a DESIGN document); and every docs/PAGE.md#anchor a comment cites names a heading that page has.
func TestCommentsCiteTheRepository(t *testing.T) {
	contract := regexp.MustCompile(`§\s*\d|DESIGN\.md|\bDESIGN §`)
	cite := regexp.MustCompile(`docs/([a-z]+\.md)#([a-z0-9-]+)`)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(page string) map[string]bool {
		if a, ok := anchors[page]; ok {
			return a
		}
		a := map[string]bool{}
		for _, line := range strings.Split(read(t, page), "\n") {
			if h, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && strings.HasPrefix(line, "#") {
				a[slug(h)] = true
			}
			for _, m := range explicitAnchor.FindAllStringSubmatch(line, -1) {
				a[m[1]] = true
			}
		}
		anchors[page] = a
		return a
	}
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		// Tests are code a reader follows too; this package's own tests name what they refuse.
		if d.IsDir() || !strings.HasSuffix(p, ".go") || filepath.Dir(p) == filepath.Join("..", "docs") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			c := strings.Index(line, "//")
			if c < 0 {
				continue
			}
			comment := line[c:]
			if contract.MatchString(comment) {
				t.Errorf("%s:%d cites a contract outside the repository: %s", p, i+1, strings.TrimSpace(comment))
			}
			for _, m := range cite.FindAllStringSubmatch(comment, -1) {
				if !anchorsOf(m[1])[m[2]] {
					t.Errorf("%s:%d cites docs/%s#%s, a heading that page does not have", p, i+1, m[1], m[2])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// explicitAnchor is an anchor written into a page as HTML: <a id="name"></a>.
var explicitAnchor = regexp.MustCompile(`<a id="([a-z0-9-]+)"></a>`)

// slug is a heading's anchor as GitHub makes it: lower case, punctuation other than - and _ dropped, spaces as -.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}
