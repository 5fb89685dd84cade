package workspace_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/testenv"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/workspace"
)

// The tests of this file run Install, Check and Uninstall on real directories. The bytes they expect are written
// out by hand from docs/workspaces.md, as in block_test.go: a file the code writes is compared with the contract, not with what
// Installed computes.

// writeFile creates dir/name (and its directories) holding data.
func writeFile(t *testing.T, dir, name, data string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readFile returns the bytes of dir/name, and false when there is no such file.
func readFile(t *testing.T, dir, name string) (string, bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(data), true
}

// wantFile fails the test unless dir/name holds exactly want.
func wantFile(t *testing.T, dir, name, want string) {
	t.Helper()
	got, ok := readFile(t, dir, name)
	switch {
	case !ok:
		t.Errorf("%s does not exist, want %.200q", name, want)
	case got == want:
	case len(got)+len(want) > 2000:
		// A megabyte of %q helps nobody: say where they part.
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Errorf("%s: %d bytes, want %d; they differ from byte %d: %.100q, want %.100q", name, len(got), len(want), i, got[i:], want[i:])
	default:
		t.Errorf("%s =\n%q\nwant\n%q", name, got, want)
	}
}

// wantNoFile fails the test if dir/name exists.
func wantNoFile(t *testing.T, dir, name string) {
	t.Helper()
	if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s exists (%v), want none", name, err)
	}
}

// one takes what Install, Check or Uninstall returned for one target, fails the test unless it succeeded, and
// returns its result: one(t, "Install")(workspace.Install(dir, runbook, tg)).
func one(t *testing.T, what string) func(workspace.Results, error) workspace.Result {
	return func(res workspace.Results, err error) workspace.Result {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if len(res) != 1 {
			t.Fatalf("%s: %d results, want 1: %v", what, len(res), res)
		}
		return res[0]
	}
}

// tree describes every entry under dir (kind, mode, bytes or link), so that a test can check that an operation
// that must write nothing left the directory exactly as it was.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		desc := fi.Mode().String()
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			to, err := os.Readlink(p)
			if err != nil {
				return err
			}
			desc += " -> " + to
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += fmt.Sprintf(" %q", data)
		}
		m[rel] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// wantTree fails the test unless dir holds what before described.
func wantTree(t *testing.T, what, dir string, before map[string]string) {
	t.Helper()
	after := tree(t, dir)
	for p, d := range before {
		if after[p] != d {
			t.Errorf("%s changed %s: %s, was %s", what, p, after[p], d)
		}
	}
	for p, d := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s created %s: %s", what, p, d)
		}
	}
}

// symlink makes a symbolic link, or skips the test where the system or the user cannot.
func symlink(t *testing.T, to, name string) {
	t.Helper()
	if err := os.Symlink(to, name); err != nil {
		testenv.Absent(t, "cannot make symbolic links here: %v", err)
	}
}

