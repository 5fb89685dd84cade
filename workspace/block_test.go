package workspace_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/workspace"
)

// The target most tests install into. Its markers are short, so that the expected bytes below can be read (and
// checked against docs/workspaces.md) at a glance.
const (
	begin = "<!-- BEGIN T -->"
	end   = "<!-- END T -->"
)

// The runbooks the tests install, and the blocks docs/workspaces.md makes of them: begin + "\n" + runbook + end + "\n". They are
// written out by hand from that rule, not produced by Bytes, so that a test compares the code with the contract.
const (
	runbook  = "Rules.\n"
	blk      = "<!-- BEGIN T -->\nRules.\n<!-- END T -->\n"
	runbook2 = "Other rules.\nTwo lines.\n"
	blk2     = "<!-- BEGIN T -->\nOther rules.\nTwo lines.\n<!-- END T -->\n"
	// old is a block some earlier install wrote: a runbook that is no longer current.
	old = "<!-- BEGIN T -->\nOld.\n<!-- END T -->\n"
)

func target() *blocks.Target {
	return &blocks.Target{Name: "claude", File: "CLAUDE.md", Begin: begin, End: end}
}

// state is a context file as install may find it, and what the rules of docs/workspaces.md make of it.
type state struct {
	name   string
	data   string
	exists bool
	// span is Find's answer for data; refused, when not 0, is the line of the begin marker Find refuses (and then
	// first is the line of the first block's begin marker, for a second block). A refused file is left as it is by
	// install and uninstall, so installed and uninstalled are not given.
	span           workspace.Span
	refused, first int
	// installed is the file after installing runbook (whose block is blk).
	installed string
	// uninstalled is the file after uninstalling, and removed says the file goes instead (then uninstalled is "").
	uninstalled string
	removed     bool
}

// markerFree reports whether Find sees no block in the state and refuses nothing: then install followed by
// uninstall must give back its bytes exactly, whatever mentions of the markers it holds.
func (s state) markerFree() bool { return !s.span.Found && s.refused == 0 }

// A fenced example of a whole block, as a team's notes may show one.
const fenced = "# How the block looks\n\n```markdown\n<!-- BEGIN T -->\nexample\n<!-- END T -->\n```\n"

