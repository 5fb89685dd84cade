package hook

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/promptc/promptc/internal/testenv"
)

// binDir holds the promptc binary TestMain builds from this module, for the test that commits through the real
// check; buildErr says why it could not. The other tests point $PROMPTC at a stand-in that logs how it was called.
var (
	binDir   string
	buildErr error
)

// TestMain isolates git from the machine's configuration and from any repository the tests run inside (go test run
// from a hook inherits GIT_DIR and GIT_INDEX_FILE), and builds the promptc binary.
func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	tmp, err := os.MkdirTemp("", "promptc-hook-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "GIT_") || name == "PROMPTC" {
			os.Unsetenv(name)
		}
	}
	gitconfig := filepath.Join(tmp, "gitconfig")
	config := "[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"
	if err := os.WriteFile(gitconfig, []byte(config), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Setenv("GIT_CONFIG_GLOBAL", gitconfig) // in place of ~/.gitconfig and $XDG_CONFIG_HOME/git/config

	binDir = filepath.Join(tmp, "bin")
	buildErr = buildPromptc(binDir)
	return m.Run()
}

// buildPromptc builds cmd/promptc of the module holding this package into dir.
func buildPromptc(dir string) error {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return fmt.Errorf("go env GOMOD: %v", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return errors.New("go env GOMOD: not inside a module")
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "promptc"), "./cmd/promptc")
	cmd.Dir = filepath.Dir(gomod)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/promptc: %v\n%s", err, out)
	}
	return nil
}

func needGit(t *testing.T) {
	t.Helper()
	testenv.LookPath(t, "git")
}

// newRepo makes a git work tree with one commit and returns its top, symbolic links resolved as Install reports it.
func newRepo(t *testing.T) string {
	t.Helper()
	needGit(t)
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	git(t, top, "init", "-q")
	writeFile(t, filepath.Join(top, "README.md"), "readme\n", 0o644)
	git(t, top, "add", "-A")
	git(t, top, "commit", "-q", "--no-verify", "-m", "initial")
	return top
}

// newProject makes an (empty) promptc project at dir: the stand-in promptc only needs its promptc.toml.
func newProject(t *testing.T, dir string) string {
	t.Helper()
	writeFile(t, filepath.Join(dir, "promptc.toml"), "name = \"p\"\ntasks = [\"t\"]\n", 0o644)
	return dir
}

