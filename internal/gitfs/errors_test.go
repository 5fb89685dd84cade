package gitfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptc/promptc/internal/testenv"
)

// TestWebURLRemotes: WebURL reads origin, or the only remote when there is no origin; with several remotes and no
// origin, or none, there is no address to give.
func TestWebURLRemotes(t *testing.T) {
	r := newRepo(t)
	r.commit("first", map[string]string{"promptc.toml": "p\n"})
	check := func(when, want string) {
		t.Helper()
		got, ok := WebURL(r.dir)
		if ok != (want != "") || got != want {
			t.Errorf("%s: WebURL = %q, %v; want %q", when, got, ok, want)
		}
	}
	check("no remote", "")
	r.git("remote", "add", "upstream", "git@github.com:promptc/upstream.git")
	check("one remote, not origin", "https://github.com/promptc/upstream")
	r.git("remote", "add", "fork", "https://github.com/someone/fork.git")
	check("two remotes, no origin", "")
	r.git("remote", "add", "origin", "https://x-access-token:s3cret@github.com/promptc/promptc.git")
	check("origin among others", "https://github.com/promptc/promptc")
	r.git("remote", "set-url", "origin", "/srv/git/prompts.git")
	check("origin a path", "")
	if got, ok := WebURL(t.TempDir()); ok || got != "" {
		t.Errorf("WebURL outside a repository = %q, %v", got, ok)
	}
	if got, ok := webURL("https://[::1"); ok || got != "" {
		t.Errorf("webURL of an address that does not parse = %q, %v", got, ok)
	}
}

// TestHead: Head names the commit checked out, in full; a repository without a commit has none.
func TestHead(t *testing.T) {
	r := newRepo(t)
	if h, err := Head(r.dir); err == nil || h != "" {
		t.Errorf("Head of a repository without commits = %q, %v; want an error", h, err)
	}
	r.commit("first", map[string]string{"promptc.toml": "p\n"})
	want := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	if h, err := Head(r.path(".")); err != nil || h != want || len(h) != 40 {
		t.Errorf("Head = %q, %v; want %s", h, err, want)
	}
}

// TestNoGit: without git on PATH, TopLevel and Open say that git is needed, wrapping exec.ErrNotFound.
func TestNoGit(t *testing.T) {
	r := newRepo(t)
	r.commit("first", map[string]string{"promptc.toml": "p\n"})
	t.Setenv("PATH", t.TempDir())
	for name, do := range map[string]func() error{
		"TopLevel": func() error { _, err := TopLevel(r.dir); return err },
		"Open":     func() error { _, err := Open(r.dir, "HEAD"); return err },
	} {
		err := do()
		if !errors.Is(err, exec.ErrNotFound) || !strings.HasPrefix(err.Error(), "git is needed to read a committed revision: ") {
			t.Errorf("%s without git: %v, want an error saying git is needed, wrapping exec.ErrNotFound", name, err)
		}
	}
}

// TestOpenMissingBlob: a commit whose blob is gone from the object store (a damaged repository, or a partial
// clone that cannot fetch it) fails Open with git's words and the object's id, and leaves no git process behind.
func TestOpenMissingBlob(t *testing.T) {
	r := newRepo(t)
	r.commit("first", map[string]string{"promptc.toml": "p\n", "blocks/a.toml": "[[block]]\nid = \"lost\"\n"})
	oid := strings.TrimSpace(r.git("rev-parse", "HEAD:blocks/a.toml"))
	if err := os.Remove(r.path(".git/objects/" + oid[:2] + "/" + oid[2:])); err != nil {
		t.Fatal(err)
	}
	_, err := Open(r.dir, "HEAD")
	if err == nil || !strings.HasPrefix(err.Error(), "git cat-file: ") || !strings.Contains(err.Error(), oid) ||
		!strings.Contains(err.Error(), "missing") {
		t.Errorf("Open with a blob missing: %v, want git cat-file's report naming %s", err, oid)
	}
}

// TestCatFileFails: a git cat-file that exits (here: run outside any repository) is reported with git's own
// message, both when a blob is asked for and when it is closed unasked.
func TestCatFileFails(t *testing.T) {
	testenv.LookPath(t, "git")
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	c, err := startCatFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.blob("0123456789012345678901234567890123456789")
	var ee *exec.ExitError
	if !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), "git cat-file: ") || !strings.Contains(err.Error(), "not a git repository") {
		t.Errorf("blob from a cat-file outside a repository: %v, want git's message and its exit status", err)
	}
	if err := c.close(); err != nil {
		t.Errorf("close after the failure was reported: %v, want nil", err)
	}
	// git may be gone before it is asked (the ask then meets a pipe with no reader): still git's own message.
	c, err = startCatFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.stdout.Peek(1); !errors.Is(err, io.EOF) { // git has closed its output: it has exited
		t.Fatalf("cat-file outside a repository wrote something: %v", err)
	}
	_, err = c.blob("0123456789012345678901234567890123456789")
	if !errors.As(err, &ee) || !strings.Contains(err.Error(), "not a git repository") {
		t.Errorf("blob from a cat-file that exited before it was asked: %v, want git's message and its exit status", err)
	}
	c, err = startCatFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.close(); !errors.As(err, &ee) || !strings.Contains(err.Error(), "not a git repository") {
		t.Errorf("close of a cat-file that failed: %v, want git's message", err)
	}
}

// TestCommitTreeOpen: the commit's tree read through a linkfs.View opens files as the working tree's would, a
// link followed, and a directory is not read as a file.
func TestCommitTreeOpen(t *testing.T) {
	r := newRepo(t)
	r.commit("first", map[string]string{"promptc.toml": "p\n", "shared/s.md": "shared\n"})
	if err := os.Symlink("shared/s.md", r.path("s.md")); err != nil {
		t.Fatal(err)
	}
	r.commit("link", nil)
	fsys := mustOpen(t, r.dir, "HEAD")
	d, err := fsys.Open(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Read(make([]byte, 1)); !errors.Is(err, errIsDir) {
		t.Errorf("Read of an open directory: %v, want %v", err, errIsDir)
	}
	fi, err := fs.Stat(fsys, "promptc.toml")
	if err != nil || fi.Sys() != nil || fmt.Sprint(fi) != "-r--r--r-- 2 0001-01-01 00:00:00 promptc.toml" {
		t.Errorf("Stat(promptc.toml) = %v (%v), Sys %v", fi, err, fi.Sys())
	}

	ct := &commitTree{dir: r.dir, commit: strings.TrimSpace(r.git("rev-parse", "HEAD")), data: map[string][]byte{}}
	if err := ct.list(nil); err != nil {
		t.Fatal(err)
	}
	if ct.blobs, err = newBlobReader(r.dir); err != nil {
		t.Fatal(err)
	}
	defer ct.blobs.close()
	f, err := ct.Open("shared/s.md")
	if err != nil {
		t.Fatal(err)
	}
	st, _ := f.Stat()
	buf := make([]byte, 16)
	n, _ := f.Read(buf)
	if string(buf[:n]) != "shared\n" || st.Size() != 7 || st.Mode() != 0o444 {
		t.Errorf("Open(shared/s.md): %q, size %d, mode %v", buf[:n], st.Size(), st.Mode())
	}
	for _, p := range []string{"shared", "s.md", "missing"} {
		if _, err := ct.Open(p); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("commitTree.Open(%s): %v, want fs.ErrInvalid: only regular files are read", p, err)
		}
	}
}