// states are the files of docs/workspaces.md: every shape of end the appended block must cope with, every shape
// of block (complete, at the start, one byte in, CRLF) the span rules must find, the mentions of markers they
// must not take for one (in prose, in a code span, in a fenced example), and the files they refuse.
var states = []state{
	{name: "missing", data: "", exists: false,
		installed: blk, uninstalled: ""},
	{name: "empty", data: "", exists: true,
		installed: "\n\n" + blk, uninstalled: ""},
	{name: "whitespace only", data: " \t\n  \n\t", exists: true,
		installed: " \t\n  \n\t\n\n" + blk, uninstalled: " \t\n  \n\t"},
	{name: "only newlines", data: "\n\n", exists: true,
		installed: "\n\n\n\n" + blk, uninstalled: "\n\n"},
	{name: "no final newline", data: "# Notes\nBe brief.", exists: true,
		installed: "# Notes\nBe brief.\n\n" + blk, uninstalled: "# Notes\nBe brief."},
	{name: "one final newline", data: "# Notes\n", exists: true,
		installed: "# Notes\n\n\n" + blk, uninstalled: "# Notes\n"},
	{name: "two final newlines", data: "# Notes\n\n", exists: true,
		installed: "# Notes\n\n\n\n" + blk, uninstalled: "# Notes\n\n"},
	{name: "many final newlines", data: "# Notes\n\n\n\n\n", exists: true,
		installed: "# Notes\n\n\n\n\n\n\n" + blk, uninstalled: "# Notes\n\n\n\n\n"},
	{name: "CRLF throughout", data: "# Notes\r\n\r\nBe brief.\r\n", exists: true,
		installed: "# Notes\r\n\r\nBe brief.\r\n\n\n" + blk, uninstalled: "# Notes\r\n\r\nBe brief.\r\n"},
	{name: "BOM", data: "\xef\xbb\xbf# Notes\n", exists: true,
		installed: "\xef\xbb\xbf# Notes\n\n\n" + blk, uninstalled: "\xef\xbb\xbf# Notes\n"},
	{name: "stray end marker", data: "# Notes\n<!-- END T -->\nBe brief.\n", exists: true,
		installed: "# Notes\n<!-- END T -->\nBe brief.\n\n\n" + blk, uninstalled: "# Notes\n<!-- END T -->\nBe brief.\n"},
	{name: "begin marker cut short", data: "# Notes\n<!-- BEGIN", exists: true,
		installed: "# Notes\n<!-- BEGIN\n\n" + blk, uninstalled: "# Notes\n<!-- BEGIN"},

	// Mentions of the markers: the user's text, never a block.
	{name: "marker named in prose", data: "The block starts at <!-- BEGIN T --> and we keep it.\nMore.\n", exists: true,
		installed:   "The block starts at <!-- BEGIN T --> and we keep it.\nMore.\n\n\n" + blk,
		uninstalled: "The block starts at <!-- BEGIN T --> and we keep it.\nMore.\n"},
	{name: "both markers in a code span", data: "Never edit between `<!-- BEGIN T -->` and `<!-- END T -->`.\n", exists: true,
		installed:   "Never edit between `<!-- BEGIN T -->` and `<!-- END T -->`.\n\n\n" + blk,
		uninstalled: "Never edit between `<!-- BEGIN T -->` and `<!-- END T -->`.\n"},
	{name: "marker with text after it on its line", data: "<!-- BEGIN T --> (see below)\n<!-- BEGIN T -->x\n", exists: true,
		installed: "<!-- BEGIN T --> (see below)\n<!-- BEGIN T -->x\n\n\n" + blk, uninstalled: "<!-- BEGIN T --> (see below)\n<!-- BEGIN T -->x\n"},
	{name: "marker with a space before it", data: " <!-- BEGIN T -->\nx\n <!-- END T -->\n", exists: true,
		installed: " <!-- BEGIN T -->\nx\n <!-- END T -->\n\n\n" + blk, uninstalled: " <!-- BEGIN T -->\nx\n <!-- END T -->\n"},
	{name: "fenced example of both markers", data: fenced, exists: true,
		installed: fenced + "\n\n" + blk, uninstalled: fenced},
	{name: "fenced example with tildes, CRLF", data: "~~~\r\n<!-- BEGIN T -->\r\n<!-- END T -->\r\n~~~\r\n", exists: true,
		installed:   "~~~\r\n<!-- BEGIN T -->\r\n<!-- END T -->\r\n~~~\r\n\n\n" + blk,
		uninstalled: "~~~\r\n<!-- BEGIN T -->\r\n<!-- END T -->\r\n~~~\r\n"},
	{name: "fenced example of a half-written block", data: "```\n<!-- BEGIN T -->\n```\n", exists: true,
		installed: "```\n<!-- BEGIN T -->\n```\n\n\n" + blk, uninstalled: "```\n<!-- BEGIN T -->\n```\n"},
	// A fence closes only at a run of its own character at least as long: "```" inside "````" is its text.
	{name: "fence closed by a longer run", data: "````\n<!-- BEGIN T -->\n```\n<!-- END T -->\n`````\n", exists: true,
		installed:   "````\n<!-- BEGIN T -->\n```\n<!-- END T -->\n`````\n\n\n" + blk,
		uninstalled: "````\n<!-- BEGIN T -->\n```\n<!-- END T -->\n`````\n"},
	{name: "fence indented three spaces", data: "   ```\n<!-- BEGIN T -->\n<!-- END T -->\n   ```\n", exists: true,
		installed:   "   ```\n<!-- BEGIN T -->\n<!-- END T -->\n   ```\n\n\n" + blk,
		uninstalled: "   ```\n<!-- BEGIN T -->\n<!-- END T -->\n   ```\n"},
	{name: "unclosed fence", data: "# Notes\n```sh\nmake test\n", exists: true,
		installed: "# Notes\n```sh\nmake test\n\n\n" + blk, uninstalled: "# Notes\n```sh\nmake test\n"},

	// Files holding a block.
	{name: "current", data: "# Notes\n\n" + blk, exists: true,
		span:      workspace.Span{Start: len("# Notes\n\n"), End: len("# Notes\n\n" + blk), Found: true},
		installed: "# Notes\n\n" + blk, uninstalled: "# Notes"},
	{name: "old block", data: "# Notes\n\n" + old, exists: true,
		span:      workspace.Span{Start: len("# Notes\n\n"), End: len("# Notes\n\n" + old), Found: true},
		installed: "# Notes\n\n" + blk, uninstalled: "# Notes"},
	{name: "marker mentioned in prose above the block",
		data:      "Never edit between the `<!-- BEGIN T -->` lines. Important team rule: test first.\n\n" + old,
		exists:    true,
		span:      workspace.Span{Start: len("Never edit between the `<!-- BEGIN T -->` lines. Important team rule: test first.\n\n"), End: len("Never edit between the `<!-- BEGIN T -->` lines. Important team rule: test first.\n\n" + old), Found: true},
		installed: "Never edit between the `<!-- BEGIN T -->` lines. Important team rule: test first.\n\n" + blk, uninstalled: "Never edit between the `<!-- BEGIN T -->` lines. Important team rule: test first."},
	{name: "fenced example above the block", data: fenced + "\n\n" + old, exists: true,
		span:      workspace.Span{Start: len(fenced + "\n\n"), End: len(fenced + "\n\n" + old), Found: true},
		installed: fenced + "\n\n" + blk, uninstalled: fenced},
	{name: "fenced example below the block", data: old + fenced, exists: true,
		span:      workspace.Span{Start: 0, End: len(old), Found: true},
		installed: blk + fenced, uninstalled: fenced},
	{name: "a closed fence before the block", data: "```\ncode\n```\n" + old, exists: true,
		span:      workspace.Span{Start: len("```\ncode\n```\n"), End: len("```\ncode\n```\n" + old), Found: true},
		installed: "```\ncode\n```\n" + blk, uninstalled: "```\ncode\n```\n"},
	// An unclosed fence hides nothing: the block after it counts (or every install would append one more).
	{name: "unclosed fence before the block", data: "```\n" + old, exists: true,
		span:      workspace.Span{Start: len("```\n"), End: len("```\n" + old), Found: true},
		installed: "```\n" + blk, uninstalled: "```\n"},
	// A fence line with text after its run closes nothing, and a backtick fence with a backtick in its info
	// string opens nothing (CommonMark): the block counts.
	{name: "fence that cannot close", data: "```\n" + old + "```go\n", exists: true,
		span:      workspace.Span{Start: len("```\n"), End: len("```\n" + old), Found: true},
		installed: "```\n" + blk + "```go\n", uninstalled: "```\n```go\n"},
	{name: "backtick fence that cannot open", data: "``` a`b\n" + old + "```\n", exists: true,
		span:      workspace.Span{Start: len("``` a`b\n"), End: len("``` a`b\n" + old), Found: true},
		installed: "``` a`b\n" + blk + "```\n", uninstalled: "``` a`b\n```\n"},
	// Fence lines inside a block are the runbook's: they neither close a fence of the user's nor open one.
	{name: "unclosed fence, then a block holding fences", data: "```\nuser\n\n\n<!-- BEGIN T -->\n```\ncode\n```\n<!-- END T -->\n", exists: true,
		span:      workspace.Span{Start: len("```\nuser\n\n\n"), End: len("```\nuser\n\n\n<!-- BEGIN T -->\n```\ncode\n```\n<!-- END T -->\n"), Found: true},
		installed: "```\nuser\n\n\n" + blk, uninstalled: "```\nuser\n"},
	// The fenced example's own fence line is inside its block, so the fence closes at line 5, not 3; were it closed
	// at 3, line 5 would open a fence that line 9 closes, hiding the real block.
	{name: "fenced example of a block holding a fence, then a block", data: "```\n<!-- BEGIN T -->\n```\n<!-- END T -->\n```\n" + old + "```\n", exists: true,
		span:      workspace.Span{Start: len("```\n<!-- BEGIN T -->\n```\n<!-- END T -->\n```\n"), End: len("```\n<!-- BEGIN T -->\n```\n<!-- END T -->\n```\n" + old), Found: true},
		installed: "```\n<!-- BEGIN T -->\n```\n<!-- END T -->\n```\n" + blk + "```\n", uninstalled: "```\n<!-- BEGIN T -->\n```\n<!-- END T -->\n```\n```\n"},
	{name: "stray end marker before the block", data: "# Notes\n<!-- END T -->\n\n" + old + "Tail.\n", exists: true,
		span:      workspace.Span{Start: len("# Notes\n<!-- END T -->\n\n"), End: len("# Notes\n<!-- END T -->\n\n" + old), Found: true},
		installed: "# Notes\n<!-- END T -->\n\n" + blk + "Tail.\n", uninstalled: "# Notes\n<!-- END T -->Tail.\n"},
	{name: "end marker at end of file", data: "# Notes\n\n<!-- BEGIN T -->\nOld.\n<!-- END T -->", exists: true,
		span:      workspace.Span{Start: len("# Notes\n\n"), End: len("# Notes\n\n<!-- BEGIN T -->\nOld.\n<!-- END T -->"), Found: true},
		installed: "# Notes\n\n" + blk, uninstalled: "# Notes"},
	{name: "end marker twice", data: "<!-- BEGIN T -->\nA\n<!-- END T -->\n<!-- END T -->\n", exists: true,
		span:      workspace.Span{Start: 0, End: len("<!-- BEGIN T -->\nA\n<!-- END T -->\n"), Found: true},
		installed: blk + "<!-- END T -->\n", uninstalled: "<!-- END T -->\n"},
	{name: "begin marker twice before the end", data: "<!-- BEGIN T -->\nA\n<!-- BEGIN T -->\nB\n<!-- END T -->\nC\n", exists: true,
		span:      workspace.Span{Start: 0, End: len("<!-- BEGIN T -->\nA\n<!-- BEGIN T -->\nB\n<!-- END T -->\n"), Found: true},
		installed: blk + "C\n", uninstalled: "C\n"},
	{name: "a second block in a fence", data: old + "```\n" + old + "```\n", exists: true,
		span:      workspace.Span{Start: 0, End: len(old), Found: true},
		installed: blk + "```\n" + old + "```\n", uninstalled: "```\n" + old + "```\n"},
	{name: "block first, text after", data: old + "# Notes\n", exists: true,
		span:      workspace.Span{Start: 0, End: len(old), Found: true},
		installed: blk + "# Notes\n", uninstalled: "# Notes\n"},
	{name: "block alone", data: old, exists: true,
		span:      workspace.Span{Start: 0, End: len(old), Found: true},
		installed: blk, removed: true},
	{name: "block alone without final newline", data: "<!-- BEGIN T -->\nOld.\n<!-- END T -->", exists: true,
		span:      workspace.Span{Start: 0, End: len("<!-- BEGIN T -->\nOld.\n<!-- END T -->"), Found: true},
		installed: blk, removed: true},
	{name: "block at offset 1", data: "\n" + old, exists: true,
		span:      workspace.Span{Start: 1, End: 1 + len(old), Found: true},
		installed: "\n" + blk, uninstalled: "\n"},
	{name: "block after one newline", data: "# Notes\n" + old, exists: true,
		span:      workspace.Span{Start: len("# Notes\n"), End: len("# Notes\n" + old), Found: true},
		installed: "# Notes\n" + blk, uninstalled: "# Notes\n"},
	{name: "block after a blank line at offset 2", data: "\n\n" + old, exists: true,
		span:      workspace.Span{Start: 2, End: 2 + len(old), Found: true},
		installed: "\n\n" + blk, uninstalled: ""},
	{name: "block after CR LF CR LF", data: "# Notes\r\n\r\n" + old, exists: true,
		span:      workspace.Span{Start: len("# Notes\r\n\r\n"), End: len("# Notes\r\n\r\n" + old), Found: true},
		installed: "# Notes\r\n\r\n" + blk, uninstalled: "# Notes\r\n\r\n"},
	// CRLF marker lines count, and the end marker's line ending goes with the span, "\r\n" whole.
	{name: "CRLF block", data: "<!-- BEGIN T -->\r\nOld.\r\n<!-- END T -->\r\nTail.\r\n", exists: true,
		span:      workspace.Span{Start: 0, End: len("<!-- BEGIN T -->\r\nOld.\r\n<!-- END T -->\r\n"), Found: true},
		installed: blk + "Tail.\r\n", uninstalled: "Tail.\r\n"},
	{name: "CRLF block after CRLF text", data: "# Notes\r\n\r\n<!-- BEGIN T -->\r\nOld.\r\n<!-- END T -->\r\n", exists: true,
		span:      workspace.Span{Start: len("# Notes\r\n\r\n"), End: len("# Notes\r\n\r\n<!-- BEGIN T -->\r\nOld.\r\n<!-- END T -->\r\n"), Found: true},
		installed: "# Notes\r\n\r\n" + blk, uninstalled: "# Notes\r\n\r\n"},
	{name: "CRLF block, end marker at end of file with a CR", data: "<!-- BEGIN T -->\r\nOld.\r\n<!-- END T -->\r", exists: true,
		span:      workspace.Span{Start: 0, End: len("<!-- BEGIN T -->\r\nOld.\r\n<!-- END T -->\r"), Found: true},
		installed: blk, removed: true},

	// Refused: a begin marker with no end marker after it, a second block.
	{name: "half-written block", data: "# Notes\n\n<!-- BEGIN T -->\nOld ru", exists: true, refused: 3},
	{name: "half-written block after a stray end marker", data: "<!-- END T -->\n\n<!-- BEGIN T -->\nOld", exists: true, refused: 3},
	{name: "half-written block alone", data: "<!-- BEGIN T -->\nOl", exists: true, refused: 1},
	{name: "half-written block, CRLF", data: "# Notes\r\n<!-- BEGIN T -->\r\nOld\r\n", exists: true, refused: 2},
	{name: "begin marker and a CR at end of file", data: "# Notes\n<!-- BEGIN T -->\r", exists: true, refused: 2},
	{name: "begin marker at end of file", data: "# Notes\n<!-- BEGIN T -->", exists: true, refused: 2},
	{name: "end marker only in a code span", data: "<!-- BEGIN T -->\nOld.\n`<!-- END T -->`\n", exists: true, refused: 1},
	// Two backticks open no fence, so the begin marker counts.
	{name: "half-written block between two-backtick lines", data: "``\n<!-- BEGIN T -->\n``\n", exists: true, refused: 2},
	{name: "two blocks", data: "Top.\n\n" + old + "Middle.\n\n<!-- BEGIN T -->\nTwo.\n<!-- END T -->\n", exists: true, refused: 8, first: 3},
	{name: "three blocks", data: old + old + old, exists: true, refused: 4, first: 1},
	{name: "a block, then a begin marker alone", data: old + "Tail.\n<!-- BEGIN T -->\n", exists: true, refused: 5, first: 1},
	{name: "two CRLF blocks", data: "<!-- BEGIN T -->\r\nA\r\n<!-- END T -->\r\n<!-- BEGIN T -->\r\nB\r\n<!-- END T -->\r\n", exists: true, refused: 4, first: 1},
}

