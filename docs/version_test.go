package docs_test

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestPinnedVersionsExist: every `rev:` the README and docs/ show is either the placeholder REPLACE-ME, which the
// text around it says to replace with a commit hash, or a version CHANGELOG.md lists as released (a "## vX.Y.Z"
// heading); no page names a version that does not exist. The same goes for `go install …@vX.Y.Z`.
func TestPinnedVersionsExist(t *testing.T) {
	released := regexp.MustCompile(`(?m)^## (v\d+\.\d+\.\d+)\b`).FindAllStringSubmatch(read(t, filepath.Join("..", "CHANGELOG.md")), -1)
	var tags []string
	for _, m := range released {
		tags = append(tags, m[1])
	}
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join("..", "README.md"))
	rev := regexp.MustCompile(`(?m)^\s*rev:\s*(\S+)`)
	at := regexp.MustCompile(`go install \S+@(v\S+)`)
	for _, page := range pages {
		doc := read(t, page)
		for _, m := range rev.FindAllStringSubmatch(doc, -1) {
			if v := m[1]; v != "REPLACE-ME" && !slices.Contains(tags, v) {
				t.Errorf("%s pins rev: %s, which CHANGELOG.md does not list as released", page, v)
			}
		}
		for _, m := range at.FindAllStringSubmatch(doc, -1) {
			if v := strings.TrimRight(m[1], "`"); !slices.Contains(tags, v) {
				t.Errorf("%s installs @%s, which CHANGELOG.md does not list as released", page, v)
			}
		}
	}
}
