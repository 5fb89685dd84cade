package workspace_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/workspace"
)

// FuzzRoundTrip: for any file that holds no begin marker, install then uninstall gives back its bytes, whatever
// was installed in between and however often; installing a runbook twice writes it once. The pure functions are
// checked for a file that exists and one that does not, and then Install and Uninstall on a directory, so that the
// code that reads and writes real files is fuzzed too.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range states {
		if s.markerFree() {
			f.Add([]byte(s.data), runbook, runbook2)
		}
	}
	for _, content := range []string{
		"", "\n", "\r\n", "\n\n", "\r", "x", "\n\n\n", "<!-- BEGIN", "<!-- BEGIN T --", "<!-- END T -->",
		"<!-- END T -->\n", "# Notes\n<!-- END T -->", "\xef\xbb\xbf", "<!-- BEGIN U -->\n<!-- END U -->\n",
	} {
		f.Add([]byte(content), runbook, runbook2)
	}
	f.Add([]byte("# Notes\n"), "", "")
	f.Add([]byte("# Notes\n"), "no final newline", "two\n\n")
	f.Add([]byte("# Notes\n"), "<!-- BEGIN", "<!-- END T --")
	f.Add([]byte("# Notes\n"), "\r\n", "\n")
	f.Add([]byte("# Notes"), "Same.\n", "Same.")

	tg := target()
	f.Fuzz(func(t *testing.T, content []byte, rbA, rbB string) {
		if !utf8.Valid(content) || bytes.Contains(content, []byte(begin)) || len(content) > workspace.MaxFileBytes/2 {
			return
		}
		// A runbook holding a marker is refused by Install (TestInstallRunbookMarker); one that is not UTF-8 is
		// the subject of TestInstallRunbookNotUTF8.
		for _, rb := range []string{rbA, rbB} {
			if strings.Contains(rb, begin) || strings.Contains(rb, end) || !utf8.Valid([]byte(rb)) {
				return
			}
		}
		blockA, blockB := workspace.Block(tg, rbA), workspace.Block(tg, rbB)

		for _, exists := range []bool{true, false} {
			data := content
			if !exists {
				data = nil
			}
			back := func(step string, file []byte) {
				t.Helper()
				out, remove, found := workspace.Uninstalled(file, tg)
				switch {
				case !found:
					t.Fatalf("%s (exists %v): Uninstalled(%q) found no block", step, exists, file)
				case remove != !exists:
					t.Fatalf("%s (exists %v): Uninstalled(%q): remove %v", step, exists, file, remove)
				case exists && !bytes.Equal(out, content):
					t.Fatalf("%s: Uninstalled(%q) = %q, want %q", step, file, out, content)
				}
			}
			once := workspace.Installed(data, exists, blockA, tg)
			back("install A", once)
			if sp := workspace.Find(once, tg); !sp.Found || !sp.Ended || sp.More != 0 || !bytes.Equal(once[sp.Start:sp.End], blockA) {
				t.Fatalf("install A into %q: Find(%q) = %+v", data, once, sp)
			}
			if twice := workspace.Installed(once, true, blockA, tg); !bytes.Equal(twice, once) {
				t.Fatalf("installing A twice into %q: %q, then %q", data, once, twice)
			}
			ab := workspace.Installed(once, true, blockB, tg)
			back("install A, then B", ab)
			if !exists && !bytes.Equal(ab, blockB) {
				t.Fatalf("install A then B into no file: %q, want the block of B alone", ab)
			}
			if aba := workspace.Installed(ab, true, blockA, tg); !bytes.Equal(aba, once) {
				t.Fatalf("install A, B, A into %q: %q, want %q", data, aba, once)
			}
		}

		// The same through the directory, with the file existing.
		dir := t.TempDir()
		name := filepath.Join(dir, "CLAUDE.md")
		if err := os.WriteFile(name, content, 0o644); err != nil {
			t.Fatal(err)
		}
		want := workspace.Installed(content, true, blockA, tg)
		for _, step := range []struct {
			runbook string
			action  workspace.Action
			file    []byte
		}{
			{rbA, workspace.Appended, want},
			{rbA, workspace.Current, want},
			{rbB, workspace.Replaced, workspace.Installed(content, true, blockB, tg)},
		} {
			if step.action == workspace.Replaced && bytes.Equal(blockA, blockB) {
				step.action = workspace.Current
			}
			res, err := workspace.Install(dir, step.runbook, tg)
			if err != nil || len(res) != 1 || res[0].Action != step.action {
				t.Fatalf("Install(%q) into %q: %v, %v; want %v", step.runbook, content, res, err, step.action)
			}
			if got, _ := os.ReadFile(name); !bytes.Equal(got, step.file) {
				t.Fatalf("Install(%q) into %q: the file is %q, want %q", step.runbook, content, got, step.file)
			}
		}
		res, err := workspace.Uninstall(dir, tg)
		if err != nil || len(res) != 1 || res[0].Action != workspace.Removed {
			t.Fatalf("Uninstall from %q: %v, %v; want removed", content, res, err)
		}
		if got, err := os.ReadFile(name); err != nil || !bytes.Equal(got, content) {
			t.Fatalf("install, uninstall: the file is %q (%v), want %q", got, err, content)
		}
	})
}