// refusal is the error Find should return for s, or nil.
func (s state) refusal() error {
	if s.refused == 0 {
		return nil
	}
	line := strings.Split(s.data, "\n")
	b := len(strings.Join(line[:s.refused-1], "\n"))
	if s.refused > 1 {
		b++
	}
	return &workspace.MarkerError{Target: target(), Line: s.refused, Byte: b, First: s.first}
}

func TestBlock(t *testing.T) {
	for _, tt := range []struct {
		name, runbook, want string
	}{
		{"runbook", "Rules.\n", "<!-- BEGIN T -->\nRules.\n<!-- END T -->\n"},
		{"empty runbook", "", "<!-- BEGIN T -->\n<!-- END T -->\n"},
		// A runbook from a caller's own code may lack the final newline promptc's runbooks end with: it gets one,
		// so that the end marker stands on a line of its own and uninstall finds the block whole.
		{"no final newline", "Rules.", "<!-- BEGIN T -->\nRules.\n<!-- END T -->\n"},
		{"blank last line kept", "Rules.\n\n", "<!-- BEGIN T -->\nRules.\n\n<!-- END T -->\n"},
		{"CRLF kept", "Rules.\r\n", "<!-- BEGIN T -->\nRules.\r\n<!-- END T -->\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(workspace.Bytes(target(), tt.runbook)); got != tt.want {
				t.Errorf("Block(%q) =\n%q\nwant\n%q", tt.runbook, got, tt.want)
			}
		})
	}
	// The constants the other tests are written with are the blocks of their runbooks.
	if got := string(workspace.Bytes(target(), runbook)); got != blk {
		t.Errorf("Block(runbook) = %q, want %q", got, blk)
	}
	if got := string(workspace.Bytes(target(), runbook2)); got != blk2 {
		t.Errorf("Block(runbook2) = %q, want %q", got, blk2)
	}
}