// fakePromptc puts a stand-in promptc in $PROMPTC that appends "WORKDIR ARGS" to the returned log and exits with
// $FAKE_STATUS.
func fakePromptc(t *testing.T) (log string) {
	t.Helper()
	dir := t.TempDir()
	log = filepath.Join(dir, "log")
	bin := filepath.Join(dir, "fake-promptc")
	writeFile(t, bin, "#!/bin/sh\necho \"$PWD $*\" >> '"+log+"'\nexit ${FAKE_STATUS:-0}\n", 0o755)
	t.Setenv("PROMPTC", bin)
	t.Setenv("FAKE_STATUS", "0")
	return log
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := runGit(dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(out)
}

func runGit(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// commit stages everything and commits, hooks enabled; it returns git's output and whether the commit was made.
func commit(t *testing.T, dir, msg string) (string, bool) {
	t.Helper()
	before := git(t, dir, "rev-parse", "HEAD")
	git(t, dir, "add", "-A")
	out, err := runGit(dir, "commit", "-q", "-m", msg)
	after := git(t, dir, "rev-parse", "HEAD")
	if err == nil && after == before {
		t.Fatalf("git commit succeeded but HEAD did not move:\n%s", out)
	}
	if err != nil && after != before {
		t.Fatalf("git commit failed but HEAD moved: %v\n%s", err, out)
	}
	return out, err == nil
}

func writeFile(t *testing.T, name, data string, perm os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, perm); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func readLog(t *testing.T, log string) []string {
	t.Helper()
	data, err := os.ReadFile(log)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func install(t *testing.T, root string, opts Options) Result {
	t.Helper()
	r, err := Install(root, opts)
	if err != nil {
		t.Fatalf("Install(%s): %v", root, err)
	}
	return r
}

func TestInstallFresh(t *testing.T) {
	top := newRepo(t)
	log := fakePromptc(t)
	newProject(t, top)

	r := install(t, top, Options{})
	hookPath := filepath.Join(top, ".git", "hooks", "pre-commit")
	want := Result{Action: Added, Top: top, Hook: hookPath, Project: ".", Projects: []string{"."}}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("Install:\n got %+v\nwant %+v", r, want)
	}
	if got, want := r.Summary(), "installed .git/hooks/pre-commit (runs: promptc -C . check)"; got != want {
		t.Errorf("Summary:\n got %s\nwant %s", got, want)
	}
	if got := readFile(t, hookPath); got != string(Script([]string{"."})) {
		t.Errorf("hook text:\n%s", got)
	}
	if fi, err := os.Stat(hookPath); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("hook mode: %v %v, want 0755", fi.Mode(), err)
	}
	if _, err := os.Lstat(filepath.Join(top, ".git", "hooks", LocalName)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s exists after a fresh install: %v", LocalName, err)
	}

	writeFile(t, filepath.Join(top, "a.txt"), "a\n", 0o644)
	if out, ok := commit(t, top, "a"); !ok {
		t.Fatalf("commit refused:\n%s", out)
	}
	if got, want := readLog(t, log), []string{top + " -C . check"}; !reflect.DeepEqual(got, want) {
		t.Errorf("promptc ran as %q, want %q", got, want)
	}

	t.Setenv("FAKE_STATUS", "1")
	writeFile(t, filepath.Join(top, "b.txt"), "b\n", 0o644)
	if out, ok := commit(t, top, "b"); ok {
		t.Fatalf("commit made although promptc check failed:\n%s", out)
	}
}

func TestInstallKeepsForeignHook(t *testing.T) {
	top := newRepo(t)
	log := fakePromptc(t)
	newProject(t, top)
	hooks := filepath.Join(top, ".git", "hooks")
	// The foreign hook leaves a trace in the work tree (git runs hooks from its top) and fails on demand.
	foreign := "#!/bin/sh\necho \"$(basename \"$0\") ran\" >> foreign-ran.log\nexit ${FOREIGN_STATUS:-0}\n"
	writeFile(t, filepath.Join(hooks, "pre-commit"), foreign, 0o755)

	r := install(t, top, Options{})
	if !r.Kept || !r.Chained || r.Replaced || r.Action != Added {
		t.Errorf("Install: %+v, want Kept and Chained", r)
	}
	want := "installed .git/hooks/pre-commit (runs: promptc -C . check); kept your existing hook as pre-commit.local, which runs first"
	if got := r.Summary(); got != want {
		t.Errorf("Summary:\n got %s\nwant %s", got, want)
	}
	if got := readFile(t, filepath.Join(hooks, LocalName)); got != foreign {
		t.Errorf("%s holds %q, want the old hook %q", LocalName, got, foreign)
	}
	if fi, err := os.Stat(filepath.Join(hooks, LocalName)); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("%s mode: %v %v, want 0755 kept", LocalName, fi.Mode(), err)
	}

	writeFile(t, filepath.Join(top, "a.txt"), "a\n", 0o644)
	if out, ok := commit(t, top, "a"); !ok {
		t.Fatalf("commit refused:\n%s", out)
	}
	if got, want := readFile(t, filepath.Join(top, "foreign-ran.log")), "pre-commit.local ran\n"; got != want {
		t.Errorf("foreign hook trace %q, want %q", got, want)
	}
	if got := readLog(t, log); len(got) != 1 {
		t.Errorf("promptc ran %d times, want once: %q", len(got), got)
	}

	// A failing foreign hook still stops the commit, before promptc runs.
	t.Setenv("FOREIGN_STATUS", "3")
	os.Remove(log)
	writeFile(t, filepath.Join(top, "b.txt"), "b\n", 0o644)
	if out, ok := commit(t, top, "b"); ok {
		t.Fatalf("commit made although the kept hook failed:\n%s", out)
	}
	if got := readLog(t, log); got != nil {
		t.Errorf("promptc ran after the kept hook failed: %q", got)
	}
}

