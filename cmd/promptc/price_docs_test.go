package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsPriceOfAChange keeps the worked example of docs/usage.md's price section true, for diff and check: the reference project,
// committed, with identity moved ahead of the task blocks, priced at its collector file's traffic.
func TestDocsPriceOfAChange(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	page, err := os.ReadFile("../../docs/usage.md")
	if err != nil {
		t.Fatal(err)
	}
	_, shown, ok := strings.Cut(string(page), "The report ends with (stderr names the `issue` requests, which all share one time):\n\n```\n")
	if !ok {
		t.Fatal("docs/usage.md no longer shows the price of the worked example")
	}
	shown, _, _ = strings.Cut(shown, "```\n")

	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../examples/tracker")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "-m", "x"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	manifest := filepath.Join(dir, "promptc.toml")
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "  # global\n  \"header\",", "  # global\n  \"identity\",\n  \"header\",", 1)
	s = strings.Replace(s, "  # session\n  \"identity\",", "  # session", 1)
	if s == string(b) {
		t.Fatal("the reference project's runbook order no longer has identity first among the session blocks")
	}
	if err := os.WriteFile(manifest, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"promptc", "-C", dir, "diff", "--traffic", "logs/otel-traces.json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	_, got, ok := strings.Cut(stdout.String(), "\nPrice of the change")
	if !ok {
		t.Fatalf("no price in\n%s", stdout.String())
	}
	if got = "Price of the change" + got; got != shown {
		t.Errorf("docs/usage.md shows\n%s\nbut the command prints\n%s", shown, got)
	}
	// check prices the same change the same way, golden/ being what HEAD builds.
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"promptc", "-C", dir, "check", "--traffic", "logs/otel-traces.json"}, &stdout, &stderr); code != 1 {
		t.Fatalf("check: exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "\n"+shown+"\n") {
		t.Errorf("docs/usage.md shows\n%s\nbut promptc check prints\n%s", shown, stdout.String())
	}
}