// sameError reports whether Find's error is the one a state expects: both nil, or MarkerErrors at the same place.
func sameError(got, want error) bool {
	if got == nil || want == nil {
		return got == nil && want == nil
	}
	g, ok1 := got.(*workspace.MarkerError)
	w, ok2 := want.(*workspace.MarkerError)
	return ok1 && ok2 && g.Line == w.Line && g.Byte == w.Byte && g.First == w.First && g.Target.Name == w.Target.Name
}

func TestFind(t *testing.T) {
	for _, s := range states {
		t.Run(s.name, func(t *testing.T) {
			got, err := workspace.Find([]byte(s.data), target())
			if got != s.span || !sameError(err, s.refusal()) {
				t.Errorf("Find(%q) = %+v, %v; want %+v, %v", s.data, got, err, s.span, s.refusal())
			}
		})
	}
}

// TestMarkerErrorMessage: the refusals say where, why, and what to do.
func TestMarkerErrorMessage(t *testing.T) {
	_, err := workspace.Find([]byte("# Notes\n<!-- BEGIN T -->\nOld"), target())
	want := `line 2: the begin marker of target "claude" has no end marker after it: a block written halfway, by hand or by another tool, whose end promptc will not guess, since a wrong guess deletes your text; the file is left as it is: delete this line, or restore the end marker "<!-- END T -->" on a line of its own where the block ends`
	if err == nil || err.Error() != want {
		t.Errorf("half-written block:\n%v\nwant\n%s", err, want)
	}
	_, err = workspace.Find([]byte(old+"\n"+old), target())
	want = `line 5: a second block of target "claude" (the first begins on line 1): promptc cannot tell which one is its own; the file is left as it is: delete one of them, from its begin-marker line to its end-marker line (or this line alone, if it starts no block)`
	if err == nil || err.Error() != want {
		t.Errorf("two blocks:\n%v\nwant\n%s", err, want)
	}
}

