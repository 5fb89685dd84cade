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
// or a DESIGN document) nor at an issue of a tracker it does not hold ("issue 10", "#16"); and every
// docs/PAGE.md#anchor a comment cites names a heading that page has.
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
			if issueNumber.MatchString(comment) || bareNumber.MatchString(comment) {
				t.Errorf("%s:%d cites an issue of a tracker the repository does not hold (cite the docs): %s", p, i+1, strings.TrimSpace(comment))
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

// issueNumber is an issue, bug or pull request named by its number alone: "issue 10", "Issue #16", "PR 3". An issue
// of a public repository names that repository ("anthropic-sdk-python #1194", "owner/repo#12") and is not matched.
var issueNumber = regexp.MustCompile(`(?i)\b(issues?|bugs?|tickets?|prs?|pull requests?) ?#?\d+\b`)

// bareNumber is a "#12" that follows no repository's name: at the start of a comment's text or after punctuation.
var bareNumber = regexp.MustCompile(`(^//+\s*|[(\[,;:]\s*)#\d+\b`)

// TestDocsCiteNoIssueNumbers: README.md, CHANGELOG.md and the pages of docs/ name no issue of a tracker the
// repository does not hold: a reader has only the repository, and "(issue 15)" tells them nothing.
func TestDocsCiteNoIssueNumbers(t *testing.T) {
	pages, err := filepath.Glob("*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs/*.md (%v)", err)
	}
	for _, p := range append(pages, "../README.md", "../CHANGELOG.md") {
		fenced := false // a command's output shown in a fence: "issue" is the reference project's task there
		for i, line := range strings.Split(read(t, p), "\n") {
			if strings.HasPrefix(strings.TrimLeft(line, " "), "```") {
				fenced = !fenced
			}
			if m := issueNumber.FindString(line); m != "" && !fenced {
				t.Errorf("%s:%d names %q, an issue of a tracker the repository does not hold: %s", p, i+1, m, strings.TrimSpace(line))
			}
		}
	}
}

// TestIssueCitationPatterns: what issueNumber and bareNumber catch in a comment, and what they let through.
func TestIssueCitationPatterns(t *testing.T) {
	for comment, want := range map[string]bool{
		"// prefix (issue 10: a ported project)":             true,
		"// Issue 16 asks that a function call":              true,
		"// fixed in issue #3":                               true,
		"// see PR 12":                                       true,
		"// #42: the fast path":                              true,
		"// the limits (#17)":                                true,
		"// anthropic-sdk-python #1194 reports it":           false,
		"// northwind/billing#412":                           false,
		"// issue NW-142 is the fixture's":                   false,
		"// the issue-only block":                            false,
		"// issues tracker of the project (docs/usage.md#x)": false,
	} {
		if got := issueNumber.MatchString(comment) || bareNumber.MatchString(comment); got != want {
			t.Errorf("%q: matched %v, want %v", comment, got, want)
		}
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
