package gitfs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/internal/linkfs"
	"github.com/promptc/promptc/internal/testenv"
)

// TestMain keeps the tests' git runs to the temporary repositories and out of the user's configuration: run from
// a git hook, the test binary inherits variables such as GIT_DIR and GIT_INDEX_FILE that would point git at the
// enclosing repository, and a global core.autocrlf or commit.gpgsign would change what the tests commit.
func TestMain(m *testing.M) {
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GIT_") && k != "GIT_EXEC_PATH" {
			os.Unsetenv(k)
		}
	}
	home, err := os.MkdirTemp("", "gitfs-home-")
	if err != nil {
		panic(err)
	}
	os.Setenv("HOME", home)
	os.Setenv("XDG_CONFIG_HOME", home)
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// repo is a temporary git repository.
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	testenv.LookPath(t, "git")
	r := &repo{t: t, dir: t.TempDir()}
	r.git("-c", "init.defaultBranch=main", "init", "-q")
	r.git("config", "user.name", "Test")
	r.git("config", "user.email", "test@example.com")
	r.git("config", "core.autocrlf", "false")
	r.git("config", "commit.gpgsign", "false")
	return r
}

// git runs git in the repository and returns its standard output.
func (r *repo) git(args ...string) string {
	r.t.Helper()
	return r.gitIn("", args...)
}

// gitIn runs git in the repository with stdin as its standard input.
func (r *repo) gitIn(stdin string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.dir}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out)
}