// stamp sets the modification time of dir/name to a time long past and returns the file's information, so that a
// later rewrite shows as a new time (and, being atomic, as a new file).
func stamp(t *testing.T, dir, name string) os.FileInfo {
	t.Helper()
	p := filepath.Join(dir, name)
	past := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := os.Chtimes(p, past, past); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

// wantSameFile fails the test unless dir/name is still the file before was, not rewritten.
func wantSameFile(t *testing.T, what, dir, name string, before os.FileInfo) {
	t.Helper()
	fi, err := os.Stat(filepath.Join(dir, name))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !os.SameFile(before, fi) || !fi.ModTime().Equal(before.ModTime()) {
		t.Errorf("%s rewrote %s (same file %v, time %v, was %v)", what, name, os.SameFile(before, fi), fi.ModTime(), before.ModTime())
	}
}

// TestDirStates runs Check, Install and Uninstall on disk over every file state of block_test.go, and expects the
// bytes written there by hand, the action each must report, the file's absence where the rules remove it, and, for
// a refused file, a diagnostic at its begin marker's line with the file left exactly as it was.
func TestDirStates(t *testing.T) {
	tg := target()
	for _, s := range states {
		t.Run(s.name, func(t *testing.T) {
			dir := t.TempDir()
			if s.exists {
				writeFile(t, dir, "CLAUDE.md", s.data)
			}
			if s.refused > 0 {
				before := tree(t, dir)
				info := stamp(t, dir, "CLAUDE.md")
				want := fmt.Sprintf("%s:%d:1: ", filepath.Join(dir, "CLAUDE.md"), s.refused)
				for _, op := range []struct {
					name string
					run  func() (workspace.Results, error)
				}{
					{"Check", func() (workspace.Results, error) { return workspace.Check(dir, runbook, tg) }},
					{"Install", func() (workspace.Results, error) { return workspace.Install(dir, runbook, tg) }},
					{"Uninstall", func() (workspace.Results, error) { return workspace.Uninstall(dir, tg) }},
				} {
					res, err := op.run()
					if err == nil || len(res) != 0 || !strings.HasPrefix(err.Error(), want) {
						t.Errorf("%s: %v, %v; want a refusal at %s", op.name, res, err, want)
					}
					wantTree(t, op.name, dir, before)
					wantSameFile(t, op.name, dir, "CLAUDE.md", info)
				}
				return
			}
			want := workspace.Appended
			switch {
			case !s.exists:
				want = workspace.Created
			case s.span.Found && s.data[s.span.Start:s.span.End] == blk:
				want = workspace.Current
			case s.span.Found:
				want = workspace.Replaced
			}

			checked := one(t, "Check")(workspace.Check(dir, runbook, tg))
			r := one(t, "Install")(workspace.Install(dir, runbook, tg))
			if r.Action != want {
				t.Errorf("Install: action %v, want %v", r.Action, want)
			}
			if checked.Action != r.Action {
				t.Errorf("Check said %v, Install did %v", checked.Action, r.Action)
			}
			wantFile(t, dir, "CLAUDE.md", s.installed)

			// Back to the state, then uninstall from it.
			if s.exists {
				writeFile(t, dir, "CLAUDE.md", s.data)
			} else if err := os.Remove(filepath.Join(dir, "CLAUDE.md")); err != nil {
				t.Fatal(err)
			}
			u := one(t, "Uninstall")(workspace.Uninstall(dir, tg))
			switch {
			case !s.span.Found:
				if u.Action != workspace.Absent {
					t.Errorf("Uninstall: %v, want absent", u.Action)
				}
			case s.removed:
				if u.Action != workspace.Deleted {
					t.Errorf("Uninstall: %v, want deleted", u.Action)
				}
			default:
				if u.Action != workspace.Removed {
					t.Errorf("Uninstall: %v, want removed", u.Action)
				}
			}
			if s.removed || !s.exists {
				wantNoFile(t, dir, "CLAUDE.md")
			} else {
				wantFile(t, dir, "CLAUDE.md", s.uninstalled)
			}
		})
	}
}

// TestInstallActions walks one file through every action, each step's bytes written out from docs/workspaces.md.
func TestInstallActions(t *testing.T) {
	tg := target()
	dir := t.TempDir()
	step := func(what string, res workspace.Results, err error, action workspace.Action, want string, exists bool) {
		t.Helper()
		r := one(t, what)(res, err)
		if r.Action != action {
			t.Errorf("%s: %v, want %v", what, r.Action, action)
		}
		if exists {
			wantFile(t, dir, "CLAUDE.md", want)
		} else {
			wantNoFile(t, dir, "CLAUDE.md")
		}
	}

	res, err := workspace.Uninstall(dir, tg)
	step("uninstall, no file", res, err, workspace.Absent, "", false)
	res, err = workspace.Install(dir, runbook, tg)
	step("install into no file", res, err, workspace.Created, "<!-- BEGIN T -->\nRules.\n<!-- END T -->\n", true)
	res, err = workspace.Install(dir, runbook, tg)
	step("install again", res, err, workspace.Current, "<!-- BEGIN T -->\nRules.\n<!-- END T -->\n", true)
	res, err = workspace.Install(dir, runbook2, tg)
	step("install another runbook", res, err, workspace.Replaced, "<!-- BEGIN T -->\nOther rules.\nTwo lines.\n<!-- END T -->\n", true)
	res, err = workspace.Uninstall(dir, tg)
	step("uninstall the created file", res, err, workspace.Deleted, "", false)

	writeFile(t, dir, "CLAUDE.md", "# Notes\nBe brief.\n")
	res, err = workspace.Uninstall(dir, tg)
	step("uninstall, no block", res, err, workspace.Absent, "# Notes\nBe brief.\n", true)
	res, err = workspace.Install(dir, runbook, tg)
	step("install into a user's file", res, err, workspace.Appended, "# Notes\nBe brief.\n\n\n<!-- BEGIN T -->\nRules.\n<!-- END T -->\n", true)

	// The user edits above and below the block; the block is replaced where it is, and uninstall keeps the edits.
	writeFile(t, dir, "CLAUDE.md", "# Notes\nBe kind.\n\n\n<!-- BEGIN T -->\nRules.\n<!-- END T -->\nP.S.\n")
	res, err = workspace.Install(dir, runbook2, tg)
	step("install after edits", res, err, workspace.Replaced, "# Notes\nBe kind.\n\n\n<!-- BEGIN T -->\nOther rules.\nTwo lines.\n<!-- END T -->\nP.S.\n", true)
	res, err = workspace.Uninstall(dir, tg)
	step("uninstall after edits", res, err, workspace.Removed, "# Notes\nBe kind.\nP.S.\n", true)
	res, err = workspace.Uninstall(dir, tg)
	step("uninstall again", res, err, workspace.Absent, "# Notes\nBe kind.\nP.S.\n", true)
}

// TestInstallCurrentWritesNothing: installing the runbook a file already holds, and every other operation that
// changes nothing, leaves the very file alone: an atomic rewrite would show as a new file and a new time.
func TestInstallCurrentWritesNothing(t *testing.T) {
	tg := target()
	dir := t.TempDir()
	writeFile(t, dir, "CLAUDE.md", "# Notes\n")
	one(t, "Install")(workspace.Install(dir, runbook, tg))

	before := stamp(t, dir, "CLAUDE.md")
	if r := one(t, "Install again")(workspace.Install(dir, runbook, tg)); r.Action != workspace.Current || r.Changed() {
		t.Errorf("Install again: %v (changed %v), want current", r.Action, r.Changed())
	}
	wantSameFile(t, "Install of the same runbook", dir, "CLAUDE.md", before)
	if r := one(t, "Check")(workspace.Check(dir, runbook, tg)); r.Action != workspace.Current || r.Line != 0 {
		t.Errorf("Check: %v at line %d, want current at 0", r.Action, r.Line)
	}
	wantSameFile(t, "Check", dir, "CLAUDE.md", before)

	// A runbook without its final newline makes the same block (Bytes adds it): still current.
	if r := one(t, "Install without final newline")(workspace.Install(dir, "Rules.", tg)); r.Action != workspace.Current {
		t.Errorf("Install of %q: %v, want current", "Rules.", r.Action)
	}
	wantSameFile(t, "Install of the runbook without its final newline", dir, "CLAUDE.md", before)

	// Uninstall of another target, whose block the file does not hold.
	other := &blocks.Target{Name: "other", File: "CLAUDE.md", Begin: "<!-- BEGIN U -->", End: "<!-- END U -->"}
	if r := one(t, "Uninstall other")(workspace.Uninstall(dir, other)); r.Action != workspace.Absent || r.Changed() {
		t.Errorf("Uninstall of a target with no block: %v, want absent", r.Action)
	}
	wantSameFile(t, "Uninstall of a target with no block", dir, "CLAUDE.md", before)

	// And a change does rewrite it, so the checks above can see one.
	one(t, "Install another")(workspace.Install(dir, runbook2, tg))
	fi, _ := os.Stat(filepath.Join(dir, "CLAUDE.md"))
	if os.SameFile(before, fi) || fi.ModTime().Equal(before.ModTime()) {
		t.Errorf("Install of another runbook: the file was not replaced (same file %v, time %v)", os.SameFile(before, fi), fi.ModTime())
	}
}

// TestInstallSymlink: a context file that is a symbolic link (a repository that keeps CLAUDE.md as a link to its
// notes) is written through, and the link stays a link.
func TestInstallSymlink(t *testing.T) {
	tg := target()
	dir := t.TempDir()
	link := filepath.Join(dir, "CLAUDE.md")
	notes := filepath.Join(dir, "real", "notes.md")
	writeFile(t, dir, "real/notes.md", "# Notes\n")
	symlink(t, filepath.Join("real", "notes.md"), link)

	wantLink := func(what string) {
		t.Helper()
		fi, err := os.Lstat(link)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("%s: CLAUDE.md is no longer a symbolic link (%v, %v)", what, fi, err)
		}
		if to, _ := os.Readlink(link); to != filepath.Join("real", "notes.md") {
			t.Errorf("%s: the link leads to %s now", what, to)
		}
	}

	r := one(t, "Install")(workspace.Install(dir, runbook, tg))
	if r.Action != workspace.Appended || r.Path != link || r.Link != notes {
		t.Errorf("Install: %v, path %s, link %s; want appended, %s, %s", r.Action, r.Path, r.Link, link, notes)
	}
	wantLink("Install")
	wantFile(t, dir, "real/notes.md", "# Notes\n\n\n"+blk)
	if r := one(t, "Check")(workspace.Check(dir, runbook, tg)); r.Action != workspace.Current || r.Link != notes {
		t.Errorf("Check: %v, link %s; want current, %s", r.Action, r.Link, notes)
	}

	r = one(t, "Uninstall")(workspace.Uninstall(dir, tg))
	if r.Action != workspace.Removed || r.Link != notes {
		t.Errorf("Uninstall: %v, link %s; want removed, %s", r.Action, r.Link, notes)
	}
	wantLink("Uninstall")
	wantFile(t, dir, "real/notes.md", "# Notes\n")

	// An absolute link, and a chain of two links: the file at the end of the chain is the one written.
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(dir, "AGENTS.md"), link)
	symlink(t, notes, filepath.Join(dir, "AGENTS.md"))
	r = one(t, "Install through two links")(workspace.Install(dir, runbook2, tg))
	if r.Action != workspace.Appended || r.Link != notes {
		t.Errorf("Install through two links: %v, link %s; want appended, %s", r.Action, r.Link, notes)
	}
	wantFile(t, dir, "real/notes.md", "# Notes\n\n\n"+blk2)
	for _, name := range []string{"CLAUDE.md", "AGENTS.md"} {
		if fi, err := os.Lstat(filepath.Join(dir, name)); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link", name)
		}
	}
}

