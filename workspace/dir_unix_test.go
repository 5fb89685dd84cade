//go:build unix

package workspace_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/testenv"
	"github.com/promptc/promptc/workspace"
)

// TestInstallKeepsMode: a context file keeps its permissions through every write, whatever they are (a private
// 0600 file, an executable one).
func TestInstallKeepsMode(t *testing.T) {
	tg := target()
	for _, perm := range []os.FileMode{0o600, 0o755, 0o640, 0o200, 0o020} {
		t.Run(perm.String(), func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "CLAUDE.md")
			writeFile(t, dir, "CLAUDE.md", "# Notes\n")
			if err := os.Chmod(name, perm); err != nil {
				t.Fatal(err)
			}
			wantPerm := func(what string) {
				t.Helper()
				fi, err := os.Stat(name)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if fi.Mode().Perm() != perm {
					t.Errorf("%s: mode %v, want %v", what, fi.Mode().Perm(), perm)
				}
			}
			one(t, "Install")(workspace.Install(dir, runbook, tg))
			wantPerm("Install (appended)")
			one(t, "Install")(workspace.Install(dir, runbook2, tg))
			wantPerm("Install (replaced)")
			one(t, "Uninstall")(workspace.Uninstall(dir, tg))
			wantPerm("Uninstall (removed)")
			wantFile(t, dir, "CLAUDE.md", "# Notes\n")
		})
	}
}

// TestInstallNewFileMode: a file install creates is 0644 and the directories it creates 0755, less the umask for
// the directories (os.Mkdir applies it).
func TestInstallNewFileMode(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	copilot := &blocks.Target{Name: "copilot", File: ".github/copilot-instructions.md", Begin: begin, End: end}
	if _, err := workspace.Install(dir, runbook, target(), copilot); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		perm os.FileMode
	}{{"CLAUDE.md", 0o644}, {".github/copilot-instructions.md", 0o644}, {".github", 0o755 | os.ModeDir}} {
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(c.name)))
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode() & (os.ModeDir | os.ModePerm); got != c.perm {
			t.Errorf("%s: mode %v, want %v", c.name, got, c.perm)
		}
	}
}

// TestInstallNamedPipe: a context file that is a named pipe is refused without being opened (opening it would
// wait for a writer forever), through a link too.
func TestInstallNamedPipe(t *testing.T) {
	tg := target()
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "CLAUDE.md"), 0o644); err != nil {
		testenv.Absent(t, "cannot make a named pipe: %v", err)
	}
	symlink(t, "CLAUDE.md", filepath.Join(dir, "AGENTS.md"))
	codex := &blocks.Target{Name: "codex", File: "AGENTS.md", Begin: begin, End: end}
	before := tree(t, dir)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, tg := range []*blocks.Target{tg, codex} {
			for name, op := range map[string]func() (workspace.Results, error){
				"Install":   func() (workspace.Results, error) { return workspace.Install(dir, runbook, tg) },
				"Check":     func() (workspace.Results, error) { return workspace.Check(dir, runbook, tg) },
				"Uninstall": func() (workspace.Results, error) { return workspace.Uninstall(dir, tg) },
			} {
				if _, err := op(); err == nil || !strings.Contains(err.Error(), "is not a regular file (a named pipe)") {
					t.Errorf("%s into %s: %v, want an error saying it is a named pipe", name, tg.File, err)
				}
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Install opened the named pipe and waits for a writer")
	}
	wantTree(t, "Install, Check and Uninstall", dir, before)
}

// TestUninstallKeepsLinkedDirectory: when the target's directory is a symbolic link (.github -> elsewhere),
// uninstall removes the file it installed and never the link, whatever the directory it leads to holds.
func TestUninstallKeepsLinkedDirectory(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real-github")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "real-github", filepath.Join(dir, ".github"))
	tg := &blocks.Target{Name: "copilot", File: ".github/copilot-instructions.md", Begin: begin, End: end}
	if _, err := workspace.Install(dir, runbook, tg); err != nil {
		t.Fatal(err)
	}
	res, err := workspace.Uninstall(dir, tg)
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Action != workspace.Deleted || len(res[0].Dirs) != 0 {
		t.Errorf("uninstall: %v, dirs %q; want the file deleted and no directory", res[0].Action, res[0].Dirs)
	}
	if fi, err := os.Lstat(filepath.Join(dir, ".github")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link .github is gone or changed: %v, %v", fi, err)
	}
}

