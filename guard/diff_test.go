package guard

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/golden"
	"github.com/promptc/promptc/source"
)

// dfRepo writes files into a new git repository, commits them, and returns the repository's directory.
func dfRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	dfWrite(t, dir, files)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "first"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func dfWrite(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, text := range files {
		name := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDiff(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed:", err)
	}
	dir := dfRepo(t, rpOld)
	dfWrite(t, dir, rpNew(t))

	res, err := Diff(dir, "", Options{Counter: cmpExpectCounter(t)})
	if err != nil {
		t.Fatal(err)
	}
	if res.OldMissing != nil || res.OldProblems != nil {
		t.Errorf("old side compared as empty: %v, %v", res.OldMissing, res.OldProblems)
	}
	// The same report as comparing the two compiled sides by hand, under the revision's name.
	want := rpReport(t)
	if res.Title() != rpTitle || len(res.Report.Changes) != len(want.Changes) {
		t.Fatalf("Diff: %q with %d changes, want %q with %d", res.Title(), len(res.Report.Changes), rpTitle, len(want.Changes))
	}
	for i, c := range res.Report.Changes {
		if w := want.Changes[i]; c.Path != w.Path || c.Diff != w.Diff || c.Block != w.Block || c.InvalidatedTokens != w.InvalidatedTokens {
			t.Errorf("change %d: %s %s, want %s %s", i, c.Path, c.Block, w.Path, w.Block)
		}
	}

	// With the working tree already built, the same report.
	prog, diags := assemble.LoadDir(dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	built, err := DiffArtifacts(dir, "", arts, Options{Counter: cmpExpectCounter(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(built.Report.Changes) != len(want.Changes) || built.Title() != res.Title() {
		t.Fatalf("DiffArtifacts: %q with %d changes, want %q with %d", built.Title(), len(built.Report.Changes), res.Title(), len(want.Changes))
	}
	for i, c := range built.Report.Changes {
		if w := res.Report.Changes[i]; c.Path != w.Path || c.Diff != w.Diff || c.Offset != w.Offset || c.InvalidatedTokens != w.InvalidatedTokens {
			t.Errorf("DiffArtifacts change %d: %s at %d, want %s at %d", i, c.Path, c.Offset, w.Path, w.Offset)
		}
	}

	if _, err := Diff(dir, "no-such-rev", Options{}); err == nil || !strings.Contains(err.Error(), "no-such-rev") {
		t.Errorf("Diff of an unknown revision: error %v", err)
	}
	// A working tree that does not compile is the caller's problem: diagnostics.
	dfWrite(t, dir, map[string]string{"blocks/main.toml": "[[block]]\nid = \"rules\"\nbody = \"{{.nope}}\"\n"})
	var broken source.Diagnostics
	if _, err := Diff(dir, "HEAD", Options{}); !errors.As(err, &broken) {
		t.Errorf("Diff of a broken working tree: error %v, want diagnostics", err)
	}
}

// TestDiffOldEmpty: a revision without the project, or whose project does not compile, is compared as empty, and
// the result says why.
func TestDiffOldEmpty(t *testing.T) {
	broken := cmpEdited(t, rpOld, cmpEdit{file: "blocks/main.toml", old: "{{.agent_name}}", new: "{{.agent}}"})
	dir := dfRepo(t, broken)
	dfWrite(t, dir, rpOld)
	res, err := Diff(dir, "HEAD", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.OldProblems) == 0 || res.OldMissing != nil {
		t.Errorf("OldProblems %v, OldMissing %v; want the old side's diagnostics", res.OldProblems, res.OldMissing)
	}
	for _, c := range res.Report.Changes {
		if c.Status != golden.Added {
			t.Errorf("%s: %v, want added", c.Path, c.Status)
		}
	}

	// The project in a subdirectory that HEAD does not have.
	sub := filepath.Join(dir, "sub")
	dfWrite(t, sub, rpOld)
	res, err = Diff(sub, "HEAD", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.OldMissing == nil || !strings.Contains(res.OldMissing.Error(), "no promptc project") {
		t.Errorf("OldMissing = %v, want why the revision has no project", res.OldMissing)
	}
	if !res.Changed() || res.Report.Changes[0].Status != golden.Added {
		t.Errorf("a revision without the project: every artifact should be new")
	}
}