// TestInstallDanglingSymlink: a link to a file that does not exist yet gets the file created where it points (the
// link is how the repository says where its notes live), and uninstall deletes that file, not the link.
func TestInstallDanglingSymlink(t *testing.T) {
	tg := target()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "CLAUDE.md")
	notes := filepath.Join(dir, "real", "notes.md")
	symlink(t, filepath.Join("real", "notes.md"), link)

	if r := one(t, "Check")(workspace.Check(dir, runbook, tg)); r.Action != workspace.Created || r.Line != 1 || r.Link != notes {
		t.Errorf("Check: %v at line %d, link %s; want created at 1, %s", r.Action, r.Line, r.Link, notes)
	}
	wantNoFile(t, dir, "real/notes.md")
	r := one(t, "Install")(workspace.Install(dir, runbook, tg))
	if r.Action != workspace.Created || r.Link != notes || len(r.Dirs) != 0 {
		t.Errorf("Install: %v, link %s, dirs %q; want created, %s, none", r.Action, r.Link, r.Dirs, notes)
	}
	wantFile(t, dir, "real/notes.md", blk)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("CLAUDE.md is no longer a symbolic link (%v)", err)
	}

	r = one(t, "Uninstall")(workspace.Uninstall(dir, tg))
	if r.Action != workspace.Deleted || r.Link != notes || len(r.Dirs) != 0 {
		t.Errorf("Uninstall: %v, link %s, dirs %q; want deleted, %s, none", r.Action, r.Link, r.Dirs, notes)
	}
	wantNoFile(t, dir, "real/notes.md")
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Uninstall removed the link itself (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "real")); err != nil {
		t.Errorf("Uninstall removed the directory the link leads into: %v", err)
	}
}

// TestInstallSymlinkErrors: a link whose file cannot be written (a cycle, a directory that does not exist) is an
// error that writes nothing; install does not make directories for a link.
func TestInstallSymlinkErrors(t *testing.T) {
	tg := target()
	for _, tt := range []struct {
		name  string
		links [][2]string // name, target
		want  string
	}{
		{"loop of two", [][2]string{{"CLAUDE.md", "AGENTS.md"}, {"AGENTS.md", "CLAUDE.md"}}, "too many symbolic links"},
		{"loop of one", [][2]string{{"CLAUDE.md", "CLAUDE.md"}}, "too many symbolic links"},
		{"directory missing", [][2]string{{"CLAUDE.md", "missing/notes.md"}}, "whose directory cannot be used"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, l := range tt.links {
				symlink(t, filepath.FromSlash(l[1]), filepath.Join(dir, l[0]))
			}
			before := tree(t, dir)
			res, err := workspace.Install(dir, runbook, tg)
			if err == nil || !strings.Contains(err.Error(), tt.want) || len(res) != 0 {
				t.Errorf("Install: %v, %v; want an error saying %q", res, err, tt.want)
			}
			wantTree(t, "Install", dir, before)
			if strings.HasPrefix(tt.name, "loop") {
				if _, err := workspace.Check(dir, runbook, tg); err == nil {
					t.Error("Check: no error")
				}
				if _, err := workspace.Uninstall(dir, tg); err == nil {
					t.Error("Uninstall: no error")
				}
				wantTree(t, "Check and Uninstall", dir, before)
			}
		})
	}
}

// TestCheckSymlinkMissingDir: Check is Install without writing, so a link Install refuses (its file's directory
// does not exist, and install makes no directories for a link) is refused by Check too, and not reported as a file
// Install would create.
func TestCheckSymlinkMissingDir(t *testing.T) {
	tg := target()
	dir := t.TempDir()
	symlink(t, filepath.Join("missing", "notes.md"), filepath.Join(dir, "CLAUDE.md"))
	if _, err := workspace.Install(dir, runbook, tg); err == nil {
		t.Fatal("Install through a link into a missing directory: no error")
	}
	if res, err := workspace.Check(dir, runbook, tg); err == nil {
		t.Errorf("Check through a link into a missing directory: %v, no error; Install fails there", res)
	}
}

