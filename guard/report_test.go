package guard

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/golden"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/tokens"
)

// go test ./guard -run TestReport -update rewrites testdata/report/*.golden; read the diff before committing it.
var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// rpOld and rpNew are the two sides of the report tests, a pull request in small: the global rules block gains a
// word, the turn block a character, fixture c is new (chat only, no turns) and fixture a loses its second turn.
// Fixtures a and b render the same issue runbook, so its diff shows twice and the text report prints it once.
var rpOld = map[string]string{
	"promptc.toml": `name  = "acme"
tasks = ["issue", "chat"]

[runbook]
order = ["rules", "issue-only", "who"]

[turn]
order = ["assignment"]

[vars.agent_name]
scope = "session"
type  = "string"

[vars.issue_id]
scope = "turn"
type  = "string"
`,
	"blocks/main.toml": `[[block]]
id    = "rules"
title = "Rules"
body  = """
Never push to main.
Run the tests before every commit."""

[[block]]
id    = "issue-only"
tasks = ["issue"]
body  = "Close the issue when the fix is merged."

[[block]]
id   = "who"
body = "You are {{.agent_name}}."

[[block]]
id   = "assignment"
body = "Work on {{.issue_id}}."
`,
	"fixtures/a.toml": `[session]
agent_name = "Ada"

[[turn]]
issue_id = "ISS-1"

[[turn]]
issue_id = "ISS-2"
`,
	"fixtures/b.toml": `tasks = ["issue"]

[session]
agent_name = "Ada"
`,
}

func rpNew(t *testing.T) map[string]string {
	return cmpEdited(t, rpOld,
		cmpEdit{file: "blocks/main.toml", old: "Run the tests", new: "Run all the tests"},
		cmpEdit{file: "blocks/main.toml", old: "{{.issue_id}}.", new: "{{.issue_id}} now."},
		cmpEdit{file: "fixtures/a.toml", old: "\n[[turn]]\nissue_id = \"ISS-2\"\n", new: ""},
		cmpEdit{file: "fixtures/c.toml", new: "tasks = [\"chat\"]\n\n[session]\nagent_name = \"Grace\"\n"},
	)
}

// rpReport compares the two sides as promptc diff does: both compiled, with source maps.
func rpReport(t *testing.T) *Report {
	t.Helper()
	return Compare(
		Side{Label: "HEAD", Dir: "a/", Arts: cmpBuild(t, rpOld)},
		Side{Label: "working tree", Dir: "b/", Arts: cmpBuild(t, rpNew(t))},
		cmpExpectCounter(t))
}

const rpTitle = "promptc diff HEAD: 8 artifacts changed"

// rpGolden compares got with testdata/report/NAME.golden, or rewrites that file under -update.
func rpGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "report", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./guard -run TestReport -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s:\n%s", name, path, UnifiedDiff(path, "got", string(want), string(got), true, true))
	}
}

func TestReportGolden(t *testing.T) {
	r := rpReport(t)
	if len(r.Changes) != 8 {
		t.Fatalf("%d changes, want 8 (the title says so)", len(r.Changes))
	}
	res := &Result{Report: r}
	if res.Title() != rpTitle {
		t.Errorf("title %q, want %q", res.Title(), rpTitle)
	}
	tests := []struct {
		name  string
		write func(w *bytes.Buffer) error
	}{
		{"text", func(w *bytes.Buffer) error { return res.WriteText(w, TextOptions{}) }},
		{"text-color", func(w *bytes.Buffer) error { return res.WriteText(w, TextOptions{Color: true}) }},
		{"markdown", func(w *bytes.Buffer) error { return res.WriteMarkdown(w, MarkdownOptions{}) }},
		{"json", func(w *bytes.Buffer) error { return res.WriteJSON(w) }},
		{"annotations", func(w *bytes.Buffer) error { return res.WriteAnnotations(w, "examples/acme/") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var first, second bytes.Buffer
			if err := tt.write(&first); err != nil {
				t.Fatal(err)
			}
			// Idempotence: the same report writes the same bytes, and so does a report compiled afresh.
			if err := tt.write(&second); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(first.Bytes(), second.Bytes()) {
				t.Errorf("writing the report twice gave different bytes")
			}
			rpGolden(t, tt.name, first.Bytes())
		})
	}
	var again bytes.Buffer
	if err := (&Result{Report: rpReport(t)}).WriteJSON(&again); err != nil {
		t.Fatal(err)
	}
	var once bytes.Buffer
	res.WriteJSON(&once)
	if !bytes.Equal(once.Bytes(), again.Bytes()) {
		t.Errorf("two compilations of the same sides gave different JSON reports")
	}
}

