package usage_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/promptc/promptc/internal/hostile"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/usage"
)

// hostileNames are the names a log may give a task or a model: every hostile value, and backtick runs and pipes
// that would leave a code span or a table cell.
func hostileNames() []string {
	names := []string{"`", "``", "a`b``c", "` x `", " lead", "trail ", "  ", "a|b", `a\|b`, `\`, "|`|", "x\n::error file=a::b",
		"\x1b]0;title\x07", "\x1b[2J", "a\rb"}
	for _, c := range hostile.Small() {
		if c.Value != "" {
			names = append(names, c.Value)
		}
	}
	return names
}

// hostileLog is one request per name, the name as the task and, reversed in order, as the model.
func hostileLog(t testing.TB, names []string) *usage.Tally {
	t.Helper()
	var log bytes.Buffer
	for i, n := range names {
		fmt.Fprintf(&log, `{"request_id":"r%d","task":%s,"model":%s,"response":{"type":"message","usage":{"input_tokens":10,"output_tokens":1}}}`+"\n",
			i, jsonString(n), jsonString(names[len(names)-1-i]))
	}
	tally := usage.NewTally()
	diags, err := tally.Read(&log, "hostile.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// Invalid UTF-8 becomes U+FFFD in a JSON string, so two names may be one: count the buckets, not the names.
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	return tally
}

// jsonString is s as a JSON string literal (invalid UTF-8 becomes U+FFFD, as in any JSON a platform writes).
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// The text report prints every name from the log as source.QuoteName quotes it: no byte of a name can clear the
// screen, set the terminal's title, return the carriage or start a line (a GitHub workflow command).
func TestTextQuotesNames(t *testing.T) {
	names := hostileNames()
	tally := hostileLog(t, names)
	rep := usage.NewReport(tally, nil)
	var out bytes.Buffer
	if err := rep.Write(&out, report.Text); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	// Header, one line a bucket, total, blank, summary, blank, two lines of legend.
	if want := len(rep.Rows) + 7; len(lines) != want {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), want, out.String())
	}
	for i, l := range lines {
		for _, r := range l {
			if !unicode.IsPrint(r) && r != ' ' {
				t.Errorf("line %d holds %U: %q", i+1, r, l)
			}
		}
	}
	for i, row := range rep.Rows {
		l := lines[i+1]
		if !strings.Contains(l, source.QuoteName(row.Task)) || !strings.Contains(l, source.QuoteName(row.Model)) {
			t.Errorf("row %d (%q, %q): %q", i+1, row.Model, row.Task, l)
		}
	}
}

// The markdown report keeps every name from the log inside its code span and its cell, as a CommonMark parser with
// GitHub's tables (goldmark) reads it: one table, a row per bucket, ten cells a row, the model and the task each one
// code span whose text is the name as source.QuoteName quotes it.
func TestMarkdownKeepsNamesInCodeSpans(t *testing.T) {
	names := hostileNames()
	tally := hostileLog(t, names)
	rep := usage.NewReport(tally, nil)
	var out bytes.Buffer
	if err := rep.Write(&out, report.Markdown); err != nil {
		t.Fatal(err)
	}
	src := out.Bytes()
	md := goldmark.New(goldmark.WithExtensions(extension.Table))
	doc := md.Parser().Parse(text.NewReader(src))
	var tables []*east.Table
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch x := n.(type) {
		case *east.Table:
			tables = append(tables, x)
		case *ast.Paragraph:
		default:
			t.Errorf("a top-level %s", n.Kind())
		}
	}
	if len(tables) != 1 {
		t.Fatalf("%d tables:\n%s", len(tables), src)
	}
	var rows []ast.Node
	for n := tables[0].FirstChild(); n != nil; n = n.NextSibling() {
		rows = append(rows, n)
	}
	if want := len(rep.Rows) + 2; len(rows) != want { // the header and the total
		t.Fatalf("%d table rows, want %d:\n%s", len(rows), want, src)
	}
	for i, row := range rep.Rows {
		var cells []ast.Node
		for c := rows[i+1].FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, c)
		}
		if len(cells) != 10 {
			t.Errorf("row %d (%q, %q) has %d cells", i+1, row.Model, row.Task, len(cells))
			continue
		}
		for j, want := range []string{row.Provider, row.Model, row.Task} {
			if got, ok := codeSpanText(cells[j], src); !ok || got != source.QuoteName(want) {
				t.Errorf("row %d, cell %d: %q (one code span: %v), want the code span %q", i+1, j+1, got, ok, source.QuoteName(want))
			}
		}
	}
}

// codeSpanText is the text of cell when it holds exactly one code span.
func codeSpanText(cell ast.Node, src []byte) (string, bool) {
	cs, ok := cell.FirstChild().(*ast.CodeSpan)
	if !ok || cs.NextSibling() != nil || cell.ChildCount() != 1 {
		return "", false
	}
	var b strings.Builder
	for c := cs.FirstChild(); c != nil; c = c.NextSibling() {
		switch x := c.(type) {
		case *ast.Text:
			b.Write(x.Segment.Value(src))
		case *ast.String:
			b.Write(x.Value)
		}
	}
	return b.String(), true
}
