//go:build unix

package workspace_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/workspace"
)

// TestInstallKeepsMode: a context file keeps its permissions through every write, whatever they are (a private
// 0600 file, an executable one).
func TestInstallKeepsMode(t *testing.T) {
	tg := target()
	for _, perm := range []os.FileMode{0o600, 0o755, 0o640, 0o200} {
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
		t.Skipf("cannot make a named pipe: %v", err)
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