// TestReportGoldenCheck is the report promptc check prints: the old side is golden/ read back as bytes.
func TestReportGoldenCheck(t *testing.T) {
	r := Compare(
		Side{Label: "golden", Dir: "golden/", Arts: FromBytes(cmpTree(cmpBuild(t, rpOld)))},
		Side{Label: "build", Dir: "build/", Arts: cmpBuild(t, rpNew(t))},
		cmpExpectCounter(t))
	res := &Result{Report: r, check: true}
	if want := "promptc check: 8 artifacts differ from golden/"; res.Title() != want {
		t.Errorf("title %q, want %q", res.Title(), want)
	}
	var b bytes.Buffer
	if err := res.WriteText(&b, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	rpGolden(t, "check-text", b.Bytes())
}

func TestReportNoColor(t *testing.T) {
	var b bytes.Buffer
	res := &Result{Report: rpReport(t)}
	res.WriteText(&b, TextOptions{})
	if strings.Contains(b.String(), "\x1b") {
		t.Errorf("text without Color holds an escape sequence")
	}
	b.Reset()
	res.WriteText(&b, TextOptions{Color: true})
	for _, want := range []string{ansiBold + rpTitle + ansiReset + "\n", ansiRed + "-", ansiGreen + "+", ansiCyan + "@@"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text with Color lacks %q", want)
		}
	}
}

// TestReportSameDiff: one edit shows in many artifacts; the text report prints each distinct diff once.
func TestReportSameDiff(t *testing.T) {
	var b bytes.Buffer
	(&Result{Report: rpReport(t)}).WriteText(&b, TextOptions{})
	text := b.String()
	for _, want := range []string{
		"issue/b.runbook.md: changed at byte 34 (line 4, col 5)\n  block: rules (blocks/main.toml:2:1), scope global\n" +
			"  cache: invalidates 86 bytes, 19 tokens of cached prefix\n  diff: same as issue/a.runbook.md\n",
		"issue/a.turn-1.md: changed at byte 13 (line 1, col 14)\n  block: assignment (blocks/main.toml:18:1), scope turn\n" +
			"  cache: turn message, no cached prefix lost\n  diff: same as chat/a.turn-1.md\n",
		"issue/a.turn-2.md: no longer produced\n  block: assignment (blocks/main.toml:18:1), scope turn, removed text\n" +
			"  cache: turn message, no cached prefix lost\n  diff: same as chat/a.turn-2.md\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text report lacks\n%s", want)
		}
	}
	if n := strings.Count(text, "-Run the tests before every commit."); n != 2 {
		t.Errorf("the rules diff is printed %d times, want 2 (chat's runbook and issue's differ in context)", n)
	}
}

// rpJSON is the documented JSON form, decoded strictly: an undocumented field is an error.
type rpJSON struct {
	Version  int    `json:"version"`
	Old      string `json:"old"`
	New      string `json:"new"`
	Encoding string `json:"encoding"`
	Summary  struct {
		Lines             []string `json:"lines"`
		Artifacts         int      `json:"artifacts"`
		InvalidatedBytes  int      `json:"invalidated_bytes"`
		InvalidatedTokens int      `json:"invalidated_tokens"`
	} `json:"summary"`
	Changes []struct {
		Path              string  `json:"path"`
		Status            string  `json:"status"`
		Task              string  `json:"task"`
		Kind              string  `json:"kind"`
		Offset            int     `json:"offset"`
		Line              int     `json:"line"`
		Col               int     `json:"col"`
		Block             *string `json:"block"`
		Scope             *string `json:"scope"`
		Side              *string `json:"side"`
		After             *string `json:"after"`
		InvalidatedBytes  int     `json:"invalidated_bytes"`
		InvalidatedTokens int     `json:"invalidated_tokens"`
		OldBytes          int     `json:"old_bytes"`
		NewBytes          int     `json:"new_bytes"`
		Diff              string  `json:"diff"`
		Source            *string `json:"source"`
		Origin            *struct {
			Kind   string `json:"kind"`
			Name   string `json:"name"`
			Source string `json:"source"`
		} `json:"origin"`
	} `json:"changes"`
}