// TestInstallSubdir: a target's file in directories of its own (.github/copilot-instructions.md) gets them created,
// top first, and uninstall removes them with the file once they are empty, but never a directory that holds more.
func TestInstallSubdir(t *testing.T) {
	copilot := &blocks.Target{Name: "copilot", File: ".github/copilot-instructions.md", Begin: begin, End: end}
	deep := &blocks.Target{Name: "deep", File: "a/b/c.md", Begin: begin, End: end}

	t.Run("one level", func(t *testing.T) {
		dir := t.TempDir()
		gh := filepath.Join(dir, ".github")
		if r := one(t, "Check")(workspace.Check(dir, runbook, copilot)); r.Action != workspace.Created || r.Line != 1 {
			t.Errorf("Check: %v at line %d, want created at line 1", r.Action, r.Line)
		}
		wantNoFile(t, dir, ".github")
		r := one(t, "Install")(workspace.Install(dir, runbook, copilot))
		if r.Action != workspace.Created || r.Path != filepath.Join(gh, "copilot-instructions.md") || !slices.Equal(r.Dirs, []string{gh}) {
			t.Errorf("Install: %v, path %s, dirs %q; want created, dirs [%s]", r.Action, r.Path, r.Dirs, gh)
		}
		wantFile(t, dir, ".github/copilot-instructions.md", blk)
		r = one(t, "Uninstall")(workspace.Uninstall(dir, copilot))
		if r.Action != workspace.Deleted || !slices.Equal(r.Dirs, []string{gh}) {
			t.Errorf("Uninstall: %v, dirs %q; want deleted, dirs [%s]", r.Action, r.Dirs, gh)
		}
		wantNoFile(t, dir, ".github")
	})

	t.Run("two levels", func(t *testing.T) {
		dir := t.TempDir()
		a, ab := filepath.Join(dir, "a"), filepath.Join(dir, "a", "b")
		r := one(t, "Install")(workspace.Install(dir, runbook, deep))
		if r.Action != workspace.Created || !slices.Equal(r.Dirs, []string{a, ab}) {
			t.Errorf("Install: %v, dirs %q; want created, dirs [%s %s]", r.Action, r.Dirs, a, ab)
		}
		wantFile(t, dir, "a/b/c.md", blk)
		r = one(t, "Uninstall")(workspace.Uninstall(dir, deep))
		if r.Action != workspace.Deleted || !slices.Equal(r.Dirs, []string{a, ab}) {
			t.Errorf("Uninstall: %v, dirs %q; want deleted, dirs [%s %s]", r.Action, r.Dirs, a, ab)
		}
		wantNoFile(t, dir, "a")
	})

	t.Run("directory there already, holding more", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, dir, ".github/workflows/ci.yml", "on: push\n")
		r := one(t, "Install")(workspace.Install(dir, runbook, copilot))
		if r.Action != workspace.Created || len(r.Dirs) != 0 {
			t.Errorf("Install: %v, dirs %q; want created, no dirs", r.Action, r.Dirs)
		}
		r = one(t, "Uninstall")(workspace.Uninstall(dir, copilot))
		if r.Action != workspace.Deleted || len(r.Dirs) != 0 {
			t.Errorf("Uninstall: %v, dirs %q; want deleted, no dirs", r.Action, r.Dirs)
		}
		wantNoFile(t, dir, ".github/copilot-instructions.md")
		wantFile(t, dir, ".github/workflows/ci.yml", "on: push\n")
	})

	t.Run("top directory there already", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, dir, "a/notes.md", "mine\n")
		ab := filepath.Join(dir, "a", "b")
		r := one(t, "Install")(workspace.Install(dir, runbook, deep))
		if !slices.Equal(r.Dirs, []string{ab}) {
			t.Errorf("Install: dirs %q, want [%s]", r.Dirs, ab)
		}
		r = one(t, "Uninstall")(workspace.Uninstall(dir, deep))
		if r.Action != workspace.Deleted || !slices.Equal(r.Dirs, []string{ab}) {
			t.Errorf("Uninstall: %v, dirs %q; want deleted, [%s]", r.Action, r.Dirs, ab)
		}
		wantNoFile(t, dir, "a/b")
		wantFile(t, dir, "a/notes.md", "mine\n")
	})

	t.Run("uninstall with no directory", func(t *testing.T) {
		dir := t.TempDir()
		if r := one(t, "Uninstall")(workspace.Uninstall(dir, deep)); r.Action != workspace.Absent {
			t.Errorf("Uninstall: %v, want absent", r.Action)
		}
		wantNoFile(t, dir, "a")
	})

	t.Run("a file where a directory must be", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, dir, ".github", "not a directory\n")
		before := tree(t, dir)
		if res, err := workspace.Install(dir, runbook, copilot); err == nil {
			t.Errorf("Install: %v, no error", res)
		}
		wantTree(t, "Install", dir, before)
	})
}

// TestInstallRelativeDir: the directory may be given as a relative path, "." above all (promptc install --dir .),
// and the target's directories are created and removed as with an absolute one.
func TestInstallRelativeDir(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, tt := range []struct {
		file string
		dirs []string
	}{
		{"x/CLAUDE.md", []string{"x"}},
		{".github/copilot-instructions.md", []string{".github"}},
		{"a/b/c.md", []string{"a", filepath.Join("a", "b")}},
	} {
		tg := &blocks.Target{Name: "t", File: tt.file, Begin: begin, End: end}
		for _, d := range []string{".", "./"} {
			res, err := workspace.Install(d, runbook, tg)
			if err != nil {
				t.Errorf("Install(%q) of %s: %v", d, tt.file, err)
				continue
			}
			if r := res[0]; r.Action != workspace.Created || !slices.Equal(r.Dirs, tt.dirs) {
				t.Errorf("Install(%q) of %s: %v, dirs %q; want created, dirs %q", d, tt.file, r.Action, r.Dirs, tt.dirs)
			}
			wantFile(t, dir, tt.file, blk)
			res, err = workspace.Uninstall(d, tg)
			if err != nil {
				t.Errorf("Uninstall(%q) of %s: %v", d, tt.file, err)
				continue
			}
			if r := res[0]; r.Action != workspace.Deleted || !slices.Equal(r.Dirs, tt.dirs) {
				t.Errorf("Uninstall(%q) of %s: %v, dirs %q; want deleted, dirs %q", d, tt.file, r.Action, r.Dirs, tt.dirs)
			}
			wantNoFile(t, dir, tt.dirs[0])
		}
	}
	// The empty path names no directory, as for os.Stat.
	if _, err := workspace.Install("", runbook, target()); err == nil {
		t.Error(`Install(""): no error`)
	}
}