// A hook git would not run (not executable) is kept as it is, and the summary says it does not run.
func TestInstallKeepsDisabledHook(t *testing.T) {
	top := newRepo(t)
	newProject(t, top)
	hooks := filepath.Join(top, ".git", "hooks")
	writeFile(t, filepath.Join(hooks, "pre-commit"), "#!/bin/sh\nexit 1\n", 0o644)

	r := install(t, top, Options{})
	if !r.Kept || r.Chained {
		t.Errorf("Install: %+v, want Kept, not Chained", r)
	}
	want := "installed .git/hooks/pre-commit (runs: promptc -C . check); kept your existing hook as pre-commit.local (not executable, so it does not run)"
	if got := r.Summary(); got != want {
		t.Errorf("Summary:\n got %s\nwant %s", got, want)
	}
	if fi, err := os.Stat(filepath.Join(hooks, LocalName)); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("%s mode: %v %v, want 0644 kept", LocalName, fi.Mode(), err)
	}
}

func TestInstallTwiceIsIdempotent(t *testing.T) {
	top := newRepo(t)
	fakePromptc(t)
	root := newProject(t, filepath.Join(top, "prompts"))
	hooks := filepath.Join(top, ".git", "hooks")
	foreign := "#!/bin/sh\nexit 0\n"
	writeFile(t, filepath.Join(hooks, "pre-commit"), foreign, 0o755)

	first := install(t, root, Options{})
	hook := readFile(t, first.Hook)
	second := install(t, root, Options{})
	if second.Action != Unchanged || second.Kept || !second.Chained {
		t.Errorf("second Install: %+v, want Unchanged, Chained", second)
	}
	want := ".git/hooks/pre-commit is up to date (runs: promptc -C prompts check); pre-commit.local runs first"
	if got := second.Summary(); got != want {
		t.Errorf("Summary:\n got %s\nwant %s", got, want)
	}
	if got := readFile(t, second.Hook); got != hook {
		t.Errorf("hook changed by a second install:\n%s", got)
	}
	if got := readFile(t, filepath.Join(hooks, LocalName)); got != foreign {
		t.Errorf("%s changed by a second install: %q", LocalName, got)
	}

	// A hook made not executable (to disable it) is made executable again by installing.
	if err := os.Chmod(first.Hook, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := install(t, root, Options{}); r.Action != Updated {
		t.Errorf("Install over a non-executable hook: %v, want Updated", r.Action)
	}
	if fi, err := os.Stat(first.Hook); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("hook mode: %v %v, want 0755", fi.Mode(), err)
	}
}

func TestInstallConflict(t *testing.T) {
	top := newRepo(t)
	newProject(t, top)
	hooks := filepath.Join(top, ".git", "hooks")
	foreign, local := "#!/bin/sh\necho foreign\n", "#!/bin/sh\necho local\n"
	writeFile(t, filepath.Join(hooks, "pre-commit"), foreign, 0o755)
	writeFile(t, filepath.Join(hooks, LocalName), local, 0o755)

	_, err := Install(top, Options{})
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("Install: %v, want a ConflictError", err)
	}
	want := filepath.Join(hooks, "pre-commit") + " is not promptc's hook and " + filepath.Join(hooks, LocalName) +
		" exists, so it cannot be kept there: merge the two by hand into pre-commit.local and remove pre-commit, " +
		"or pass --force to overwrite pre-commit"
	if err.Error() != want {
		t.Errorf("error:\n got %s\nwant %s", err, want)
	}
	if readFile(t, filepath.Join(hooks, "pre-commit")) != foreign || readFile(t, filepath.Join(hooks, LocalName)) != local {
		t.Errorf("a refused install changed the hooks")
	}

	r := install(t, top, Options{Force: true})
	if !r.Replaced || r.Kept || !r.Chained {
		t.Errorf("Install --force: %+v, want Replaced, Chained", r)
	}
	want = "installed .git/hooks/pre-commit (runs: promptc -C . check); replaced your existing hook (--force); pre-commit.local runs first"
	if got := r.Summary(); got != want {
		t.Errorf("Summary:\n got %s\nwant %s", got, want)
	}
	if !IsOurs([]byte(readFile(t, r.Hook))) || readFile(t, filepath.Join(hooks, LocalName)) != local {
		t.Errorf("--force: want promptc's hook and %s untouched", LocalName)
	}
}