func TestReportJSON(t *testing.T) {
	r := rpReport(t)
	var b bytes.Buffer
	if err := (&Result{Report: r}).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(b.Bytes()) {
		t.Fatalf("WriteJSON wrote invalid JSON:\n%s", b.String())
	}
	dec := json.NewDecoder(bytes.NewReader(b.Bytes()))
	dec.DisallowUnknownFields()
	var got rpJSON
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("decoding the documented fields: %v", err)
	}
	if got.Version != 1 || got.Old != "HEAD" || got.New != "working tree" || got.Encoding != tokens.O200k.String() {
		t.Errorf("header = %d %q %q %q, want 1 HEAD, working tree, o200k_base", got.Version, got.Old, got.New, got.Encoding)
	}
	s := r.Summarize()
	if got.Summary.Artifacts != 8 || got.Summary.InvalidatedBytes != s.InvalidatedBytes || got.Summary.InvalidatedTokens != s.InvalidatedTokens ||
		strings.Join(got.Summary.Lines, "\n") != strings.Join(s.Lines, "\n") {
		t.Errorf("summary = %+v, want %+v", got.Summary, s)
	}
	if len(got.Changes) != len(r.Changes) {
		t.Fatalf("%d changes, want %d", len(got.Changes), len(r.Changes))
	}
	for i, c := range got.Changes {
		want := r.Changes[i]
		if c.Path != want.Path || c.Status != want.Status.String() || c.Diff != want.Diff || c.Offset != want.Offset {
			t.Errorf("change %d = %s %s at %d, want %s %s at %d", i, c.Path, c.Status, c.Offset, want.Path, want.Status, want.Offset)
		}
		// source is the block's position as path:line:col, present exactly when a block owns the change.
		if (c.Source != nil) != (c.Block != nil) {
			t.Errorf("%s: source %v and block %v: want both or neither", c.Path, c.Source, c.Block)
		}
		if c.Source != nil && *c.Source != want.Source.String() {
			t.Errorf("%s: source %q, want %q", c.Path, *c.Source, want.Source)
		}
	}

	// A clean report still has every top-level field, with empty arrays rather than null.
	b.Reset()
	if err := (&Result{Report: &Report{Old: Side{Label: "HEAD"}, New: Side{Label: "working tree"}, Encoding: tokens.O200k.String()}}).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	want := `{
  "version": 1,
  "old": "HEAD",
  "new": "working tree",
  "encoding": "o200k_base",
  "summary": {
    "lines": [],
    "artifacts": 0,
    "invalidated_bytes": 0,
    "invalidated_tokens": 0
  },
  "changes": []
}
`
	if b.String() != want {
		t.Errorf("clean JSON report =\n%s\nwant\n%s", b.String(), want)
	}
}

// TestReportJSONFieldOrder: the fields of a change come in the documented order, and those that may be omitted are
// omitted when empty, never written as "" or null.
func TestReportJSONFieldOrder(t *testing.T) {
	var b bytes.Buffer
	(&Result{Report: rpReport(t)}).WriteJSON(&b)
	keys := regexp.MustCompile(`(?m)^      "([a-z_]+)":`).FindAllStringSubmatch(b.String(), -1)
	var order []string
	for _, k := range keys {
		if k[1] == "path" && len(order) > 0 {
			break
		}
		order = append(order, k[1])
	}
	want := "path status task kind offset line col block scope side invalidated_bytes invalidated_tokens old_bytes new_bytes diff source"
	if strings.Join(order, " ") != want {
		t.Errorf("fields of the first change: %s\nwant %s", strings.Join(order, " "), want)
	}
	for _, empty := range []string{`"block": ""`, `"scope": ""`, `"side": ""`, `"after": ""`, `"source": ""`, `: null`} {
		if strings.Contains(b.String(), empty) {
			t.Errorf("JSON report holds %s", empty)
		}
	}
}