// TestInstallBadDir: the directory installed into must exist and be one; nothing is created otherwise, not even the
// directory.
func TestInstallBadDir(t *testing.T) {
	tg := target()
	copilot := &blocks.Target{Name: "copilot", File: ".github/copilot-instructions.md", Begin: begin, End: end}
	root := t.TempDir()
	writeFile(t, root, "file", "x\n")
	for _, tt := range []struct {
		dir, want string
	}{
		{filepath.Join(root, "missing"), "no such directory"},
		{filepath.Join(root, "missing", "deeper"), "no such directory"},
		{filepath.Join(root, "file"), "is not a directory"},
	} {
		before := tree(t, root)
		for name, op := range map[string]func() (workspace.Results, error){
			"Install":   func() (workspace.Results, error) { return workspace.Install(tt.dir, runbook, tg, copilot) },
			"Check":     func() (workspace.Results, error) { return workspace.Check(tt.dir, runbook, tg, copilot) },
			"Uninstall": func() (workspace.Results, error) { return workspace.Uninstall(tt.dir, tg, copilot) },
		} {
			res, err := op()
			if err == nil || !strings.Contains(err.Error(), tt.dir+":") || !strings.Contains(err.Error(), tt.want) || len(res) != 0 {
				t.Errorf("%s(%s): %v, %v; want an error naming the directory and saying %q", name, tt.dir, res, err, tt.want)
			}
		}
		wantTree(t, "Install, Check and Uninstall into "+tt.dir, root, before)
	}
}

// TestInstallNotRegular: a context file that is a directory is refused and left as it is (the other kinds, a named
// pipe above all, are in dir_unix_test.go).
func TestInstallNotRegular(t *testing.T) {
	tg := target()
	dir := t.TempDir()
	writeFile(t, dir, "CLAUDE.md/inside.md", "x\n")
	before := tree(t, dir)
	for name, op := range map[string]func() (workspace.Results, error){
		"Install":   func() (workspace.Results, error) { return workspace.Install(dir, runbook, tg) },
		"Check":     func() (workspace.Results, error) { return workspace.Check(dir, runbook, tg) },
		"Uninstall": func() (workspace.Results, error) { return workspace.Uninstall(dir, tg) },
	} {
		if _, err := op(); err == nil || !strings.Contains(err.Error(), "is not a regular file (a directory)") {
			t.Errorf("%s: %v, want an error saying it is a directory", name, err)
		}
	}
	wantTree(t, "Install, Check and Uninstall", dir, before)
}

// TestInstallInvalidUTF8: a file that is not UTF-8 is refused, naming the line and column of the bad byte, and left
// byte for byte as it is.
func TestInstallInvalidUTF8(t *testing.T) {
	tg := target()
	dir := t.TempDir()
	data := "# Notes\nBé\xff\n\n" + old
	writeFile(t, dir, "CLAUDE.md", data)
	before := tree(t, dir)
	// Line 2, column 3: columns count runes, and é is one.
	want := filepath.Join(dir, "CLAUDE.md") + ":2:3: invalid UTF-8 (byte 0xff)"
	for name, op := range map[string]func() (workspace.Results, error){
		"Install":   func() (workspace.Results, error) { return workspace.Install(dir, runbook, tg) },
		"Check":     func() (workspace.Results, error) { return workspace.Check(dir, runbook, tg) },
		"Uninstall": func() (workspace.Results, error) { return workspace.Uninstall(dir, tg) },
	} {
		res, err := op()
		var ds source.Diagnostics
		if !errors.As(err, &ds) || len(ds) != 1 || !strings.HasPrefix(ds[0].String(), want) || len(res) != 0 {
			t.Errorf("%s: %v, %v; want one diagnostic starting %q", name, res, err, want)
		}
	}
	wantTree(t, "Install, Check and Uninstall", dir, before)
}

// TestInstallSizeLimit: a file of MaxFileBytes is read; one byte more is refused and left as it is.
func TestInstallSizeLimit(t *testing.T) {
	tg := target()
	dir := t.TempDir()
	// A file of exactly the limit, ending in an old block: Check, Uninstall and Install read it, and Install
	// replaces the block (with one of the same size, so that the file stays within the limit).
	const same = "New.\n" // as long as old's "Old.\n"
	at := strings.Repeat("x", workspace.MaxFileBytes-len("\n\n"+old)) + "\n\n" + old
	writeFile(t, dir, "CLAUDE.md", at)
	if r := one(t, "Check at the limit")(workspace.Check(dir, same, tg)); r.Action != workspace.Replaced {
		t.Errorf("Check of a file of MaxFileBytes: %v, want replaced", r.Action)
	}
	// Another target, with no block in the file: Uninstall reads it all and writes nothing (each 8 MiB write is
	// synced, which a busy disk makes slow).
	u := &blocks.Target{Name: "u", File: "CLAUDE.md", Begin: "<!-- BEGIN U -->", End: "<!-- END U -->"}
	if r := one(t, "Uninstall at the limit")(workspace.Uninstall(dir, u)); r.Action != workspace.Absent {
		t.Errorf("Uninstall of a file of MaxFileBytes: %v, want absent", r.Action)
	}
	if r := one(t, "Install at the limit")(workspace.Install(dir, same, tg)); r.Action != workspace.Replaced {
		t.Errorf("Install into a file of MaxFileBytes: %v, want replaced", r.Action)
	}
	wantTail(t, dir, "CLAUDE.md", workspace.MaxFileBytes, "x\n\n<!-- BEGIN T -->\nNew.\n<!-- END T -->\n")

	over := "y" + at
	writeFile(t, dir, "CLAUDE.md", over)
	before := stamp(t, dir, "CLAUDE.md")
	for name, op := range map[string]func() (workspace.Results, error){
		"Install":   func() (workspace.Results, error) { return workspace.Install(dir, runbook, tg) },
		"Check":     func() (workspace.Results, error) { return workspace.Check(dir, runbook, tg) },
		"Uninstall": func() (workspace.Results, error) { return workspace.Uninstall(dir, tg) },
	} {
		if _, err := op(); err == nil || !strings.Contains(err.Error(), "context file too large") {
			t.Errorf("%s of a file of MaxFileBytes+1: %v, want too large", name, err)
		}
		wantSameFile(t, name, dir, "CLAUDE.md", before)
	}
	wantTail(t, dir, "CLAUDE.md", workspace.MaxFileBytes+1, "x\n\n"+old)
}

// wantTail fails the test unless dir/name is size bytes long and ends with tail. It reads only the tail: the race
// detector makes every pass over 8 MiB slow.
func wantTail(t *testing.T, dir, name string, size int, tail string) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, len(tail))
	if _, err := f.ReadAt(buf, fi.Size()-int64(len(tail))); err != nil || fi.Size() != int64(size) || string(buf) != tail {
		t.Errorf("%s: %d bytes ending %q (%v), want %d ending %q", name, fi.Size(), buf, err, size, tail)
	}
}