func TestInstalled(t *testing.T) {
	for _, s := range states {
		t.Run(s.name, func(t *testing.T) {
			data := []byte(s.data)
			if !s.exists {
				data = nil
			}
			got, err := workspace.Installed(data, s.exists, []byte(blk), target())
			switch {
			case !sameError(err, s.refusal()):
				t.Errorf("Installed(%q): %v, want %v", s.data, err, s.refusal())
			case err == nil && string(got) != s.installed:
				t.Errorf("Installed(%q) =\n%q\nwant\n%q", s.data, got, s.installed)
			case err != nil && got != nil:
				t.Errorf("Installed(%q) refused, but returned %q", s.data, got)
			}
			if string(data) != s.data {
				t.Errorf("Installed changed its input to %q", data)
			}
		})
	}
}

func TestUninstalled(t *testing.T) {
	for _, s := range states {
		t.Run(s.name, func(t *testing.T) {
			data := []byte(s.data)
			got, remove, found, err := workspace.Uninstalled(data, target())
			if !sameError(err, s.refusal()) {
				t.Fatalf("Uninstalled(%q): %v, want %v", s.data, err, s.refusal())
			}
			if err != nil {
				if got != nil || remove || found {
					t.Errorf("Uninstalled(%q) refused, but returned %q, remove %v, found %v", s.data, got, remove, found)
				}
				return
			}
			if found != s.span.Found || remove != s.removed {
				t.Errorf("Uninstalled(%q): remove %v, found %v; want remove %v, found %v", s.data, remove, found, s.removed, s.span.Found)
			}
			if string(got) != s.uninstalled {
				t.Errorf("Uninstalled(%q) =\n%q\nwant\n%q", s.data, got, s.uninstalled)
			}
			if string(data) != s.data {
				t.Errorf("Uninstalled changed its input to %q", data)
			}
		})
	}
}