// write creates or replaces files, by slash path relative to the repository's top.
func (r *repo) write(files map[string]string) {
	r.t.Helper()
	for p, data := range files {
		name := filepath.Join(r.dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

// commit writes files and commits everything in the working tree.
func (r *repo) commit(msg string, files map[string]string) {
	r.t.Helper()
	r.write(files)
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
}

func (r *repo) path(p string) string { return filepath.Join(r.dir, filepath.FromSlash(p)) }

// readAll returns every file of fsys by path; symbolic links that are not followed, which cannot be read, are
// left out.
func readAll(t *testing.T, fsys fs.FS) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		out[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func mustOpen(t *testing.T, dir, rev string) fs.FS {
	t.Helper()
	fsys, err := Open(dir, rev)
	if err != nil {
		t.Fatalf("Open(%s, %q): %v", dir, rev, err)
	}
	return fsys
}

func checkFiles(t *testing.T, fsys fs.FS, want map[string]string) {
	t.Helper()
	got := readAll(t, fsys)
	if maps.Equal(got, want) {
		return
	}
	for _, p := range slices.Sorted(maps.Keys(want)) {
		g, ok := got[p]
		switch {
		case !ok:
			t.Errorf("%q: missing", p)
		case g != want[p]:
			t.Errorf("%q: got %s, want %s", p, short(g), short(want[p]))
		}
	}
	for _, p := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[p]; !ok {
			t.Errorf("%q: unexpected file", p)
		}
	}
}

// short quotes s, or describes it when it is too long to read.
func short(s string) string {
	if len(s) > 80 {
		return fmt.Sprintf("%d bytes starting %q", len(s), s[:40])
	}
	return strconv.Quote(s)
}

// untouched records the state Open must leave alone: what git status reports, and the index's bytes.
func untouched(r *repo) func() {
	r.t.Helper()
	status := r.git("status", "--porcelain", "--untracked-files=all")
	index, err := os.ReadFile(r.path(".git/index"))
	if err != nil {
		r.t.Fatal(err)
	}
	return func() {
		r.t.Helper()
		after, err := os.ReadFile(r.path(".git/index"))
		if err != nil || !bytes.Equal(after, index) {
			r.t.Errorf("the index changed (%v)", err)
		}
		if got := r.git("status", "--porcelain", "--untracked-files=all"); got != status {
			r.t.Errorf("git status changed:\nbefore\n%s\nafter\n%s", status, got)
		}
	}
}

func TestOpenCommittedBytes(t *testing.T) {
	r := newRepo(t)
	r.commit("first", map[string]string{
		"promptc.toml":     "name = \"p\"\n",
		"blocks/a.toml":    "committed\n",
		"blocks/gone.toml": "deleted from the working tree\n",
	})
	r.write(map[string]string{"blocks/a.toml": "staged\n", "blocks/new-staged.toml": "staged only\n"})
	r.git("add", "blocks/a.toml", "blocks/new-staged.toml")
	r.write(map[string]string{"blocks/a.toml": "working tree\n", "blocks/untracked.toml": "untracked\n"})
	if err := os.Remove(r.path("blocks/gone.toml")); err != nil {
		t.Fatal(err)
	}
	check := untouched(r)
	fsys := mustOpen(t, r.dir, "HEAD")
	checkFiles(t, fsys, map[string]string{
		"promptc.toml":     "name = \"p\"\n",
		"blocks/a.toml":    "committed\n",
		"blocks/gone.toml": "deleted from the working tree\n",
	})
	check()
	if data, _ := os.ReadFile(r.path("blocks/a.toml")); string(data) != "working tree\n" {
		t.Errorf("working tree file changed to %q", data)
	}
	// "" is HEAD.
	checkFiles(t, mustOpen(t, r.dir, ""), readAll(t, fsys))
}

func TestOpenSubdirectory(t *testing.T) {
	r := newRepo(t)
	r.commit("first", map[string]string{
		"README.md":                     "top\n",
		"promptc.toml":                  "name = \"top\"\n",
		"prompts/agent/promptc.toml":    "name = \"agent\"\n",
		"prompts/agent/blocks/x.toml":   "x\n",
		"prompts/agent2/promptc.toml":   "a sibling sharing the prefix\n",
		"prompts/agent.toml":            "a file sharing the prefix\n",
		"prompts/other/blocks/x.toml":   "other\n",
		"prompts/agent/fixtures/f.toml": "f\n",
	})
	r.write(map[string]string{"prompts/agent/blocks/x.toml": "changed\n"})
	check := untouched(r)
	fsys := mustOpen(t, r.path("prompts/agent"), "HEAD")
	checkFiles(t, fsys, map[string]string{
		"promptc.toml":    "name = \"agent\"\n",
		"blocks/x.toml":   "x\n",
		"fixtures/f.toml": "f\n",
	})
	check()
}

func TestOpenNames(t *testing.T) {
	r := newRepo(t)
	files := map[string]string{
		"my project/ö/promptc.toml":                 "p\n",
		"my project/ö/blocks/a b.toml":              "spaces\n",
		"my project/ö/templates/ünïcödé 日本語.md":     "unicode\n",
		"my project/ö/templates/quote\"and'apos.md": "quotes\n",
		"my project/ö/templates/a[1]*?.md":          "glob characters\n",
		"my project/ö/fixtures/-dash.toml":          "leading dash\n",
		"my project/ö/templates/back\\slash.md":     "backslash\n",
		"my project/ö/templates/tab\there.md":       "tab\n",
		"my project/ö/templates/new\nline.md":       "newline\n",
	}
	if runtime.GOOS == "windows" {
		for p := range files {
			if strings.ContainsAny(p, "\"*?\\\t\n") {
				delete(files, p)
			}
		}
	}
	r.commit("names", files)
	fsys := mustOpen(t, r.path("my project/ö"), "HEAD")
	want := map[string]string{}
	for p, data := range files {
		want[strings.TrimPrefix(p, "my project/ö/")] = data
	}
	checkFiles(t, fsys, want)
}

func TestOpenGlobPrefix(t *testing.T) {
	r := newRepo(t)
	r.commit("first", map[string]string{
		"p[1]/promptc.toml": "brackets\n",
		"p1/promptc.toml":   "what the glob p[1] would match\n",
		"p*/promptc.toml":   "star\n",
	})
	checkFiles(t, mustOpen(t, r.path("p[1]"), "HEAD"), map[string]string{"promptc.toml": "brackets\n"})
	if runtime.GOOS != "windows" {
		checkFiles(t, mustOpen(t, r.path("p*"), "HEAD"), map[string]string{"promptc.toml": "star\n"})
	}
}

func TestOpenOlderRevision(t *testing.T) {
	r := newRepo(t)
	r.commit("v1 of the prompts", map[string]string{"promptc.toml": "v1\n", "blocks/a.toml": "a1\n", "blocks/old.toml": "old\n"})
	r.git("tag", "v1")
	r.git("tag", "-a", "-m", "annotated", "v1-annotated")
	first := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	r.git("rm", "-q", "blocks/old.toml")
	r.commit("v2 of the prompts", map[string]string{"promptc.toml": "v2\n", "blocks/a.toml": "a2\n", "blocks/new.toml": "new\n"})
	v1 := map[string]string{"promptc.toml": "v1\n", "blocks/a.toml": "a1\n", "blocks/old.toml": "old\n"}
	for _, rev := range []string{
		"HEAD~1", "HEAD^", "v1", "v1-annotated", "tags/v1", first, first[:10], "main~1", "main@{1}",
		// A commit found by its message: a suffix such as ^{commit} would become part of the message searched.
		":/v1 of the prompts", ":/^v1 ", "HEAD^{/v1 of}",
	} {
		t.Run(rev, func(t *testing.T) { checkFiles(t, mustOpen(t, r.dir, rev), v1) })
	}
	v2 := map[string]string{"promptc.toml": "v2\n", "blocks/a.toml": "a2\n", "blocks/new.toml": "new\n"}
	for _, rev := range []string{"HEAD", "main", ":/v2 of the prompts", ":/prompts"} {
		t.Run(rev, func(t *testing.T) { checkFiles(t, mustOpen(t, r.dir, rev), v2) })
	}
}

func TestOpenUnknownRevision(t *testing.T) {
	r := newRepo(t)
	r.commit("first", map[string]string{"promptc.toml": "p\n", "blocks/a.toml": "a\n"})
	blob := strings.TrimSpace(r.git("rev-parse", "HEAD:blocks/a.toml"))
	for _, rev := range []string{
		"nope", "HEAD~5", "origin/main", "-x", "--all", blob, "HEAD:blocks", "main..HEAD", ":/no such message",
		"HEAD^{tree}", "--end-of-options",
	} {
		t.Run(rev, func(t *testing.T) {
			_, err := Open(r.dir, rev)
			if !errors.Is(err, ErrUnknownRevision) {
				t.Fatalf("Open(%q) error = %v, want ErrUnknownRevision", rev, err)
			}
			msg := err.Error()
			wants := []string{`unknown revision "` + rev + `"`, "git log", "origin/main"}
			if rev == "HEAD~5" {
				// A walk back from HEAD says how far back the history goes instead of giving examples.
				wants = []string{`unknown revision "HEAD~5": it goes back further than the history of HEAD, which has 1 commit`, "git log"}
			}
			for _, want := range wants {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not say %q", msg, want)
				}
			}
		})
	}

	t.Run("no commits yet", func(t *testing.T) {
		r := newRepo(t)
		r.write(map[string]string{"promptc.toml": "p\n"})
		_, err := Open(r.dir, "HEAD")
		if !errors.Is(err, ErrUnknownRevision) {
			t.Errorf("Open(HEAD) in an empty repository: %v, want ErrUnknownRevision", err)
		} else if !strings.Contains(err.Error(), "the repository has no commit yet") || strings.Contains(err.Error(), "HEAD~1") {
			t.Errorf("Open(HEAD) in an empty repository: %q, want it to say there is no commit yet, and no HEAD~1", err)
		}
	})
}

func TestOpenNoProject(t *testing.T) {
	r := newRepo(t)
	r.commit("before the project", map[string]string{"README.md": "r\n"})
	r.commit("project", map[string]string{"sub/promptc.toml": "p\n"})
	r.write(map[string]string{"work/promptc.toml": "not committed yet\n"})
	tests := []struct {
		dir, rev, want string
	}{
		{"sub", "HEAD~1", `no promptc project at revision "HEAD~1" (commit `},
		{"sub", "HEAD~1", "no promptc.toml at sub/ in the repository"},
		{"work", "HEAD", "no promptc.toml at work/ in the repository"},
		{".", "HEAD", "no promptc.toml at the top of the repository"},
	}
	for _, tt := range tests {
		_, err := Open(r.path(tt.dir), tt.rev)
		if !errors.Is(err, ErrNoProject) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(%s, %s) error = %v, want ErrNoProject saying %q", tt.dir, tt.rev, err, tt.want)
		}
	}
}

func TestOpenNotRepository(t *testing.T) {
	testenv.LookPath(t, "git")
	dir := t.TempDir()
	_, err := Open(dir, "HEAD")
	if want := dir + " is not inside a git work tree (not a git repository"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Open outside a repository: %v, want an error saying so", err)
	}
	_, err = Open(filepath.Join(dir, "missing"), "HEAD")
	if err == nil {
		t.Error("Open of a missing directory: no error")
	}
}

