package guard_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/guard"
)

// checkPrompts is the test a team writes in its own repository to keep its prompts byte for byte as reviewed: load
// the project, compare it with golden/, and fail with the report a reviewer reads when anything differs.
func checkPrompts(t *testing.T, dir string) {
	t.Helper()
	prog, diags := assemble.LoadDir(dir)
	if len(diags) > 0 {
		t.Fatalf("the prompts do not compile:\n%v", diags)
	}
	res, err := guard.Check(prog, filepath.Join(dir, "golden"), guard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed() {
		var report strings.Builder
		if err := res.WriteText(&report, guard.TextOptions{}); err != nil {
			t.Fatal(err)
		}
		t.Fatalf("the prompts differ from golden/ (accept with promptc -C %s check --update):\n%s", dir, report.String())
	}
}

// TestTrackerPromptsMatchGolden: my prompts still match golden/.
func TestTrackerPromptsMatchGolden(t *testing.T) {
	checkPrompts(t, filepath.Join("..", "examples", "tracker"))
}

// TestTrackerDriftFails: the same test, on a copy of the project whose golden file drifted by one byte, fails with
// the report naming the artifact.
func TestTrackerDriftFails(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "examples", "tracker"))); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "golden", "chat", "basic.runbook.md")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, diags := assemble.LoadDir(dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	res, err := guard.Check(prog, filepath.Join(dir, "golden"), guard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Passed() || !res.Changed() {
		t.Fatalf("a drifted golden file passed: Passed %v, Changed %v", res.Passed(), res.Changed())
	}
	var report strings.Builder
	if err := res.WriteText(&report, guard.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"promptc check: 1 artifact differs from golden/\n", "\nchat/basic.runbook.md: changed at byte "} {
		if !strings.Contains(report.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, report.String())
		}
	}
}