// TestInstallNearSizeLimitRoundTrip: whatever Install writes, Uninstall can read back. Install may refuse a file
// the block would take over MaxFileBytes (leaving it as it is), or accept it; it must not write a file that every
// later Install, Check and Uninstall refuses as too large, leaving the user to cut the block out by hand.
func TestInstallNearSizeLimitRoundTrip(t *testing.T) {
	tg := target()
	dir := t.TempDir()
	data := strings.Repeat("z", workspace.MaxFileBytes-1) + "\n"
	writeFile(t, dir, "CLAUDE.md", data)
	if _, err := workspace.Install(dir, runbook, tg); err != nil {
		if got, _ := readFile(t, dir, "CLAUDE.md"); got != data {
			t.Fatalf("Install refused the file (%v) but changed it", err)
		}
		return
	}
	res, err := workspace.Uninstall(dir, tg)
	if err != nil {
		t.Fatalf("Install wrote a file of %d bytes that Uninstall refuses: %v", workspace.MaxFileBytes+len("\n\n"+blk), err)
	}
	if res[0].Action != workspace.Removed {
		t.Errorf("Uninstall: %v, want removed", res[0].Action)
	}
	if got, _ := readFile(t, dir, "CLAUDE.md"); got != data {
		t.Errorf("install then uninstall did not give back the file (%d bytes, want %d)", len(got), len(data))
	}
}

// TestInstallRunbookNotUTF8: a runbook passed through the Go API that is not UTF-8 must not leave a file Install,
// Check and Uninstall then refuse (they read only UTF-8): either Install refuses the runbook and writes nothing,
// or the block it wrote can be taken out again.
func TestInstallRunbookNotUTF8(t *testing.T) {
	tg := target()
	dir := t.TempDir()
	writeFile(t, dir, "CLAUDE.md", "# Notes\n")
	if _, err := workspace.Install(dir, "R\xffules.\n", tg); err != nil {
		wantFile(t, dir, "CLAUDE.md", "# Notes\n")
		return
	}
	if _, err := workspace.Install(dir, runbook, tg); err != nil {
		t.Errorf("Install of a good runbook over the one that is not UTF-8: %v", err)
	}
	if _, err := workspace.Uninstall(dir, tg); err != nil {
		t.Fatalf("Install wrote a runbook that is not UTF-8, and Uninstall now refuses the file: %v", err)
	}
	wantFile(t, dir, "CLAUDE.md", "# Notes\n")
}

// TestInstallRunbookMarker: a runbook holding one of the target's markers is refused before anything is touched,
// not even the directories the file would need.
func TestInstallRunbookMarker(t *testing.T) {
	deep := &blocks.Target{Name: "deep", File: "docs/agents/CLAUDE.md", Begin: begin, End: end}
	for _, tt := range []struct {
		runbook, want string
	}{
		{"Rules.\n<!-- END T -->\nMore.\n", `the runbook holds the end marker of target "deep" on its line 2`},
		{"<!-- BEGIN T -->\n", `the runbook holds the begin marker of target "deep" on its line 1`},
		{"See <!-- BEGIN T --> and <!-- END T -->.\n", `the runbook holds the begin marker of target "deep" on its line 1`},
	} {
		dir := t.TempDir()
		writeFile(t, dir, "CLAUDE.md", "# Notes\n")
		before := tree(t, dir)
		for _, tg := range []*blocks.Target{deep, target()} {
			for name, op := range map[string]func(string, string, ...*blocks.Target) (workspace.Results, error){
				"Install": workspace.Install, "Check": workspace.Check,
			} {
				res, err := op(dir, tt.runbook, tg)
				want := strings.ReplaceAll(tt.want, `"deep"`, quote(tg.Name))
				if err == nil || !strings.Contains(err.Error(), want) || len(res) != 0 {
					t.Errorf("%s(%q) into %s: %v, %v; want an error saying %q", name, tt.runbook, tg.File, res, err, want)
				}
			}
		}
		wantTree(t, "Install of a runbook holding a marker", dir, before)
	}
}

func quote(s string) string { return `"` + s + `"` }