func TestOpenBytesExact(t *testing.T) {
	r := newRepo(t)
	large := bytes.Repeat([]byte("0123456789abcdef\r\n\x00"), 100_000) // larger than any pipe or read buffer
	files := map[string]string{
		"promptc.toml":           "p\r\n",
		"blocks/crlf.toml":       "a = 1\r\nb = 2\r\n",
		"blocks/cr.toml":         "a\rb\r",
		"blocks/no-newline.toml": "x",
		"blocks/empty.toml":      "",
		"blocks/bom.toml":        "\ufeffbom\n",
		"blocks/binary.bin":      "\x00\xff\xfe\n\x80\r\n\x00",
		"blocks/large.bin":       string(large),
		"blocks/copy.toml":       "a = 1\r\nb = 2\r\n", // the same blob as crlf.toml
	}
	r.commit("bytes", files)
	checkFiles(t, mustOpen(t, r.dir, "HEAD"), files)
}

func TestOpenLinksAndSubmodules(t *testing.T) {
	r := newRepo(t)
	r.commit("first", map[string]string{
		"promptc.toml":      "p\n",
		"blocks/a.toml":     "a\n",
		"templates/run.sh":  "#!/bin/sh\n",
		"shared/t.md":       "shared\n",
		"shared/dir/u.md":   "u\n",
		"docs/readme.md":    "not read\n",
		"templates/real.md": "real\n",
	})
	head := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	// Links and a submodule are recorded in the index directly, so that neither the file system nor a second
	// repository is needed: a link's blob holds its target. The executable bit likewise.
	link := func(p, target string) {
		oid := strings.TrimSpace(r.gitIn(target, "hash-object", "-w", "--stdin"))
		r.git("update-index", "--add", "--cacheinfo", "120000,"+oid+","+p)
	}
	link("templates/alias.md", "real.md")
	link("templates/chain.md", "alias.md")
	link("templates/up.md", "../shared/t.md")
	link("templates/dir", "../shared/dir")
	link("templates/abs.md", "/etc/hostname")
	link("templates/above.md", "../../x.md")
	link("templates/gone.md", "../shared/missing.md")
	link("templates/self", ".")
	link("templates/ping.md", "pong.md")
	link("templates/pong.md", "ping.md")
	link("templates/via.md", "../shared/abs.md")
	link("shared/abs.md", "/etc/passwd")
	link("templates/git.md", "../.git/HEAD")
	r.git("update-index", "--add", "--cacheinfo", "160000,"+head+",templates/sub")
	r.git("update-index", "--chmod=+x", "templates/run.sh")
	r.git("commit", "-q", "-m", "links")
	fsys := mustOpen(t, r.dir, "HEAD")

	checkFiles(t, fsys, map[string]string{
		"promptc.toml":       "p\n",
		"blocks/a.toml":      "a\n",
		"templates/run.sh":   "#!/bin/sh\n",
		"templates/real.md":  "real\n",
		"templates/alias.md": "real\n",
		"templates/chain.md": "real\n",
		"templates/up.md":    "shared\n",
		"templates/dir/u.md": "u\n",
	})
	const tail = ": promptc follows only relative links that stay inside it"
	broken := []struct{ name, err string }{
		{"templates/abs.md", `symbolic link to "/etc/hostname" leaves the repository` + tail},
		{"templates/above.md", `symbolic link to "../../x.md" leaves the repository` + tail},
		{"templates/gone.md", `symbolic link to "../shared/missing.md" dangles: nothing is there in the repository`},
		{"templates/self", `symbolic link to "." loops back on itself`},
		{"templates/ping.md", `symbolic link to "pong.md" loops back on itself`},
		{"templates/via.md", `symbolic link to "../shared/abs.md" leads through "shared/abs.md", a symbolic link to "/etc/passwd", which leaves the repository` + tail},
		{"templates/git.md", `symbolic link to "../.git/HEAD" dangles: nothing is there in the repository`},
	}
	for _, tt := range broken {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fs.ReadFile(fsys, tt.name)
			var le *linkfs.FollowError
			if !errors.As(err, &le) || le.Error() != tt.err {
				t.Errorf("ReadFile error = %v\nwant a LinkError: %s", err, tt.err)
			}
			if _, err := fs.Stat(fsys, tt.name); !errors.As(err, &le) {
				t.Errorf("Stat error = %v, want a LinkError", err)
			}
		})
	}
	entries, err := fs.ReadDir(fsys, "templates")
	if err != nil {
		t.Fatal(err)
	}
	var listing []string
	for _, e := range entries {
		listing = append(listing, e.Name()+" "+e.Type().String())
	}
	want := []string{
		"above.md L---------", "abs.md L---------", "alias.md ----------", "chain.md ----------", "dir d---------",
		"git.md L---------", "gone.md L---------", "ping.md L---------", "pong.md L---------",
		"real.md ----------", "run.sh ----------", "self L---------", "up.md ----------", "via.md L---------",
	}
	if !slices.Equal(listing, want) {
		t.Errorf("ReadDir(templates) =\n%q\nwant\n%q", listing, want)
	}
	for name, want := range map[string]fs.FileMode{
		"templates/run.sh": 0o555, "promptc.toml": 0o444, "blocks": fs.ModeDir | 0o555, "templates/dir": fs.ModeDir | 0o555,
	} {
		if fi, err := fs.Stat(fsys, name); err != nil || fi.Mode() != want {
			t.Errorf("Stat(%s) = %v, %v; want mode %v", name, fi, err, want)
		}
	}
}