// installed and uninstalled are Installed and Uninstalled for a test that expects them to succeed.
func installed(t *testing.T, data []byte, exists bool, block []byte) []byte {
	t.Helper()
	out, err := workspace.Installed(data, exists, block, target())
	if err != nil {
		t.Fatalf("Installed(%q): %v", data, err)
	}
	return out
}

func uninstalled(t *testing.T, data []byte) (out []byte, remove, found bool) {
	t.Helper()
	out, remove, found, err := workspace.Uninstalled(data, target())
	if err != nil {
		t.Fatalf("Uninstalled(%q): %v", data, err)
	}
	return out, remove, found
}

// TestInstalledNoAlias: the bytes Installed returns share no memory with its input, even when the input has room
// to grow. A caller keeps the file's old bytes (to compare, to report a diff) while it holds the new ones.
func TestInstalledNoAlias(t *testing.T) {
	for _, data := range []string{"# Notes\n", "# Notes\n\n" + old, old + "Tail.\n"} {
		in := make([]byte, len(data), len(data)+1024)
		copy(in, data)
		first := installed(t, in, true, []byte(blk))
		want := string(first)
		_ = installed(t, in, true, []byte(blk2))
		if string(first) != want || string(in) != data {
			t.Errorf("%q: a second Installed changed the first's result or the input: %q, %q", data, first, in)
		}
		out, _, _ := uninstalled(t, first)
		keep := string(out)
		_ = installed(t, out, true, []byte(blk2))
		if string(out) != keep {
			t.Errorf("%q: Installed changed the bytes Uninstalled returned: %q, want %q", data, out, keep)
		}
	}
}