func TestInstallHooksPath(t *testing.T) {
	for _, tc := range []struct {
		name      string
		hooksPath func(top string) string // the core.hooksPath value
		want      func(top string) string // the hook Install must write
		summary   string                  // "" when the hook is outside the work tree
	}{{
		name:      "relative",
		hooksPath: func(string) string { return ".githooks" },
		want:      func(top string) string { return filepath.Join(top, ".githooks", "pre-commit") },
		summary:   "installed .githooks/pre-commit (runs: promptc -C prompts check)",
	}, {
		name:      "absolute",
		hooksPath: func(top string) string { return filepath.Join(filepath.Dir(top), "shared-hooks") },
		want:      func(top string) string { return filepath.Join(filepath.Dir(top), "shared-hooks", "pre-commit") },
	}} {
		t.Run(tc.name, func(t *testing.T) {
			parent, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			top := filepath.Join(parent, "repo")
			if err := os.Mkdir(top, 0o755); err != nil {
				t.Fatal(err)
			}
			needGit(t)
			git(t, top, "init", "-q")
			git(t, top, "commit", "-q", "--allow-empty", "-m", "initial")
			git(t, top, "config", "core.hooksPath", tc.hooksPath(top))
			log := fakePromptc(t)
			root := newProject(t, filepath.Join(top, "prompts"))

			r := install(t, root, Options{})
			if r.Hook != tc.want(top) {
				t.Errorf("hook written to %s, want %s", r.Hook, tc.want(top))
			}
			summary := tc.summary
			if summary == "" {
				summary = "installed " + tc.want(top) + " (runs: promptc -C prompts check)"
			}
			if got := r.Summary(); got != summary {
				t.Errorf("Summary:\n got %s\nwant %s", got, summary)
			}
			if _, err := os.Stat(filepath.Join(top, ".git", "hooks", "pre-commit")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf(".git/hooks/pre-commit written although core.hooksPath is set: %v", err)
			}
			writeFile(t, filepath.Join(top, "a.txt"), "a\n", 0o644)
			if out, ok := commit(t, top, "a"); !ok {
				t.Fatalf("commit refused:\n%s", out)
			}
			if got, want := readLog(t, log), []string{top + " -C prompts check"}; !reflect.DeepEqual(got, want) {
				t.Errorf("promptc ran as %q, want %q", got, want)
			}
		})
	}
}

func TestInstallSubdirectory(t *testing.T) {
	top := newRepo(t)
	log := fakePromptc(t)
	root := newProject(t, filepath.Join(top, "examples", "my tracker"))

	r := install(t, root, Options{})
	if r.Project != "examples/my tracker" {
		t.Errorf("Project %q, want %q", r.Project, "examples/my tracker")
	}
	if got, want := r.Summary(), "installed .git/hooks/pre-commit (runs: promptc -C 'examples/my tracker' check)"; got != want {
		t.Errorf("Summary:\n got %s\nwant %s", got, want)
	}
	// Committing from another subdirectory still checks the project: the hook works from the top.
	other := filepath.Join(top, "src")
	writeFile(t, filepath.Join(other, "a.txt"), "a\n", 0o644)
	git(t, other, "add", "-A")
	if out, err := runGit(other, "commit", "-q", "-m", "a"); err != nil {
		t.Fatalf("commit refused: %v\n%s", err, out)
	}
	if got, want := readLog(t, log), []string{top + " -C examples/my tracker check"}; !reflect.DeepEqual(got, want) {
		t.Errorf("promptc ran as %q, want %q", got, want)
	}
}

func TestInstallTwoProjects(t *testing.T) {
	top := newRepo(t)
	log := fakePromptc(t)
	a := newProject(t, filepath.Join(top, "a"))
	b := newProject(t, filepath.Join(top, "b", "c"))

	install(t, b, Options{})
	r := install(t, a, Options{})
	if r.Action != Updated || !reflect.DeepEqual(r.Projects, []string{"a", "b/c"}) {
		t.Errorf("second project: %+v, want Updated with both projects", r)
	}
	if got, want := r.Summary(), "updated .git/hooks/pre-commit (runs: promptc -C a check, promptc -C b/c check)"; got != want {
		t.Errorf("Summary:\n got %s\nwant %s", got, want)
	}
	if r := install(t, b, Options{}); r.Action != Unchanged {
		t.Errorf("reinstalling the first project: %v, want Unchanged", r.Action)
	}

	// Both projects are checked, even when the first fails, and the commit is refused.
	t.Setenv("FAKE_STATUS", "1")
	writeFile(t, filepath.Join(top, "x.txt"), "x\n", 0o644)
	if out, ok := commit(t, top, "x"); ok {
		t.Fatalf("commit made although both checks failed:\n%s", out)
	}
	want := []string{top + " -C a check", top + " -C b/c check"}
	if got := readLog(t, log); !reflect.DeepEqual(got, want) {
		t.Errorf("promptc ran as %q, want %q", got, want)
	}

	// A project missing from the checkout is skipped, not failed.
	t.Setenv("FAKE_STATUS", "0")
	os.Remove(log)
	if err := os.RemoveAll(filepath.Join(top, "b")); err != nil {
		t.Fatal(err)
	}
	out, ok := commit(t, top, "x")
	if !ok {
		t.Fatalf("commit refused:\n%s", out)
	}
	if !strings.Contains(out, "skipping b/c: no promptc.toml there") {
		t.Errorf("commit output does not mention the skipped project:\n%s", out)
	}
	if got, want := readLog(t, log), []string{top + " -C a check"}; !reflect.DeepEqual(got, want) {
		t.Errorf("promptc ran as %q, want %q", got, want)
	}
}