// TestFS checks the file system Open returns against the fs package's contracts.
func TestFS(t *testing.T) {
	r := newRepo(t)
	r.commit("first", map[string]string{
		"promptc.toml":            "p\n",
		"blocks/a.toml":           "a\n",
		"blocks/roles/b.toml":     "b\n",
		"blocks/roles/deep/c.md":  "c\n",
		"templates/t.md":          "t\n",
		"templates/empty.md":      "",
		"fixtures/basic.toml":     "f\n",
		"fixtures/untrusted.toml": "u\n",
	})
	fsys := mustOpen(t, r.dir, "HEAD")
	if err := fstest.TestFS(fsys, "promptc.toml", "blocks/a.toml", "blocks/roles/deep/c.md", "templates/empty.md",
		"fixtures/untrusted.toml"); err != nil {
		t.Fatal(err)
	}
	entries, err := fs.ReadDir(fsys, "blocks")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"a.toml", "roles"}; !slices.Equal(names, want) {
		t.Errorf("ReadDir(blocks) = %q, want %q", names, want)
	}
	for _, name := range []string{"/promptc.toml", "./promptc.toml", "blocks/", "../x", ""} {
		if _, err := fsys.Open(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Open(%q) error = %v, want fs.ErrInvalid", name, err)
		}
	}
	if _, err := fsys.Open("blocks/missing.toml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(missing) error = %v, want fs.ErrNotExist", err)
	}
	if _, err := fs.ReadFile(fsys, "blocks"); err == nil {
		t.Error("ReadFile(directory): no error")
	}
	if _, err := fs.ReadDir(fsys, "promptc.toml"); err == nil {
		t.Error("ReadDir(file): no error")
	}
	// ReadFile hands out a copy.
	data, _ := fs.ReadFile(fsys, "blocks/a.toml")
	data[0] = 'X'
	if again, _ := fs.ReadFile(fsys, "blocks/a.toml"); string(again) != "a\n" {
		t.Errorf("changing ReadFile's result changed the file to %q", again)
	}
}