// TestInstallSymlinkThroughLinkedDir: a relative link is resolved as the kernel resolves it, from the real directory
// holding it. With ws/CLAUDE.md -> ../shared.md reached through wslink -> vol/ws, the file is vol/shared.md, not
// the shared.md beside wslink that joining the paths as text leads to. Install, Check and Uninstall agree on it,
// and the lock is taken in vol, the directory where the write happens.
func TestInstallSymlinkThroughLinkedDir(t *testing.T) {
	tg := target()
	root := t.TempDir()
	writeFile(t, root, "vol/ws/.keep", "")
	writeFile(t, root, "vol/shared.md", "# Shared\n")
	writeFile(t, root, "shared.md", "# Unrelated\n")
	symlink(t, "../shared.md", filepath.Join(root, "vol", "ws", "CLAUDE.md"))
	symlink(t, filepath.Join("vol", "ws"), filepath.Join(root, "wslink"))
	dir := filepath.Join(root, "wslink")
	real := filepath.Join(root, "vol", "shared.md")

	if r := one(t, "Check")(workspace.Check(dir, runbook, tg)); r.Action != workspace.Appended || r.Link != real {
		t.Errorf("Check: %v, link %s; want appended, %s", r.Action, r.Link, real)
	}
	// Hold the lock of vol: Install must wait for it, since vol is where it writes.
	locked, err := os.Open(filepath.Join(root, "vol"))
	if err != nil {
		t.Fatal(err)
	}
	defer locked.Close()
	if err := syscall.Flock(int(locked.Fd()), syscall.LOCK_EX); err != nil {
		testenv.Absent(t, "no flock here: %v", err)
	}
	type outcome struct {
		res workspace.Results
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := workspace.Install(dir, runbook, tg)
		done <- outcome{res, err}
	}()
	var o outcome
	select {
	case o = <-done:
		t.Errorf("Install did not wait for the lock of the directory it writes in")
		_ = syscall.Flock(int(locked.Fd()), syscall.LOCK_UN)
	case <-time.After(300 * time.Millisecond):
		_ = syscall.Flock(int(locked.Fd()), syscall.LOCK_UN)
		o = <-done
	}
	r := one(t, "Install")(o.res, o.err)
	if r.Action != workspace.Appended || r.Link != real {
		t.Errorf("Install: %v, link %s; want appended, %s", r.Action, r.Link, real)
	}
	wantFile(t, root, "vol/shared.md", "# Shared\n\n\n"+blk)
	wantFile(t, root, "shared.md", "# Unrelated\n")
	if r := one(t, "Check")(workspace.Check(dir, runbook, tg)); r.Action != workspace.Current {
		t.Errorf("Check after Install: %v, want current", r.Action)
	}
	if r := one(t, "Uninstall")(workspace.Uninstall(dir, tg)); r.Action != workspace.Removed || r.Link != real {
		t.Errorf("Uninstall: %v, link %s; want removed, %s", r.Action, r.Link, real)
	}
	wantFile(t, root, "vol/shared.md", "# Shared\n")
	wantFile(t, root, "shared.md", "# Unrelated\n")

	// A ".." inside the link's own text, after a link: the kernel follows the link first.
	writeFile(t, root, "deep/a/b/notes.md", "# Deep\n")
	symlink(t, filepath.Join(root, "deep", "a", "b"), filepath.Join(root, "vol", "blink"))
	if err := os.Remove(filepath.Join(root, "vol", "ws", "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	symlink(t, "../blink/../b/notes.md", filepath.Join(root, "vol", "ws", "CLAUDE.md"))
	r = one(t, "Install through blink/..")(workspace.Install(dir, runbook, tg))
	if want := filepath.Join(root, "deep", "a", "b", "notes.md"); r.Link != want {
		t.Errorf("Install through blink/..: link %s, want %s", r.Link, want)
	}
	wantFile(t, root, "deep/a/b/notes.md", "# Deep\n\n\n"+blk)

	// The same, with a second link at the end: it is relative to deep/a/b, where the kernel found it.
	symlink(t, "notes.md", filepath.Join(root, "deep", "a", "b", "link2"))
	if err := os.Remove(filepath.Join(root, "vol", "ws", "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	symlink(t, "../blink/../b/link2", filepath.Join(root, "vol", "ws", "CLAUDE.md"))
	r = one(t, "Install through blink/.. and a second link")(workspace.Install(dir, runbook2, tg))
	if want := filepath.Join(root, "deep", "a", "b", "notes.md"); r.Link != want || r.Action != workspace.Replaced {
		t.Errorf("Install through blink/.. and a second link: %v, link %s; want replaced, %s", r.Action, r.Link, want)
	}
	wantFile(t, root, "deep/a/b/notes.md", "# Deep\n\n\n"+blk2)
}

// TestInstallHardLink: a context file with another name is refused, not split in two by the atomic rename (which
// would leave the other name with the old bytes); Check and Uninstall refuse it too, and both names stay as they
// were (docs/decisions.md, "Hard-linked context files are refused").
func TestInstallHardLink(t *testing.T) {
	tg := target()
	dir := t.TempDir()
	writeFile(t, dir, "CLAUDE.md", "# Notes\n\n"+old)
	if err := os.Link(filepath.Join(dir, "CLAUDE.md"), filepath.Join(dir, "AGENTS.md")); err != nil {
		testenv.Absent(t, "no hard links here: %v", err)
	}
	before := tree(t, dir)
	for name, op := range map[string]func() (workspace.Results, error){
		"Install":   func() (workspace.Results, error) { return workspace.Install(dir, runbook, tg) },
		"Check":     func() (workspace.Results, error) { return workspace.Check(dir, runbook, tg) },
		"Uninstall": func() (workspace.Results, error) { return workspace.Uninstall(dir, tg) },
	} {
		res, err := op()
		want := filepath.Join(dir, "CLAUDE.md") + ":?:?: the context file has 2 names (hard links): an install writes a new file and renames it over this name, so the other names would keep the old bytes without a word; it is left as it is: "
		if err == nil || len(res) != 0 || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, %v; want a refusal starting %q", name, res, err, want)
		}
		wantTree(t, name, dir, before)
	}
	fi1, _ := os.Stat(filepath.Join(dir, "CLAUDE.md"))
	fi2, _ := os.Stat(filepath.Join(dir, "AGENTS.md"))
	if !os.SameFile(fi1, fi2) {
		t.Error("the two names are no longer one file")
	}
}

// TestInstallReadOnly: a context file with no write permission bits is refused by Install, Check and Uninstall,
// even when promptc runs as root (which the bits do not stop); one with any write bit is written as before.
func TestInstallReadOnly(t *testing.T) {
	tg := target()
	for _, perm := range []os.FileMode{0o444, 0o400, 0o555, 0} {
		t.Run(perm.String(), func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "CLAUDE.md", "# Notes\n\n"+old)
			if err := os.Chmod(filepath.Join(dir, "CLAUDE.md"), perm); err != nil {
				t.Fatal(err)
			}
			before := tree(t, dir)
			info := stamp(t, dir, "CLAUDE.md")
			want := fmt.Sprintf("%s:?:?: the context file is read-only (mode %04o): promptc does not rewrite a file nobody may write, even where it could; it is left as it is: make it writable (chmod u+w) for promptc to change it", filepath.Join(dir, "CLAUDE.md"), perm)
			for name, op := range map[string]func() (workspace.Results, error){
				"Install":   func() (workspace.Results, error) { return workspace.Install(dir, runbook, tg) },
				"Check":     func() (workspace.Results, error) { return workspace.Check(dir, runbook, tg) },
				"Uninstall": func() (workspace.Results, error) { return workspace.Uninstall(dir, tg) },
			} {
				res, err := op()
				if err == nil || len(res) != 0 || err.Error() != want {
					t.Errorf("%s: %v, %v; want\n%s", name, res, err, want)
				}
				wantTree(t, name, dir, before)
				wantSameFile(t, name, dir, "CLAUDE.md", info)
			}
		})
	}
}

// TestInstallFileOnPath: a file where a target's file needs a directory is named in the message, by Install and by
// Check alike, not reported as a bare "not a directory".
func TestInstallFileOnPath(t *testing.T) {
	for _, tt := range []struct{ file, blocker string }{
		{"sub/CLAUDE.md", "sub"},
		{"a/b/c.md", "a"},
		{"a/b/c.md", "a/b"},
	} {
		t.Run(tt.file+" "+tt.blocker, func(t *testing.T) {
			tg := &blocks.Target{Name: "claude", File: tt.file, Begin: begin, End: end}
			dir := t.TempDir()
			writeFile(t, dir, tt.blocker, "not a directory\n")
			before := tree(t, dir)
			want := fmt.Sprintf("%s:?:?: %s is a file, not a directory, and the target's file %q needs it to be a directory: move the file away, or change the target's file in promptc.toml",
				filepath.Join(dir, filepath.FromSlash(tt.file)), filepath.Join(dir, filepath.FromSlash(tt.blocker)), tt.file)
			for name, op := range map[string]func() (workspace.Results, error){
				"Install": func() (workspace.Results, error) { return workspace.Install(dir, runbook, tg) },
				"Check":   func() (workspace.Results, error) { return workspace.Check(dir, runbook, tg) },
			} {
				res, err := op()
				if err == nil || len(res) != 0 || err.Error() != want {
					t.Errorf("%s: %v, %v; want\n%s", name, res, err, want)
				}
				wantTree(t, name, dir, before)
			}
			if r := one(t, "Uninstall")(workspace.Uninstall(dir, tg)); r.Action != workspace.Absent {
				t.Errorf("Uninstall: %v, want absent (there can be no file)", r.Action)
			}
		})
	}
}
