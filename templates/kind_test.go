package templates

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKindsInMessages: the package's messages name a value's kind with describe, in the docs' words, never with
// blocks.DescribeValue (the words of a values file: "an integer", "a table", and for the types that hold a body's
// values "a templates.Untrusted") nor a Go type (%T); but for the exported functions a Go program calls with its
// own values (Bullets, Join), whose lines say so ("Go API").
func TestKindsInMessages(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if (strings.Contains(line, "blocks.DescribeValue(") || strings.Contains(line, "%T")) && !strings.Contains(line, "// Go API:") {
				t.Errorf("%s:%d: a message names a value in Go's or a values file's words: use describe\n\t%s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}

// TestDescribe: every kind of value a body sees is named as docs/reference.md names it.
func TestDescribe(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want string
	}{
		{"x", "text"}, {Untrusted("x"), "text"}, {Background("x"), "text"}, {Markdown("x"), "text"}, {Fenced("x"), "text"},
		{Mixed{text: "x"}, "text"}, {3, "an int"}, {true, "a bool"}, {1.5, "a number"}, {[]string{}, "a list"}, {[]any{}, "a list"},
		{[]map[string]any{}, "records"}, {map[string]any{}, "a record"}, {noRecord, "a record"}, {map[string]string{}, "a lookup table"},
		{nil, "nothing"},
	} {
		if got := describe(tt.v); got != tt.want {
			t.Errorf("describe(%#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
	for in, want := range map[string]string{
		"can't evaluate field x in type templates.Untrusted":           "can't evaluate field x in text",
		"wrong type for value; expected string; got []string":          "wrong type for value; expected text; got a list",
		"len of type map[string]interface {}":                          "len of a record",
		"incompatible types for comparison: templates.Mixed and int64": "incompatible types for comparison: text and int64",
		"no such thing": "no such thing",
	} {
		if got := kindWords(in); got != want {
			t.Errorf("kindWords(%q) = %q, want %q", in, got, want)
		}
	}
}