// recordBlobs makes Open's blob reader record the objects it is asked for, until the test ends.
func recordBlobs(t *testing.T) *[]string {
	var asked []string
	start := newBlobReader
	newBlobReader = func(dir string) (blobReader, error) {
		b, err := start(dir)
		return recorder{b, &asked}, err
	}
	t.Cleanup(func() { newBlobReader = start })
	return &asked
}

type recorder struct {
	blobReader
	asked *[]string
}

func (r recorder) blob(oid string) ([]byte, error) {
	*r.asked = append(*r.asked, oid)
	return r.blobReader.blob(oid)
}

// TestOpenReadsOnlyProject: Open reads the blobs the compiler reads, and the links on the way to them, but no other
// file of the project or the repository, however large.
func TestOpenReadsOnlyProject(t *testing.T) {
	r := newRepo(t)
	big := strings.Repeat("0123456789abcdef", 4<<20/16) // 4 MB
	r.commit("first", map[string]string{
		"prompts/promptc.toml":          "p\n",
		"prompts/blocks/a.toml":         "a\n",
		"prompts/templates/t.md":        "t\n",
		"prompts/fixtures/f.toml":       "f\n",
		"prompts/assets/big.bin":        big,
		"prompts/golden/t/f.runbook.md": "golden\n",
		"prompts/README.md":             "readme\n",
		"shared/s.md":                   "shared\n",
		"shared/unused.md":              "unused\n",
		"other/big.bin":                 big + "x",
	})
	oid := func(p string) string { return strings.TrimSpace(r.git("rev-parse", "HEAD:"+p)) }
	if err := os.Symlink("../../shared/s.md", r.path("prompts/templates/s.md")); err != nil {
		testenv.Absent(t, "no symbolic links here: %v", err)
	}
	if err := os.Symlink("big.bin", r.path("other/link.bin")); err != nil {
		t.Fatal(err)
	}
	r.commit("links", nil)

	asked := recordBlobs(t)
	fsys := mustOpen(t, r.path("prompts"), "HEAD")
	checkFiles(t, fsys, map[string]string{
		"promptc.toml":    "p\n",
		"blocks/a.toml":   "a\n",
		"templates/t.md":  "t\n",
		"templates/s.md":  "shared\n",
		"fixtures/f.toml": "f\n",
	})
	want := []string{
		oid("prompts/promptc.toml"), oid("prompts/blocks/a.toml"), oid("prompts/templates/s.md"), oid("shared/s.md"),
		oid("prompts/templates/t.md"), oid("prompts/fixtures/f.toml"),
	}
	slices.Sort(want)
	got := slices.Sorted(slices.Values(*asked))
	if !slices.Equal(got, want) {
		names := map[string]string{}
		for _, p := range []string{"prompts/assets/big.bin", "other/big.bin", "other/link.bin", "prompts/golden/t/f.runbook.md",
			"prompts/README.md", "shared/unused.md"} {
			names[oid(p)] = p
		}
		for _, o := range got {
			if p, ok := names[o]; ok {
				t.Errorf("Open read %s (blob %.12s), which the compiler does not read", p, o)
			}
		}
		t.Errorf("blobs read:\n%q\nwant\n%q", got, want)
	}
}