// TestInstallSeveralTargets: one call installs every target, into several files or several blocks of one file,
// and a target that fails (a file that is not UTF-8) stops none of the others: they are installed and reported,
// and the error names the one that failed.
func TestInstallSeveralTargets(t *testing.T) {
	tg := target()
	codex := &blocks.Target{Name: "codex", File: "AGENTS.md", Begin: begin, End: end}
	u := &blocks.Target{Name: "u", File: "CLAUDE.md", Begin: "<!-- BEGIN U -->", End: "<!-- END U -->"}
	bad := &blocks.Target{Name: "bad", File: "BAD.md", Begin: begin, End: end}
	blkU := "<!-- BEGIN U -->\nRules.\n<!-- END U -->\n"

	t.Run("two files", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, dir, "AGENTS.md", "# Agents\n")
		res, err := workspace.Install(dir, runbook, tg, codex)
		if err != nil || len(res) != 2 || res[0].Action != workspace.Created || res[1].Action != workspace.Appended ||
			res[0].Target != tg || res[1].Target != codex {
			t.Fatalf("Install: %v, %v; want CLAUDE.md created and AGENTS.md appended", res, err)
		}
		wantFile(t, dir, "CLAUDE.md", blk)
		wantFile(t, dir, "AGENTS.md", "# Agents\n\n\n"+blk)
		res, err = workspace.Uninstall(dir, tg, codex)
		if err != nil || len(res) != 2 || res[0].Action != workspace.Deleted || res[1].Action != workspace.Removed {
			t.Fatalf("Uninstall: %v, %v; want CLAUDE.md deleted and AGENTS.md removed", res, err)
		}
		wantNoFile(t, dir, "CLAUDE.md")
		wantFile(t, dir, "AGENTS.md", "# Agents\n")
	})

	t.Run("two blocks in one file", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, dir, "CLAUDE.md", "# Notes\n")
		res, err := workspace.Install(dir, runbook, tg, u)
		if err != nil || len(res) != 2 || res[0].Action != workspace.Appended || res[1].Action != workspace.Appended {
			t.Fatalf("Install: %v, %v; want both appended", res, err)
		}
		wantFile(t, dir, "CLAUDE.md", "# Notes\n\n\n"+blk+"\n\n"+blkU)
		if res, err := workspace.Install(dir, runbook, u, tg); err != nil || res[0].Action != workspace.Current || res[1].Action != workspace.Current {
			t.Errorf("Install again: %v, %v; want both current", res, err)
		}
		res, err = workspace.Uninstall(dir, tg)
		if err != nil || res[0].Action != workspace.Removed {
			t.Fatalf("Uninstall T: %v, %v", res, err)
		}
		wantFile(t, dir, "CLAUDE.md", "# Notes\n\n\n"+blkU)
		res, err = workspace.Uninstall(dir, u)
		if err != nil || res[0].Action != workspace.Removed {
			t.Fatalf("Uninstall U: %v, %v", res, err)
		}
		wantFile(t, dir, "CLAUDE.md", "# Notes\n")
	})

	t.Run("two blocks in a file install created", func(t *testing.T) {
		// Taken out in the order they went in, the second block no longer starts the file when it goes, so by the rules
		// the file stays, empty; taken out in the other order, the file goes with the last block.
		dir := t.TempDir()
		if res, err := workspace.Install(dir, runbook, tg, u); err != nil || res[0].Action != workspace.Created || res[1].Action != workspace.Appended {
			t.Fatalf("Install: %v, %v; want created, appended", res, err)
		}
		wantFile(t, dir, "CLAUDE.md", blk+"\n\n"+blkU)
		if a := one(t, "Uninstall T")(workspace.Uninstall(dir, tg)).Action; a != workspace.Removed {
			t.Errorf("Uninstall T: %v, want removed", a)
		}
		wantFile(t, dir, "CLAUDE.md", "\n\n"+blkU)
		if a := one(t, "Uninstall U")(workspace.Uninstall(dir, u)).Action; a != workspace.Removed {
			t.Errorf("Uninstall U: %v, want removed", a)
		}
		wantFile(t, dir, "CLAUDE.md", "")

		if err := os.Remove(filepath.Join(dir, "CLAUDE.md")); err != nil {
			t.Fatal(err)
		}
		if _, err := workspace.Install(dir, runbook, tg, u); err != nil {
			t.Fatal(err)
		}
		if res, err := workspace.Uninstall(dir, u, tg); err != nil || res[0].Action != workspace.Removed || res[1].Action != workspace.Deleted {
			t.Errorf("Uninstall U, T: %v, %v; want removed, deleted", res, err)
		}
		wantNoFile(t, dir, "CLAUDE.md")
	})

	t.Run("one target fails", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, dir, "BAD.md", "caf\xe9\n")
		res, err := workspace.Install(dir, runbook, tg, bad, codex)
		if len(res) != 2 || res[0].Target != tg || res[0].Action != workspace.Created || res[1].Target != codex || res[1].Action != workspace.Created {
			t.Errorf("Install: results %v; want CLAUDE.md and AGENTS.md created", res)
		}
		var ds source.Diagnostics
		want := filepath.Join(dir, "BAD.md") + ":1:4: invalid UTF-8 (byte 0xe9)"
		if !errors.As(err, &ds) || len(ds) != 1 || !strings.HasPrefix(ds[0].String(), want) {
			t.Errorf("Install: error %v; want one diagnostic starting %q", err, want)
		}
		wantFile(t, dir, "CLAUDE.md", blk)
		wantFile(t, dir, "AGENTS.md", blk)
		wantFile(t, dir, "BAD.md", "caf\xe9\n")

		res, err = workspace.Uninstall(dir, tg, bad, codex)
		if len(res) != 2 || res[0].Action != workspace.Deleted || res[1].Action != workspace.Deleted || !errors.As(err, &ds) || len(ds) != 1 {
			t.Errorf("Uninstall: %v, %v; want two deleted and one error", res, err)
		}
		wantFile(t, dir, "BAD.md", "caf\xe9\n")
	})

	t.Run("every target fails", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, dir, "BAD.md", "\xff")
		writeFile(t, dir, "AGENTS.md", "\xfe")
		res, err := workspace.Install(dir, runbook, bad, codex)
		var ds source.Diagnostics
		if len(res) != 0 || !errors.As(err, &ds) || len(ds) != 2 ||
			!strings.Contains(ds[0].String(), "BAD.md:1:1: invalid UTF-8 (byte 0xff)") ||
			!strings.Contains(ds[1].String(), "AGENTS.md:1:1: invalid UTF-8 (byte 0xfe)") {
			t.Errorf("Install: %v, %v; want both files named, in order", res, err)
		}
		// Error lists every problem, one a line.
		if err != nil && strings.Count(err.Error(), "\n") != 1 {
			t.Errorf("error text %q: want two lines", err)
		}
	})
}

// TestInstallStaleTemps: the temporary files of writes that died before their rename (.CLAUDE.md.tmp-DIGITS) are
// removed by the next Install or Uninstall of that file, under the lock; nothing else is, and Check removes none.
func TestInstallStaleTemps(t *testing.T) {
	tg := target()
	stale := []string{".CLAUDE.md.tmp-123", ".CLAUDE.md.tmp-4294967295"}
	kept := []string{
		".CLAUDE.md.tmp-abc", ".CLAUDE.md.tmp-", ".CLAUDE.md.tmp-12a", "other.tmp-1", ".AGENTS.md.tmp-123",
		"CLAUDE.md.tmp-123", ".CLAUDE.md.tmp-123.bak",
	}
	for _, op := range []struct {
		name   string
		run    func(dir string) (workspace.Results, error)
		remove bool
	}{
		{"Check", func(dir string) (workspace.Results, error) { return workspace.Check(dir, runbook, tg) }, false},
		{"Install", func(dir string) (workspace.Results, error) { return workspace.Install(dir, runbook, tg) }, true},
		{"Install current", func(dir string) (workspace.Results, error) { return workspace.Install(dir, "Old.\n", tg) }, true},
		{"Uninstall", func(dir string) (workspace.Results, error) { return workspace.Uninstall(dir, tg) }, true},
	} {
		t.Run(op.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "CLAUDE.md", "# Notes\n\n"+old)
			for _, n := range append(slices.Clone(stale), kept...) {
				writeFile(t, dir, n, "partial")
			}
			// A directory with a temporary file's name is not one.
			if err := os.Mkdir(filepath.Join(dir, ".CLAUDE.md.tmp-77"), 0o755); err != nil {
				t.Fatal(err)
			}
			if _, err := op.run(dir); err != nil {
				t.Fatal(err)
			}
			for _, n := range stale {
				if _, ok := readFile(t, dir, n); ok == op.remove {
					t.Errorf("%s: %s there %v, want %v", op.name, n, ok, !op.remove)
				}
			}
			for _, n := range append(kept, ".CLAUDE.md.tmp-77") {
				if _, err := os.Lstat(filepath.Join(dir, n)); err != nil {
					t.Errorf("%s removed %s", op.name, n)
				}
			}
		})
	}
}

