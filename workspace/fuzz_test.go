package workspace_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/workspace"
)

// FuzzRoundTrip: for any file in which Find sees no block and refuses nothing (whatever mentions of the markers it
// holds, in prose, code spans or fences), install then uninstall gives back its bytes, whatever was installed in
// between and however often; installing a runbook twice writes it once. The pure functions are checked for a file
// that exists and one that does not, and then Install and Uninstall on a directory, so that the code that reads
// and writes real files is fuzzed too.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range states {
		if s.markerFree() {
			f.Add([]byte(s.data), runbook, runbook2)
			f.Add([]byte(s.data), runbook3, "```\n")
		}
	}
	for _, content := range []string{
		"", "\n", "\r\n", "\n\n", "\r", "x", "\n\n\n", "<!-- BEGIN", "<!-- BEGIN T --", "<!-- END T -->",
		"<!-- END T -->\n", "# Notes\n<!-- END T -->", "\xef\xbb\xbf", "<!-- BEGIN U -->\n<!-- END U -->\n",
		"```", "```\n", "~~~~\n", "```\n<!-- BEGIN T -->\n```", "<!-- BEGIN T -->\r",
	} {
		f.Add([]byte(content), runbook, runbook2)
	}
	f.Add([]byte("# Notes\n"), "", "")
	f.Add([]byte("# Notes\n"), "no final newline", "two\n\n")
	f.Add([]byte("# Notes\n"), "<!-- BEGIN", "<!-- END T --")
	f.Add([]byte("# Notes\n"), "\r\n", "\n")
	f.Add([]byte("# Notes"), "Same.\n", "Same.")
	f.Add([]byte("```\nopen\n"), "```\n", "~~~\n```\n")

	tg := target()
	f.Fuzz(func(t *testing.T, content []byte, rbA, rbB string) {
		if !utf8.Valid(content) || len(content) > workspace.MaxFileBytes/2 {
			return
		}
		if sp, err := workspace.Find(content, tg); sp.Found || err != nil {
			return
		}
		// A runbook holding a marker is refused by Install (TestInstallRunbookMarker); one that is not UTF-8 is
		// the subject of TestInstallRunbookNotUTF8.
		for _, rb := range []string{rbA, rbB} {
			if strings.Contains(rb, begin) || strings.Contains(rb, end) || !utf8.Valid([]byte(rb)) {
				return
			}
		}
		blockA, blockB := workspace.Bytes(tg, rbA), workspace.Bytes(tg, rbB)
		install := func(data []byte, exists bool, block []byte) []byte {
			t.Helper()
			out, err := workspace.Installed(data, exists, block, tg)
			if err != nil {
				t.Fatalf("Installed(%q, block %q): %v", data, block, err)
			}
			return out
		}

		for _, exists := range []bool{true, false} {
			data := content
			if !exists {
				data = nil
			}
			back := func(step string, file []byte) {
				t.Helper()
				out, remove, found, err := workspace.Uninstalled(file, tg)
				switch {
				case err != nil:
					t.Fatalf("%s (exists %v): Uninstalled(%q): %v", step, exists, file, err)
				case !found:
					t.Fatalf("%s (exists %v): Uninstalled(%q) found no block", step, exists, file)
				case remove != !exists:
					t.Fatalf("%s (exists %v): Uninstalled(%q): remove %v", step, exists, file, remove)
				case exists && !bytes.Equal(out, content):
					t.Fatalf("%s: Uninstalled(%q) = %q, want %q", step, file, out, content)
				}
			}
			once := install(data, exists, blockA)
			back("install A", once)
			if sp, err := workspace.Find(once, tg); err != nil || !sp.Found || !bytes.Equal(once[sp.Start:sp.End], blockA) {
				t.Fatalf("install A into %q: Find(%q) = %+v, %v", data, once, sp, err)
			}
			if twice := install(once, true, blockA); !bytes.Equal(twice, once) {
				t.Fatalf("installing A twice into %q: %q, then %q", data, once, twice)
			}
			ab := install(once, true, blockB)
			back("install A, then B", ab)
			if !exists && !bytes.Equal(ab, blockB) {
				t.Fatalf("install A then B into no file: %q, want the block of B alone", ab)
			}
			if aba := install(ab, true, blockA); !bytes.Equal(aba, once) {
				t.Fatalf("install A, B, A into %q: %q, want %q", data, aba, once)
			}
		}

		// The same through the directory, with the file existing.
		dir := t.TempDir()
		name := filepath.Join(dir, "CLAUDE.md")
		if err := os.WriteFile(name, content, 0o644); err != nil {
			t.Fatal(err)
		}
		want := install(content, true, blockA)
		for _, step := range []struct {
			runbook string
			action  workspace.Action
			file    []byte
		}{
			{rbA, workspace.Appended, want},
			{rbA, workspace.Current, want},
			{rbB, workspace.Replaced, install(content, true, blockB)},
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

// model is the rule of docs/workspaces.md written the slow, plain way, for FuzzFind to hold Find to: the file as
// a list of line strings, each fence's close searched for from scratch. It returns the span, or the line of the
// refused begin marker (and of the first block's, for a second block).
func model(data []byte, b, e string) (sp workspace.Span, refused, first int) {
	lines := strings.SplitAfter(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	n := len(lines)
	starts := make([]int, n+1)
	for k, l := range lines {
		starts[k+1] = starts[k] + len(l)
	}
	raw := func(k int) string { return strings.TrimSuffix(lines[k], "\n") }
	is := func(k int, m string) bool { return raw(k) == m || raw(k) == m+"\r" }
	isB := func(k int) bool { return is(k, b) }
	isE := func(k int) bool { return is(k, e) }
	// fenceOf returns a fence line's character and run, and whether it opens and closes.
	fenceOf := func(k int) (c byte, run int, opens, closes bool) {
		if isB(k) || isE(k) {
			return 0, 0, false, false
		}
		l := strings.TrimSuffix(raw(k), "\r")
		ind := len(l) - len(strings.TrimLeft(l, " "))
		if ind > 3 || ind == len(l) || l[ind] != '`' && l[ind] != '~' {
			return 0, 0, false, false
		}
		c = l[ind]
		rest := strings.TrimLeft(l[ind:], string(c))
		run = len(l) - ind - len(rest)
		if run < 3 {
			return 0, 0, false, false
		}
		return c, run, c == '~' || !strings.Contains(rest, "`"), strings.Trim(rest, " \t") == ""
	}
	inBlock := make([]bool, n)
	for i := range n {
		if !isB(i) {
			continue
		}
		for j := i + 1; j < n; j++ {
			if isB(j) {
				break
			}
			if isE(j) {
				for k := i + 1; k < j; k++ {
					inBlock[k] = true
				}
				break
			}
		}
	}
	hidden := make([]bool, n)
	for k := 0; k < n; k++ {
		c, run, opens, _ := fenceOf(k)
		if !opens || inBlock[k] {
			continue
		}
		for j := k + 1; j < n; j++ {
			c2, run2, _, closes := fenceOf(j)
			if closes && !inBlock[j] && c2 == c && run2 >= run {
				for h := k + 1; h < j; h++ {
					hidden[h] = true
				}
				k = j
				break
			}
		}
	}
	bl := -1
	for k := range n {
		if hidden[k] {
			continue
		}
		if bl < 0 && isB(k) {
			bl = k
		} else if bl >= 0 && isE(k) {
			for j := k + 1; j < n; j++ {
				if isB(j) && !hidden[j] {
					return workspace.Span{}, j + 1, bl + 1
				}
			}
			return workspace.Span{Start: starts[bl], End: starts[k+1], Found: true}, 0, 0
		}
	}
	if bl >= 0 {
		return workspace.Span{}, bl + 1, 0
	}
	return workspace.Span{}, 0, 0
}

// FuzzFind: for any bytes and any pair of markers a project may declare, Find says what model says (the span, or
// the line it refuses), the span starts and ends at line boundaries, and Uninstalled takes out exactly that span
// (and the "\n\n" before it).
func FuzzFind(f *testing.F) {
	for _, s := range states {
		f.Add([]byte(s.data), begin, end)
	}
	f.Add([]byte("# >>> a\nA.\n# <<< a\n"), "# >>> a", "# <<< a")
	f.Add([]byte("[b]x[/b]\n[b]y[/b]"), "[b]", "[/b]")
	f.Add([]byte("aaaa"), "aa", "ab")
	f.Add([]byte("```\n~~~\n```\n[b]\n~~~\n[/b]\n````"), "[b]", "[/b]")
	f.Add([]byte("~~~ b\nx\n~~~ e\n"), "~~~ b", "~~~ e")

	f.Fuzz(func(t *testing.T, data []byte, b, e string) {
		// The markers a project may declare (blocks' manifest checks): single lines, different, neither
		// inside the other.
		if b == "" || e == "" || strings.Contains(b, e) || strings.Contains(e, b) || strings.ContainsRune(b+e, '\n') {
			return
		}
		tg := &blocks.Target{Name: "f", File: "CLAUDE.md", Begin: b, End: e}
		sp, err := workspace.Find(data, tg)
		wantSp, refused, first := model(data, b, e)
		var me *workspace.MarkerError
		switch {
		case refused > 0:
			if !errors.As(err, &me) || me.Line != refused || me.First != first || sp != (workspace.Span{}) {
				t.Fatalf("Find(%q) = %+v, %v; want a refusal at line %d (first %d)", data, sp, err, refused, first)
			}
			if me.Byte < 0 || me.Byte > len(data) || (me.Byte > 0 && data[me.Byte-1] != '\n') || !bytes.HasPrefix(data[me.Byte:], []byte(b)) {
				t.Fatalf("Find(%q): refusal at byte %d, not the start of a begin-marker line", data, me.Byte)
			}
			if _, _, _, err := workspace.Uninstalled(data, tg); err == nil {
				t.Fatalf("Uninstalled(%q): no error, Find refuses", data)
			}
			return
		case err != nil || sp != wantSp:
			t.Fatalf("Find(%q) = %+v, %v; want %+v", data, sp, err, wantSp)
		}
		out, remove, found, err := workspace.Uninstalled(data, tg)
		if !sp.Found {
			if err != nil || found || remove || !bytes.Equal(out, data) {
				t.Fatalf("Uninstalled(%q) with no block: %q, remove %v, found %v, %v", data, out, remove, found, err)
			}
			return
		}
		if (sp.Start > 0 && data[sp.Start-1] != '\n') || (sp.End < len(data) && data[sp.End-1] != '\n') {
			t.Fatalf("Find(%q) = %+v: not whole lines", data, sp)
		}
		start := sp.Start
		if start >= 2 && string(data[start-2:start]) == "\n\n" {
			start -= 2
		}
		want := string(data[:start]) + string(data[sp.End:])
		switch {
		case err != nil || !found:
			t.Fatalf("Uninstalled(%q): found no block (%v)", data, err)
		case remove != (sp.Start == 0 && sp.End == len(data)):
			t.Fatalf("Uninstalled(%q): remove %v for span %+v", data, remove, sp)
		case !remove && string(out) != want:
			t.Fatalf("Uninstalled(%q) = %q, want %q", data, out, want)
		}
	})
}