// FuzzFind: for any bytes and any pair of markers install accepts, Find's span is in the file, starts at the first
// begin marker, and ends where §6 says: after the first end marker that follows it and one "\n", or at the end of
// the file when there is none; Uninstalled takes out exactly that span (and the "\n\n" before it).
func FuzzFind(f *testing.F) {
	for _, s := range states {
		f.Add([]byte(s.data), begin, end)
	}
	f.Add([]byte("# >>> a\nA.\n# <<< a\n"), "# >>> a", "# <<< a")
	f.Add([]byte("[b]x[/b]\n[b]y[/b]"), "[b]", "[/b]")
	f.Add([]byte("aaaa"), "aa", "ab")

	f.Fuzz(func(t *testing.T, data []byte, b, e string) {
		// The markers a project may declare (blocks' manifest checks): single lines, different, neither
		// inside the other.
		if b == "" || e == "" || strings.Contains(b, e) || strings.Contains(e, b) || strings.ContainsRune(b+e, '\n') {
			return
		}
		tg := &blocks.Target{Name: "f", File: "CLAUDE.md", Begin: b, End: e}
		sp := workspace.Find(data, tg)
		first := bytes.Index(data, []byte(b))
		if !sp.Found {
			if first >= 0 || sp != (workspace.Span{}) {
				t.Fatalf("Find(%q) = %+v, but the begin marker is at %d", data, sp, first)
			}
			if out, remove, found := workspace.Uninstalled(data, tg); found || remove || !bytes.Equal(out, data) {
				t.Fatalf("Uninstalled(%q) with no block: %q, remove %v, found %v", data, out, remove, found)
			}
			return
		}
		if sp.Start != first || sp.End < sp.Start+len(b) || sp.End > len(data) {
			t.Fatalf("Find(%q) = %+v: out of bounds, or not at the first begin marker (%d)", data, sp, first)
		}
		after := sp.Start + len(b)
		j := bytes.Index(data[after:], []byte(e))
		if sp.Ended != (j >= 0) {
			t.Fatalf("Find(%q) = %+v, but the first end marker after the begin marker is at %d", data, sp, j)
		}
		wantEnd, more := len(data), 0
		if j >= 0 {
			wantEnd = after + j + len(e)
			if wantEnd < len(data) && data[wantEnd] == '\n' {
				wantEnd++
			}
			more = bytes.Count(data[wantEnd:], []byte(b))
		}
		if sp.End != wantEnd || sp.More != more {
			t.Fatalf("Find(%q) = %+v, want End %d, More %d", data, sp, wantEnd, more)
		}

		out, remove, found := workspace.Uninstalled(data, tg)
		start := sp.Start
		if start >= 2 && string(data[start-2:start]) == "\n\n" {
			start -= 2
		}
		want := string(data[:start]) + string(data[sp.End:])
		switch {
		case !found:
			t.Fatalf("Uninstalled(%q): found no block", data)
		case remove != (sp.Start == 0 && sp.End == len(data)):
			t.Fatalf("Uninstalled(%q): remove %v for span %+v", data, remove, sp)
		case !remove && string(out) != want:
			t.Fatalf("Uninstalled(%q) = %q, want %q", data, out, want)
		}
	})
}