func TestTopLevel(t *testing.T) {
	r := newRepo(t)
	r.commit("first", map[string]string{"prompts/promptc.toml": "p\n", "README.md": "r\n"})
	top, err := filepath.EvalSymlinks(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	r.git("worktree", "add", "-q", wt)
	wtTop, err := filepath.EvalSymlinks(wt)
	if err != nil {
		t.Fatal(err)
	}
	// A symbolic link to the repository names the same top: git reports it with links resolved.
	linked := filepath.Join(t.TempDir(), "linked")
	if err := os.Symlink(r.dir, linked); err != nil {
		linked = r.dir
	}
	// A directory holding a .git that is no repository (an empty one, or a stray file) is not a work tree.
	fake := t.TempDir()
	if err := os.MkdirAll(filepath.Join(fake, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(fake))

	tests := []struct {
		name, dir, want, err string
	}{
		{name: "top", dir: r.dir, want: top},
		{name: "subdirectory", dir: r.path("prompts"), want: top},
		{name: "through a link", dir: filepath.Join(linked, "prompts"), want: top},
		{name: "worktree", dir: filepath.Join(wt, "prompts"), want: wtTop},
		{name: "fake .git", dir: fake, err: fake + " is not inside a git work tree (not a git repository"},
		{name: "inside .git", dir: r.path(".git"), err: r.path(".git") + " is not inside a git work tree ("},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := TopLevel(tt.dir)
			switch {
			case tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.err)):
				t.Errorf("TopLevel(%s) = %q, %v; want an error starting %q", tt.dir, got, err, tt.err)
			case tt.err == "" && (err != nil || got != tt.want):
				t.Errorf("TopLevel(%s) = %q, %v; want %q", tt.dir, got, err, tt.want)
			}
		})
	}
}

