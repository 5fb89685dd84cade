package lint

import (
	"slices"
	"testing"
)

// TestInvisibleCharWithVerbatimValues: a project whose trusted values keep every character they are given
// (verbatim) still has the invisible characters of its sources reported (docs/lint.md, invisible-char): the
// option is about values, not about what the author writes.
func TestInvisibleCharWithVerbatimValues(t *testing.T) {
	prog, arts := ltCompile(t, map[string]string{
		"promptc.toml": ltManifest(`"a"`, `
[turn]
order = ["assignment"]

[vars.note]
scope    = "session"
type     = "text"
trust    = "trusted"
verbatim = true
`),
		"blocks/a.toml":   "[[block]]\nid   = \"a\"\nbody = \"Never\u200b push {{.note}} to main.\"\n\n[[block]]\nid   = \"assignment\"\nbody = \"Work on {{.issue_id}} as {{.agent_name}}.\"\n",
		"fixtures/f.toml": "[session]\nnote = \"x\\r\\n\u200by\"\n",
	})
	var got []string
	for _, f := range Run(prog, arts, ltCounter(t)) {
		if f.Lint == InvisibleChar {
			got = append(got, ltBrief(f))
		}
	}
	if want := []string{"blocks/a.toml:3:14 invisible-char a"}; !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
}