// TestCheck: Check writes nothing, and says what Install would do and from which line of the file.
func TestCheck(t *testing.T) {
	tg := target()
	for _, tt := range []struct {
		name   string
		data   string
		exists bool
		action workspace.Action
		line   int
	}{
		{name: "missing", action: workspace.Created, line: 1},
		{name: "empty", exists: true, action: workspace.Appended, line: 1},
		// The first byte that changes is the one after the third newline: a line 4 the file does not have yet.
		{name: "three lines", data: "a\nb\nc\n", exists: true, action: workspace.Appended, line: 4},
		// Without the final newline, line 3 itself changes: "\n\n" goes after its "c".
		{name: "no final newline", data: "a\nb\nc", exists: true, action: workspace.Appended, line: 3},
		{name: "CRLF", data: "a\r\nb\r\n", exists: true, action: workspace.Appended, line: 3},
		// "# Notes", "", the begin marker, then "Old." where "Rules." will be.
		{name: "old block", data: "# Notes\n\n" + old, exists: true, action: workspace.Replaced, line: 4},
		{name: "old block first", data: old, exists: true, action: workspace.Replaced, line: 2},
		{name: "current", data: "# Notes\n\n" + blk, exists: true, action: workspace.Current},
		{name: "current, no final newline after the end marker", data: "# Notes\n\n" + strings.TrimSuffix(blk, "\n"), exists: true,
			action: workspace.Replaced, line: 5},
		// A mention in prose is text: the block is appended after it.
		{name: "marker in prose", data: "Keep <!-- BEGIN T --> lines.\n", exists: true, action: workspace.Appended, line: 2},
		{name: "current after a fenced example", data: fenced + "\n\n" + blk, exists: true, action: workspace.Current},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.exists {
				writeFile(t, dir, "CLAUDE.md", tt.data)
				writeFile(t, dir, ".CLAUDE.md.tmp-1", "stale")
			}
			before := tree(t, dir)
			var info os.FileInfo
			if tt.exists {
				info = stamp(t, dir, "CLAUDE.md")
			}
			r := one(t, "Check")(workspace.Check(dir, runbook, tg))
			if r.Action != tt.action || r.Line != tt.line {
				t.Errorf("Check: %v at line %d; want %v at line %d", r.Action, r.Line, tt.action, tt.line)
			}
			if r.Changed() != (tt.action != workspace.Current) {
				t.Errorf("Check: Changed() = %v for %v", r.Changed(), r.Action)
			}
			wantTree(t, "Check", dir, before)
			if tt.exists {
				wantSameFile(t, "Check", dir, "CLAUDE.md", info)
			}
			// What Check said is what Install then does.
			if i := one(t, "Install")(workspace.Install(dir, runbook, tg)); i.Action != r.Action {
				t.Errorf("Check said %v, Install did %v", r.Action, i.Action)
			}
		})
	}
}

// TestResultString: the line a person reads for each action, with the note a link adds.
func TestResultString(t *testing.T) {
	tg := target()
	dir := t.TempDir()
	str := func(r workspace.Result) string { return strings.TrimPrefix(r.String(), dir+string(filepath.Separator)) }
	for _, tt := range []struct {
		name string
		got  func() string
		want string
	}{
		{"created", func() string { return str(one(t, "Install")(workspace.Install(dir, runbook, tg))) },
			`CLAUDE.md: created, holding the block of target "claude"`},
		{"current", func() string { return str(one(t, "Install")(workspace.Install(dir, runbook, tg))) },
			`CLAUDE.md: up to date`},
		{"replaced", func() string { return str(one(t, "Install")(workspace.Install(dir, runbook2, tg))) },
			`CLAUDE.md: replaced the block of target "claude"`},
		{"deleted", func() string { return str(one(t, "Uninstall")(workspace.Uninstall(dir, tg))) },
			`CLAUDE.md: removed (it held only the block of target "claude")`},
		{"absent", func() string { return str(one(t, "Uninstall")(workspace.Uninstall(dir, tg))) },
			`CLAUDE.md: no block of target "claude" to remove`},
		{"appended", func() string {
			writeFile(t, dir, "CLAUDE.md", "# Notes\n")
			return str(one(t, "Install")(workspace.Install(dir, runbook, tg)))
		}, `CLAUDE.md: appended the block of target "claude"`},
		{"removed", func() string { return str(one(t, "Uninstall")(workspace.Uninstall(dir, tg))) },
			`CLAUDE.md: removed the block of target "claude"`},
	} {
		if got := tt.got(); got != tt.want {
			t.Errorf("%s:\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}

	// Through a link, the line says where the bytes went.
	ldir := t.TempDir()
	writeFile(t, ldir, "notes.md", "# Notes\n")
	symlink(t, "notes.md", filepath.Join(ldir, "CLAUDE.md"))
	r := one(t, "Install through a link")(workspace.Install(ldir, runbook, tg))
	want := filepath.Join(ldir, "CLAUDE.md") + `: appended the block of target "claude" (through the symbolic link, in ` + filepath.Join(ldir, "notes.md") + ")"
	if got := r.String(); got != want {
		t.Errorf("through a link:\n%s\nwant\n%s", got, want)
	}
}

func TestActionString(t *testing.T) {
	want := map[workspace.Action]string{
		workspace.Current: "current", workspace.Created: "created", workspace.Replaced: "replaced",
		workspace.Appended: "appended", workspace.Absent: "absent", workspace.Removed: "removed",
		workspace.Deleted: "deleted", workspace.Deleted + 1: "Action(7)",
	}
	for a, s := range want {
		if a.String() != s {
			t.Errorf("Action %d: %q, want %q", a, a.String(), s)
		}
		changed := a != workspace.Current && a != workspace.Absent
		if (workspace.Result{Action: a}).Changed() != changed {
			t.Errorf("Result{%v}.Changed() = %v, want %v", a, !changed, changed)
		}
	}
}
