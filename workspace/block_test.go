package workspace_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/workspace"
)

// The target most tests install into. Its markers are short, so that the expected bytes below can be read (and
// checked against §6) at a glance.
const (
	begin = "<!-- BEGIN T -->"
	end   = "<!-- END T -->"
)

// The runbooks the tests install, and the blocks §6 makes of them: begin + "\n" + runbook + end + "\n". They are
// written out by hand from that rule, not produced by Block, so that a test compares the code with the contract.
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

// state is a context file as install may find it, and what §6 says becomes of it.
type state struct {
	name   string
	data   string
	exists bool
	// span is Find's answer for data.
	span workspace.Span
	// installed is the file after installing runbook (whose block is blk).
	installed string
	// uninstalled is the file after uninstalling, and removed says the file goes instead (then uninstalled is "").
	uninstalled string
	removed     bool
}

// markerFree reports whether the state holds no begin marker: then install followed by uninstall must give back
// its bytes exactly.
func (s state) markerFree() bool { return !strings.Contains(s.data, begin) }

// states are the files of §6: every shape of end the appended block must cope with, and every shape of block
// (complete, half-written, several, at the start, one byte in) the span rules must find.
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

	// Files holding a block.
	{name: "current", data: "# Notes\n\n" + blk, exists: true,
		span:      workspace.Span{Start: len("# Notes\n\n"), End: len("# Notes\n\n" + blk), Found: true, Ended: true},
		installed: "# Notes\n\n" + blk, uninstalled: "# Notes"},
	{name: "old block", data: "# Notes\n\n" + old, exists: true,
		span:      workspace.Span{Start: len("# Notes\n\n"), End: len("# Notes\n\n" + old), Found: true, Ended: true},
		installed: "# Notes\n\n" + blk, uninstalled: "# Notes"},
	{name: "stray end marker before the block", data: "# Notes\n<!-- END T -->\n\n" + old + "Tail.\n", exists: true,
		span: workspace.Span{Start: len("# Notes\n<!-- END T -->\n\n"), End: len("# Notes\n<!-- END T -->\n\n" + old),
			Found: true, Ended: true},
		installed: "# Notes\n<!-- END T -->\n\n" + blk + "Tail.\n", uninstalled: "# Notes\n<!-- END T -->Tail.\n"},
	{name: "half-written block", data: "# Notes\n\n<!-- BEGIN T -->\nOld ru", exists: true,
		span:      workspace.Span{Start: len("# Notes\n\n"), End: len("# Notes\n\n<!-- BEGIN T -->\nOld ru"), Found: true},
		installed: "# Notes\n\n" + blk, uninstalled: "# Notes"},
	{name: "half-written block after a stray end marker", data: "<!-- END T -->\n\n<!-- BEGIN T -->\nOld", exists: true,
		span:      workspace.Span{Start: len("<!-- END T -->\n\n"), End: len("<!-- END T -->\n\n<!-- BEGIN T -->\nOld"), Found: true},
		installed: "<!-- END T -->\n\n" + blk, uninstalled: "<!-- END T -->"},
	{name: "end marker at end of file", data: "# Notes\n\n<!-- BEGIN T -->\nOld.\n<!-- END T -->", exists: true,
		span: workspace.Span{Start: len("# Notes\n\n"), End: len("# Notes\n\n<!-- BEGIN T -->\nOld.\n<!-- END T -->"),
			Found: true, Ended: true},
		installed: "# Notes\n\n" + blk, uninstalled: "# Notes"},
	{name: "end marker twice", data: "<!-- BEGIN T -->\nA\n<!-- END T -->\n<!-- END T -->\n", exists: true,
		span:      workspace.Span{Start: 0, End: len("<!-- BEGIN T -->\nA\n<!-- END T -->\n"), Found: true, Ended: true},
		installed: blk + "<!-- END T -->\n", uninstalled: "<!-- END T -->\n"},
	{name: "begin marker twice before the end", data: "<!-- BEGIN T -->\nA\n<!-- BEGIN T -->\nB\n<!-- END T -->\nC\n", exists: true,
		span:      workspace.Span{Start: 0, End: len("<!-- BEGIN T -->\nA\n<!-- BEGIN T -->\nB\n<!-- END T -->\n"), Found: true, Ended: true},
		installed: blk + "C\n", uninstalled: "C\n"},
	{name: "two blocks", data: "Top.\n\n" + old + "Middle.\n\n<!-- BEGIN T -->\nTwo.\n<!-- END T -->\n", exists: true,
		span:        workspace.Span{Start: len("Top.\n\n"), End: len("Top.\n\n" + old), Found: true, Ended: true, More: 1},
		installed:   "Top.\n\n" + blk + "Middle.\n\n<!-- BEGIN T -->\nTwo.\n<!-- END T -->\n",
		uninstalled: "Top.Middle.\n\n<!-- BEGIN T -->\nTwo.\n<!-- END T -->\n"},
	{name: "three blocks", data: old + old + old, exists: true,
		span:      workspace.Span{Start: 0, End: len(old), Found: true, Ended: true, More: 2},
		installed: blk + old + old, uninstalled: old + old},
	{name: "block first, text after", data: old + "# Notes\n", exists: true,
		span:      workspace.Span{Start: 0, End: len(old), Found: true, Ended: true},
		installed: blk + "# Notes\n", uninstalled: "# Notes\n"},
	{name: "block alone", data: old, exists: true,
		span:      workspace.Span{Start: 0, End: len(old), Found: true, Ended: true},
		installed: blk, removed: true},
	{name: "block alone without final newline", data: "<!-- BEGIN T -->\nOld.\n<!-- END T -->", exists: true,
		span:      workspace.Span{Start: 0, End: len("<!-- BEGIN T -->\nOld.\n<!-- END T -->"), Found: true, Ended: true},
		installed: blk, removed: true},
	{name: "half-written block alone", data: "<!-- BEGIN T -->\nOl", exists: true,
		span:      workspace.Span{Start: 0, End: len("<!-- BEGIN T -->\nOl"), Found: true},
		installed: blk, removed: true},
	{name: "block at offset 1", data: "\n" + old, exists: true,
		span:      workspace.Span{Start: 1, End: 1 + len(old), Found: true, Ended: true},
		installed: "\n" + blk, uninstalled: "\n"},
	{name: "block after one newline", data: "# Notes\n" + old, exists: true,
		span:      workspace.Span{Start: len("# Notes\n"), End: len("# Notes\n" + old), Found: true, Ended: true},
		installed: "# Notes\n" + blk, uninstalled: "# Notes\n"},
	{name: "block after a blank line at offset 2", data: "\n\n" + old, exists: true,
		span:      workspace.Span{Start: 2, End: 2 + len(old), Found: true, Ended: true},
		installed: "\n\n" + blk, uninstalled: ""},
	{name: "block after CR LF CR LF", data: "# Notes\r\n\r\n" + old, exists: true,
		span:      workspace.Span{Start: len("# Notes\r\n\r\n"), End: len("# Notes\r\n\r\n" + old), Found: true, Ended: true},
		installed: "# Notes\r\n\r\n" + blk, uninstalled: "# Notes\r\n\r\n"},
	{name: "CRLF block", data: "<!-- BEGIN T -->\r\nOld.\r\n<!-- END T -->\r\nTail.\r\n", exists: true,
		span:      workspace.Span{Start: 0, End: len("<!-- BEGIN T -->\r\nOld.\r\n<!-- END T -->"), Found: true, Ended: true},
		installed: blk + "\r\nTail.\r\n", uninstalled: "\r\nTail.\r\n"},
	{name: "block inside a line", data: "See <!-- BEGIN T -->x<!-- END T --> here.\n", exists: true,
		span:      workspace.Span{Start: len("See "), End: len("See <!-- BEGIN T -->x<!-- END T -->"), Found: true, Ended: true},
		installed: "See " + blk + " here.\n", uninstalled: "See  here.\n"},
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
			if got := string(workspace.Block(target(), tt.runbook)); got != tt.want {
				t.Errorf("Block(%q) =\n%q\nwant\n%q", tt.runbook, got, tt.want)
			}
		})
	}
	// The constants the other tests are written with are the blocks of their runbooks.
	if got := string(workspace.Block(target(), runbook)); got != blk {
		t.Errorf("Block(runbook) = %q, want %q", got, blk)
	}
	if got := string(workspace.Block(target(), runbook2)); got != blk2 {
		t.Errorf("Block(runbook2) = %q, want %q", got, blk2)
	}
}

