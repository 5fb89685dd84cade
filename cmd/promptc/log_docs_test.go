package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsLog keeps the worked example of docs/usage.md's history section true: the reference project committed,
// then a commit moving identity ahead of the task blocks and one editing a turn message, read back at the
// collector file's traffic. Commit hashes are shown as in the page, so they are the one thing compared loosely.
func TestDocsLog(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	page, err := os.ReadFile("../../docs/usage.md")
	if err != nil {
		t.Fatal(err)
	}
	_, shown, ok := strings.Cut(string(page), "prints (stderr names the `issue` requests, as for `diff`):\n\n```\n")
	if !ok {
		t.Fatal("docs/usage.md no longer shows the log of the worked example")
	}
	shown, _, _ = strings.Cut(shown, "```\n")

	dir := trackerHistory(t, "2026-11-01T09:00:00Z", "2026-11-02T14:30:00Z", "2026-11-03T10:00:00Z")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"promptc", "-C", dir, "log", "--traffic", "logs/otel-traces.json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	hash := regexp.MustCompile(`(?m)^[0-9a-f]{12} `)
	if got := hash.ReplaceAllString(stdout.String(), "0123456789ab "); got != shown {
		t.Errorf("docs/usage.md shows\n%s\nbut the command prints\n%s", shown, got)
	}
}

// trackerHistory is the reference project in a new repository: committed at first, then identity moved ahead of
// the task blocks at moved, then a shorter turn message at turn (commit times, RFC 3339).
func trackerHistory(t *testing.T, first, moved, turn string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../examples/tracker")); err != nil {
		t.Fatal(err)
	}
	git := func(date string, args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.email=a@b", "-c", "user.name=a"}, args...)...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	edit := func(file, old, new string) {
		p := filepath.Join(dir, file)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.Replace(string(b), old, new, 1)
		if s == string(b) {
			t.Fatalf("%s no longer holds %q", file, old)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(first, "init", "-q")
	git(first, "add", ".")
	git(first, "commit", "-q", "-m", "tracker")
	edit("promptc.toml", "  # global\n  \"header\",", "  # global\n  \"identity\",\n  \"header\",")
	edit("promptc.toml", "  # session\n  \"identity\",", "  # session")
	git(moved, "commit", "-q", "-a", "-m", "identity first")
	edit("blocks/40-turn.toml", "Read it first with", "Read it with")
	git(turn, "commit", "-q", "-a", "-m", "assignment: shorter")

	return dir
}

// TestDocsUsageByLog keeps docs/usage.md's series example true: the collector file per hour, marked with the
// commits of a history made during that hour.
func TestDocsUsageByLog(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	page, err := os.ReadFile("../../docs/usage.md")
	if err != nil {
		t.Fatal(err)
	}
	_, shown, ok := strings.Cut(string(page), "--by hour --log HEAD logs/otel-traces.json` prints:\n\n```\n")
	if !ok {
		t.Fatal("docs/usage.md no longer shows the series of the worked example")
	}
	shown, _, _ = strings.Cut(shown, "```\n")
	dir := trackerHistory(t, "2026-12-01T09:00:00Z", "2026-12-01T10:20:00Z", "2026-12-01T10:40:00Z")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"promptc", "-C", dir, "usage", "--by", "hour", "--log", "HEAD", "logs/otel-traces.json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	hash := regexp.MustCompile(`commit [0-9a-f]{12},`)
	if got := hash.ReplaceAllString(stdout.String(), "commit 0123456789ab,"); got != shown {
		t.Errorf("docs/usage.md shows\n%s\nbut the command prints\n%s", shown, got)
	}
}