// TestInstallNewlineProject: a project whose path holds a newline survives the install of a second project, and the
// hook checks both.
func TestInstallNewlineProject(t *testing.T) {
	top := newRepo(t)
	log := fakePromptc(t)
	odd := newProject(t, filepath.Join(top, "odd\nname 'quoted' $x"))
	plain := newProject(t, filepath.Join(top, "plain"))

	if r := install(t, odd, Options{}); !reflect.DeepEqual(r.Projects, []string{"odd\nname 'quoted' $x"}) {
		t.Errorf("first project: %q", r.Projects)
	}
	r := install(t, plain, Options{})
	want := []string{"odd\nname 'quoted' $x", "plain"}
	if r.Action != Updated || !reflect.DeepEqual(r.Projects, want) {
		t.Errorf("second project: %v %q, want Updated with %q", r.Action, r.Projects, want)
	}
	if got := Projects([]byte(readFile(t, r.Hook))); !reflect.DeepEqual(got, want) {
		t.Errorf("the hook checks %q, want %q", got, want)
	}
	if r := install(t, odd, Options{}); r.Action != Unchanged {
		t.Errorf("reinstalling the first project: %v, want Unchanged", r.Action)
	}

	writeFile(t, filepath.Join(top, "x.txt"), "x\n", 0o644)
	if out, ok := commit(t, top, "x"); !ok {
		t.Fatalf("commit refused:\n%s", out)
	}
	// The stand-in logs "$PWD $*", so the first entry spans two lines.
	if got, want := readFile(t, log), top+" -C odd\nname 'quoted' $x check\n"+top+" -C plain check\n"; got != want {
		t.Errorf("promptc ran as\n%q\nwant\n%q", got, want)
	}
}

func TestInstallWorktree(t *testing.T) {
	top := newRepo(t)
	newProject(t, filepath.Join(top, "prompts"))
	git(t, top, "add", "-A")
	git(t, top, "commit", "-q", "-m", "project")
	wt := filepath.Join(filepath.Dir(top), filepath.Base(top)+"-wt")
	git(t, top, "worktree", "add", "-q", wt)
	t.Cleanup(func() { os.RemoveAll(wt) })

	// Worktrees share the main repository's hooks, so the hook lands there with a path that holds in both.
	r := install(t, filepath.Join(wt, "prompts"), Options{})
	if want := filepath.Join(top, ".git", "hooks", "pre-commit"); r.Hook != want {
		t.Errorf("hook written to %s, want %s", r.Hook, want)
	}
	if !reflect.DeepEqual(r.Projects, []string{"prompts"}) {
		t.Errorf("Projects %q, want [prompts]", r.Projects)
	}
}

func TestInstallOutsideRepository(t *testing.T) {
	needGit(t)
	dir := newProject(t, t.TempDir())
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	_, err := Install(dir, Options{})
	if err == nil || !strings.Contains(err.Error(), "is not inside a git work tree (not a git repository") {
		t.Errorf("Install outside a repository: %v", err)
	}
}