func TestFind(t *testing.T) {
	for _, s := range states {
		t.Run(s.name, func(t *testing.T) {
			if got := workspace.Find([]byte(s.data), target()); got != s.span {
				t.Errorf("Find(%q) = %+v, want %+v", s.data, got, s.span)
			}
		})
	}
}

func TestInstalled(t *testing.T) {
	for _, s := range states {
		t.Run(s.name, func(t *testing.T) {
			data := []byte(s.data)
			if !s.exists {
				data = nil
			}
			got := workspace.Installed(data, s.exists, []byte(blk), target())
			if string(got) != s.installed {
				t.Errorf("Installed(%q) =\n%q\nwant\n%q", s.data, got, s.installed)
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
			got, remove, found := workspace.Uninstalled(data, target())
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

// TestInstalledNoAlias: the bytes Installed returns share no memory with its input, even when the input has room
// to grow. A caller keeps the file's old bytes (to compare, to report a diff) while it holds the new ones.
func TestInstalledNoAlias(t *testing.T) {
	for _, data := range []string{"# Notes\n", "# Notes\n\n" + old, old + "Tail.\n"} {
		in := make([]byte, len(data), len(data)+1024)
		copy(in, data)
		first := workspace.Installed(in, true, []byte(blk), target())
		want := string(first)
		_ = workspace.Installed(in, true, []byte(blk2), target())
		if string(first) != want || string(in) != data {
			t.Errorf("%q: a second Installed changed the first's result or the input: %q, %q", data, first, in)
		}
		out, _, _ := workspace.Uninstalled(first, target())
		keep := string(out)
		_ = workspace.Installed(out, true, []byte(blk2), target())
		if string(out) != keep {
			t.Errorf("%q: Installed changed the bytes Uninstalled returned: %q, want %q", data, out, keep)
		}
	}
}

// TestRoundTrip: install then uninstall gives back every file that held no begin marker byte for byte; so does
// any sequence of installs before the uninstall; and edits made above and below the block in between are kept.
func TestRoundTrip(t *testing.T) {
	tg := target()
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
				got, remove, found := workspace.Uninstalled(file, tg)
				if !found || remove != wantRemove || (!remove && string(got) != want) {
					t.Errorf("%s: Uninstalled(%q) = %q, remove %v, found %v; want %q, remove %v", step, file, got, remove, found, want, wantRemove)
				}
			}

			once := workspace.Installed(data, s.exists, []byte(blk), tg)
			uninstall("install, uninstall", once, s.data, !s.exists)

			twice := workspace.Installed(once, true, []byte(blk), tg)
			if !bytes.Equal(twice, once) {
				t.Errorf("installing the same runbook again changed %q to %q", once, twice)
			}
			uninstall("install twice, uninstall", twice, s.data, !s.exists)

			other := workspace.Installed(once, true, []byte(blk2), tg)
			uninstall("install, install another, uninstall", other, s.data, !s.exists)
			if back := workspace.Installed(other, true, []byte(blk), tg); !bytes.Equal(back, once) {
				t.Errorf("installing back the first runbook gave %q, want %q", back, once)
			}

			// Edits outside the block: the file is kept, with them, and only the block (and the blank line
			// install put before it) goes.
			edited := "Above.\n" + string(once) + "Below.\n"
			uninstall("install, edit, uninstall", []byte(edited), "Above.\n"+s.data+"Below.\n", false)
			reinstalled := workspace.Installed([]byte(edited), true, []byte(blk2), tg)
			uninstall("install, edit, install another, uninstall", reinstalled, "Above.\n"+s.data+"Below.\n", false)
		})
	}
}

// TestSpanMarkers: the span search uses the target's own markers, which may be anything single-line: other
// targets' blocks in the same file are user bytes to it.
func TestSpanMarkers(t *testing.T) {
	a := &blocks.Target{Name: "a", File: "CLAUDE.md", Begin: "# >>> a", End: "# <<< a"}
	b := &blocks.Target{Name: "b", File: "CLAUDE.md", Begin: "[b]", End: "[/b]"}
	data := []byte("user\n")
	data = workspace.Installed(data, true, workspace.Block(a, "A.\n"), a)
	data = workspace.Installed(data, true, workspace.Block(b, "B.\n"), b)
	if want := "user\n\n\n# >>> a\nA.\n# <<< a\n\n\n[b]\nB.\n[/b]\n"; string(data) != want {
		t.Fatalf("two targets installed: %q, want %q", data, want)
	}
	if got := workspace.Find(data, b); got != (workspace.Span{Start: len("user\n\n\n# >>> a\nA.\n# <<< a\n\n\n"), End: len(data), Found: true, Ended: true}) {
		t.Errorf("Find(b) = %+v", got)
	}
	out, _, _ := workspace.Uninstalled(data, a)
	if want := "user\n\n\n[b]\nB.\n[/b]\n"; string(out) != want {
		t.Errorf("uninstall a: %q, want %q", out, want)
	}
	out, _, _ = workspace.Uninstalled(out, b)
	if string(out) != "user\n" {
		t.Errorf("uninstall a then b: %q, want %q", out, "user\n")
	}
}
