package lint

import (
	"slices"
	"strings"
	"testing"
)

func TestInCodeSpan(t *testing.T) {
	for _, tc := range []struct {
		line string // | marks the byte asked about (removed before the call)
		want bool
	}{
		{"run `|x` now", true},
		{"run |x now", false},
		{"run `a` |x `b`", false},      // between two spans
		{"run ``a `|x` b`` now", true}, // a double-backtick span holding single backticks
		{"run `|x", false},             // no closing run: literal backtick
		{"run ``|x` now", false},       // no run of two closes it
		{"run \\`|x\\` now", false},    // escaped backticks open nothing
		{"`a`|x`b`", false},
		{"`a` `|x`", true},
		{"|x`a`", false},
		{"`a\\`|x", false}, // a backslash inside a span is literal: the span is `a\`
	} {
		at := strings.IndexByte(tc.line, '|')
		line := tc.line[:at] + tc.line[at+1:]
		if got := inCodeSpan([]byte(line), at); got != tc.want {
			t.Errorf("inCodeSpan(%q, %d) = %v, want %v", line, at, got, tc.want)
		}
	}
}

func TestUntrustedInCodeSpan(t *testing.T) {
	prog, arts := ltCompile(t, map[string]string{
		"promptc.toml": ltManifest(`"a", "b", "c", "d"`, `
[vars.path]
scope = "session"
type  = "string"
trust = "trusted"
pattern = "[a-z/_.]+"

[vars.repos]
scope = "session"
type  = "records"
[vars.repos.fields.name]
type = "string"
[vars.repos.fields.url]
type  = "string"
trust = "trusted"
`),
		"blocks/a.toml": "[[block]]\nid = \"a\"\nbody = \"You are `{{.agent_name}}`; {{.agent_name}} outside.\"\n\n" +
			"[[block]]\nid = \"b\"\nbody = \"Files: `{{.path}}`.\"\n\n" +
			"[[block]]\nid = \"c\"\nbody = \"{{range .repos}}- `{{.name}}` at `{{.url}}`\\n{{end}}\"\n\n" +
			"[[block]]\nid = \"d\"\nbody = \"Agent ``{{.agent_name}}``, {{if .agent_name}}`{{end}}\"\n",
		"fixtures/f.toml": "[session]\nagent_name = \"a_b\"\npath = \"x\"\n[[session.repos]]\nname = \"n\"\nurl = \"u\"\n\n[[turn]]\nissue_id = \"I-1\"\n",
	})
	var got []string
	for _, f := range Run(prog, arts, ltCounter(t)) {
		if f.Lint == UntrustedInCodeSpan {
			got = append(got, ltBrief(f)+": "+f.Summary+" | "+f.Suggestion)
		}
	}
	want := []string{
		"blocks/a.toml:3:20 untrusted-in-code-span a: block \"a\" prints untrusted variable \"agent_name\" inside a code span: escaping puts a backslash before each Markdown character of the value, and between backticks the backslashes show (`retry\\_test.go`) | for a value such as a path or an identifier, give [vars.agent_name] a pattern that admits only those and trust = \"trusted\"; for longer text, trust = \"code\" prints it as a fenced block (its action alone on a line); or print it outside the backticks",
		"blocks/a.toml:11:30 untrusted-in-code-span c: block \"c\" prints untrusted field \"name\" of \"repos\" inside a code span: escaping puts a backslash before each Markdown character of the value, and between backticks the backslashes show (`retry\\_test.go`) | for a value such as a path or an identifier, give field \"name\" of [vars.repos] a pattern that admits only those and trust = \"trusted\"; for longer text, trust = \"code\" prints it as a fenced block (its action alone on a line); or print it outside the backticks",
		"blocks/a.toml:15:19 untrusted-in-code-span d: block \"d\" prints untrusted variable \"agent_name\" inside a code span: escaping puts a backslash before each Markdown character of the value, and between backticks the backslashes show (`retry\\_test.go`) | for a value such as a path or an identifier, give [vars.agent_name] a pattern that admits only those and trust = \"trusted\"; for longer text, trust = \"code\" prints it as a fenced block (its action alone on a line); or print it outside the backticks",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestInCodeSpanBounds: the backticks themselves are not inside the span they open and close.
func TestInCodeSpanBounds(t *testing.T) {
	line := []byte("a `x` b")
	for at, want := range []bool{false, false, false, true, false, false, false} {
		if got := inCodeSpan(line, at); got != want {
			t.Errorf("inCodeSpan(%q, %d) = %v, want %v", line, at, got, want)
		}
	}
}