// TestWebURL: the remote addresses git accepts map to the repository's web address, without credentials; paths and
// file URLs have none.
func TestWebURL(t *testing.T) {
	tests := []struct {
		remote, want string
	}{
		{"https://github.com/promptc/promptc.git", "https://github.com/promptc/promptc"},
		{"https://github.com/promptc/promptc", "https://github.com/promptc/promptc"},
		{"https://github.com/promptc/promptc/", "https://github.com/promptc/promptc"},
		{"https://x-access-token:s3cret@github.com/promptc/promptc.git", "https://github.com/promptc/promptc"},
		{"https://git.example.com:8443/team/prompts.git", "https://git.example.com:8443/team/prompts"},
		{"git@github.com:promptc/promptc.git", "https://github.com/promptc/promptc"},
		{"github.com:promptc/promptc", "https://github.com/promptc/promptc"},
		{"ssh://git@github.com/promptc/promptc.git", "https://github.com/promptc/promptc"},
		{"ssh://git@gitlab.example.com:2222/group/sub/repo.git", "https://gitlab.example.com/group/sub/repo"},
		{"/srv/git/prompts.git", ""},
		{"../prompts", ""},
		{"file:///srv/git/prompts.git", ""},
		{"https://github.com/onlyowner", ""},
	}
	for _, tt := range tests {
		got, ok := webURL(tt.remote)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("webURL(%q) = %q, %v; want %q", tt.remote, got, ok, tt.want)
		}
	}
}