// TestHookStopsDriftedCommit commits through the real promptc check: a copy of the reference project whose golden
// file is one byte off cannot be committed, and can once the byte is put back.
func TestHookStopsDriftedCommit(t *testing.T) {
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	top := newRepo(t)
	t.Setenv("PATH", binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	root := filepath.Join(top, "prompts")
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "examples", "tracker"))); err != nil {
		t.Fatal(err)
	}
	check := exec.Command("promptc", "-C", root, "check")
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("promptc check of the reference project: %v\n%s", err, out)
	}
	git(t, top, "add", "-A")
	git(t, top, "commit", "-q", "--no-verify", "-m", "project")
	install(t, root, Options{})

	golden := filepath.Join(root, "golden", "issue", "basic.runbook.md")
	orig := readFile(t, golden)
	i := strings.Index(orig, "Tracker")
	if i < 0 {
		t.Fatalf("%s does not mention Tracker", golden)
	}
	writeFile(t, golden, orig[:i]+"t"+orig[i+1:], 0o644) // one byte: T → t
	writeFile(t, filepath.Join(root, "README.md"), readFile(t, filepath.Join(root, "README.md"))+"\nMore.\n", 0o644)
	out, ok := commit(t, top, "drift")
	if ok {
		t.Fatalf("commit of a drifted golden file was made:\n%s", out)
	}
	if !strings.Contains(out, "basic.runbook.md") {
		t.Errorf("refused commit does not name the drifted artifact:\n%s", out)
	}

	writeFile(t, golden, orig, 0o644)
	if out, ok := commit(t, top, "readme"); !ok {
		t.Fatalf("commit refused after the golden file was fixed:\n%s", out)
	}
}

func TestScriptRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name     string
		projects []string
		want     []string
	}{
		{name: "top", projects: []string{"."}, want: []string{"."}},
		{name: "sorted and deduplicated", projects: []string{"b", "a", "b"}, want: []string{"a", "b"}},
		{name: "quotes and spaces", projects: []string{"it's here", `a "b" $c`}, want: []string{`a "b" $c`, "it's here"}},
		{name: "none", projects: nil, want: nil},
		// A quoted path spans lines when it holds a newline; what follows one must not be read as a line of its own.
		{name: "newline", projects: []string{"new\nline", "a"}, want: []string{"a", "new\nline"}},
		{name: "newlines and quotes", projects: []string{"it's\n'here'\n", "\n", "\n\n'"}, want: []string{"\n", "\n\n'", "it's\n'here'\n"}},
		{name: "a check line inside a path", projects: []string{"x\ncheck_project 'evil'\ny"}, want: []string{"x\ncheck_project 'evil'\ny"}},
		{name: "an unclosed quote inside a path", projects: []string{"x\ncheck_project 'evil\ny"}, want: []string{"x\ncheck_project 'evil\ny"}},
		{name: "backslashes and dollars", projects: []string{`back\slash\`, `$HOME ${x} $(id) ` + "`id`", `\'`}, want: []string{`$HOME ${x} $(id) ` + "`id`", `\'`, `back\slash\`}},
		{name: "spaces and tabs", projects: []string{" lead", "trail ", "in\tside", "cr\r\nlf\r"}, want: []string{" lead", "cr\r\nlf\r", "in\tside", "trail "}},
		{name: "empty", projects: []string{""}, want: []string{""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			script := Script(tc.projects)
			if !IsOurs(script) {
				t.Errorf("IsOurs(Script) = false")
			}
			if got := Projects(script); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Projects(Script(%q)) = %q, want %q", tc.projects, got, tc.want)
			}
			if !bytes.Equal(script, Script(tc.want)) {
				t.Errorf("Script depends on the order of its input")
			}
		})
	}
	if IsOurs([]byte("#!/bin/sh\n# not " + Marker + "\n")) {
		t.Errorf("IsOurs: a hook quoting the marker inside a line counts as ours")
	}
}

// TestScriptQuoting runs the hook's check lines under sh: paths with quotes, spaces and dollars reach promptc intact.
func TestScriptQuoting(t *testing.T) {
	testenv.LookPath(t, "sh")
	top := newRepo(t)
	log := fakePromptc(t)
	projects := []string{"it's here", `a "b" $c`, "tab\there"}
	for _, p := range projects {
		newProject(t, filepath.Join(top, p))
	}
	hook := filepath.Join(t.TempDir(), "pre-commit")
	writeFile(t, hook, string(Script(projects)), 0o755)
	cmd := exec.Command(hook)
	cmd.Dir = top
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hook: %v\n%s", err, out)
	}
	want := []string{top + ` -C a "b" $c check`, top + " -C it's here check", top + " -C tab\there check"}
	if got := readLog(t, log); !reflect.DeepEqual(got, want) {
		t.Errorf("promptc ran as %q, want %q", got, want)
	}
}