// blk3 is the block of a runbook holding a fenced example: its fence lines are the runbook's, and must neither
// close a fence the user left open above the block nor open one.
const (
	runbook3 = "Run:\n```sh\nmake test\n```\n"
	blk3     = "<!-- BEGIN T -->\nRun:\n```sh\nmake test\n```\n<!-- END T -->\n"
)

// TestRoundTrip: install then uninstall gives back every file in which Find sees no block (whatever mentions of
// the markers it holds) byte for byte; so does any sequence of installs before the uninstall; and edits made above
// and below the block in between are kept.
func TestRoundTrip(t *testing.T) {
	if got := string(workspace.Bytes(target(), runbook3)); got != blk3 {
		t.Fatalf("Block(runbook3) = %q, want %q", got, blk3)
	}
	for _, s := range states {
		if !s.markerFree() {
			continue
		}
		t.Run(s.name, func(t *testing.T) {
			var data []byte
			if s.exists {
				data = []byte(s.data)
			}
			uninstall := func(step string, file []byte, want string, wantRemove bool) {
				t.Helper()
				got, remove, found := uninstalled(t, file)
				if !found || remove != wantRemove || (!remove && string(got) != want) {
					t.Errorf("%s: Uninstalled(%q) = %q, remove %v, found %v; want %q, remove %v", step, file, got, remove, found, want, wantRemove)
				}
			}

			once := installed(t, data, s.exists, []byte(blk))
			uninstall("install, uninstall", once, s.data, !s.exists)

			twice := installed(t, once, true, []byte(blk))
			if !bytes.Equal(twice, once) {
				t.Errorf("installing the same runbook again changed %q to %q", once, twice)
			}
			uninstall("install twice, uninstall", twice, s.data, !s.exists)

			for _, other := range []string{blk2, blk3} {
				next := installed(t, once, true, []byte(other))
				uninstall("install, install another, uninstall", next, s.data, !s.exists)
				if back := installed(t, next, true, []byte(blk)); !bytes.Equal(back, once) {
					t.Errorf("installing back the first runbook gave %q, want %q", back, once)
				}
			}
			fenced := installed(t, data, s.exists, []byte(blk3))
			uninstall("install a runbook with a fence, uninstall", fenced, s.data, !s.exists)

			// Edits outside the block: the file is kept, with them, and only the block (and the blank line
			// install put before it) goes.
			edited := "Above.\n" + string(once) + "Below.\n"
			uninstall("install, edit, uninstall", []byte(edited), "Above.\n"+s.data+"Below.\n", false)
			reinstalled := installed(t, []byte(edited), true, []byte(blk2))
			uninstall("install, edit, install another, uninstall", reinstalled, "Above.\n"+s.data+"Below.\n", false)
		})
	}
}