func TestReportMarkdown(t *testing.T) {
	r := rpReport(t)
	var b bytes.Buffer
	if err := (&Result{Report: r}).WriteMarkdown(&b, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if !strings.HasPrefix(md, "### "+rpTitle+"\n\n") {
		t.Errorf("markdown does not start with the title as a heading:\n%s", md)
	}
	header := "| artifact | first change | block | scope | cached tokens invalidated |\n|---|---|---|---|---:|\n"
	if strings.Count(md, header) != 1 {
		t.Errorf("markdown lacks the summary table header %q", header)
	}
	// Each change has a collapsible diff, or points at the identical one shown before it.
	n, m, same := strings.Count(md, "<details>"), strings.Count(md, "</details>"), strings.Count(md, "; same diff as <code>")
	if n+same != len(r.Changes) || m != n || same == 0 {
		t.Errorf("%d <details>, %d </details> and %d same-diff lines, want one of them per change (%d), some shared", n, m, same, len(r.Changes))
	}
	for _, c := range r.Changes {
		if !strings.Contains(md, "\n| `"+c.Path+"` | ") {
			t.Errorf("the table has no row for %s", c.Path)
		}
	}

	// No change: a short all-clear, no table.
	b.Reset()
	(&Result{Report: &Report{Old: Side{Label: "HEAD"}, Encoding: tokens.O200k.String()}}).WriteMarkdown(&b, MarkdownOptions{})
	if want := "### promptc diff HEAD: 0 artifacts changed\n\nNo artifact changed: every cached prefix is intact.\n"; b.String() != want {
		t.Errorf("clean markdown =\n%q\nwant\n%q", b.String(), want)
	}

	// A diff holding a code fence gets a longer fence, so the comment's markup stays intact.
	b.Reset()
	fenced := &Report{Encoding: tokens.O200k.String(), Changes: []*Change{{
		Path: "t/a.runbook.md", Status: golden.Changed, Task: "t", Kind: blocks.Runbook, Offset: 0, Line: 1, Col: 1,
		Diff: "--- a/t/a.runbook.md\n+++ b/t/a.runbook.md\n@@ -1 +1 @@\n-```sh\n+````sh\n",
	}}}
	(&Result{Report: fenced}).WriteMarkdown(&b, MarkdownOptions{})
	if !strings.Contains(b.String(), "\n`````diff\n--- a/t/a.runbook.md\n") || !strings.Contains(b.String(), "+````sh\n`````\n") {
		t.Errorf("a diff holding ```` is not fenced by `````:\n%s", b.String())
	}
}

func TestReportAnnotationsEscaping(t *testing.T) {
	r := &Report{Old: Side{Label: "golden", Dir: "golden/"}, Encoding: tokens.O200k.String(), Changes: []*Change{
		{
			Path: "t/a.runbook.md", Status: golden.Changed, Task: "t", Kind: blocks.Runbook, Offset: 3, Line: 1, Col: 4,
			Block: "b", Source: source.Range{Filename: "blocks/100%,a:b.toml", Start: source.Pos{Line: 7, Column: 1}}, Scope: blocks.ScopeGlobal, Side: "new",
			InvalidatedBytes: 5000, InvalidatedTokens: 1234,
		},
		{
			// A message can only hold a newline through a path; the escaping must cover it anyway.
			Path: "t/50%\nb.runbook.md", Status: golden.Removed, Task: "t", Kind: blocks.Runbook, Line: 1, Col: 1,
		},
	}}
	var b bytes.Buffer
	if err := (&Result{Report: r, check: true}).WriteAnnotations(&b, "sub,dir/"); err != nil {
		t.Fatal(err)
	}
	want := "::error file=sub%2Cdir/blocks/100%25%2Ca%3Ab.toml,line=7,col=1::t/a.runbook.md: changed at byte 3 (line 1, col 4); " +
		"block b (blocks/100%25,a:b.toml:7:1), scope global; invalidates 1,234 tokens of cached prefix\n" +
		"::error file=sub%2Cdir/golden/t/50%25%0Ab.runbook.md::t/50%25%0Ab.runbook.md: no longer produced\n"
	if b.String() != want {
		t.Errorf("annotations =\n%s\nwant\n%s", b.String(), want)
	}
	if strings.Count(b.String(), "\n") != len(r.Changes) {
		t.Errorf("want one line per change")
	}
}

// TestReportPathsUnderDir: with Dir set, every source position of the text and markdown reports is named from
// there (the working directory, the top of the repository), artifact names are not, and markdown links each
// position to its line; without Dir nothing moves.
func TestReportPathsUnderDir(t *testing.T) {
	res := &Result{Report: rpReport(t)}
	var plain, moved bytes.Buffer
	if err := res.WriteText(&plain, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := res.WriteText(&moved, TextOptions{Dir: "../my prompts"}); err != nil {
		t.Fatal(err)
	}
	want := strings.ReplaceAll(plain.String(), "(blocks/", "(../my prompts/blocks/")
	if moved.String() != want || want == plain.String() {
		t.Errorf("text report with Dir:\n%s\nwant every source position moved:\n%s", moved.String(), want)
	}
	moved.Reset()
	if err := res.WriteText(&moved, TextOptions{Dir: "."}); err != nil || moved.String() != plain.String() {
		t.Errorf("text report with Dir \".\" differs from the one without (err %v)", err)
	}

	var md bytes.Buffer
	links := &Links{Base: "https://example.com/acme/repo", Commit: "0123abcd"}
	if err := res.WriteMarkdown(&md, MarkdownOptions{Dir: "my prompts", Links: links}); err != nil {
		t.Fatal(err)
	}
	row := "| `chat/a.runbook.md` | byte 34 (4:5) | `rules` ([my prompts/blocks/main.toml:2:1](https://example.com/acme/repo/blob/0123abcd/my%20prompts/blocks/main.toml#L2)) | global |"
	if !strings.Contains(md.String(), row) {
		t.Errorf("markdown lacks the linked row %q:\n%s", row, md.String())
	}
	if strings.Contains(md.String(), "(blocks/") {
		t.Errorf("markdown names a source position from the project root:\n%s", md.String())
	}
}