// TestSpanMarkers: the span search uses the target's own markers, which may be anything single-line: other
// targets' blocks in the same file are user bytes to it.
func TestSpanMarkers(t *testing.T) {
	a := &blocks.Target{Name: "a", File: "CLAUDE.md", Begin: "# >>> a", End: "# <<< a"}
	b := &blocks.Target{Name: "b", File: "CLAUDE.md", Begin: "[b]", End: "[/b]"}
	must := func(out []byte, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	data := []byte("user\n")
	data = must(workspace.Installed(data, true, workspace.Bytes(a, "A.\n"), a))
	data = must(workspace.Installed(data, true, workspace.Bytes(b, "B.\n"), b))
	if want := "user\n\n\n# >>> a\nA.\n# <<< a\n\n\n[b]\nB.\n[/b]\n"; string(data) != want {
		t.Fatalf("two targets installed: %q, want %q", data, want)
	}
	if got, err := workspace.Find(data, b); err != nil || got != (workspace.Span{Start: len("user\n\n\n# >>> a\nA.\n# <<< a\n\n\n"), End: len(data), Found: true}) {
		t.Errorf("Find(b) = %+v, %v", got, err)
	}
	out, _, _, err := workspace.Uninstalled(data, a)
	if want := "user\n\n\n[b]\nB.\n[/b]\n"; err != nil || string(out) != want {
		t.Errorf("uninstall a: %q, %v; want %q", out, err, want)
	}
	out, _, _, err = workspace.Uninstalled(out, b)
	if err != nil || string(out) != "user\n" {
		t.Errorf("uninstall a then b: %q, %v; want %q", out, err, "user\n")
	}
}
