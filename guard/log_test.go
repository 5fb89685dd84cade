package guard_test

import (
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/usage"
)

// history makes dir a git repository holding the reference project, then commits commits edits to it: the odd ones
// change a global block, the even ones a turn block, one commit time a day apart.
func history(dir string, commits int) error {
	if err := os.CopyFS(dir, os.DirFS("../examples/tracker")); err != nil {
		return err
	}
	day := 0
	git := func(args ...string) error {
		cmd := exec.Command("git", append([]string{"-c", "user.email=dev@example.com", "-c", "user.name=Dev"}, args...)...)
		date := fmt.Sprintf("%d +0000", 1793523600+day*86400)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v\n%s", args, err, out)
		}
		return nil
	}
	if err := git("init", "-q"); err != nil {
		return err
	}
	if err := git("add", "."); err != nil {
		return err
	}
	if err := git("commit", "-q", "-m", "tracker"); err != nil {
		return err
	}
	for i := 1; i <= commits; i++ {
		day++
		file, old, new := "blocks/00-core.toml", "plan, build and review", "plan, make and review"
		if i%2 == 0 {
			file, old, new = "blocks/40-turn.toml", "Read it first with", "Read it with"
		}
		if (i-1)/2%2 == 1 {
			old, new = new, old
		}
		p := filepath.Join(dir, file)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
			return err
		}
		if err := git("commit", "-q", "-a", "-m", fmt.Sprintf("edit %d", i)); err != nil {
			return err
		}
	}
	return nil
}

// A prompt owner asks which commits invalidated cached prefixes: ReadLog compares each commit of the branch with
// its parent. Here one commit changes a global block (every task's cache) and one a turn message (none).
func ExampleReadLog() {
	dir, err := os.MkdirTemp("", "promptc-log")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := history(dir, 2); err != nil {
		log.Fatal(err)
	}
	l, err := guard.ReadLog(dir, "", guard.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(l.Title())
	for _, c := range l.Commits {
		fmt.Println(c.Time, c.Subject)
		for _, t := range c.Tasks {
			fmt.Printf("  %s: %s, scope %s, %d tokens\n", t.Task, t.Block, t.Scope, t.InvalidatedTokens)
		}
	}
	// Output:
	// promptc log HEAD: 1 commit changed a stable prefix, 2 others changed none
	// 2026-11-02T09:00:00Z edit 1
	//   autopilot: header, scope global, 4351 tokens
	//   chat: header, scope global, 3022 tokens
	//   issue: header, scope global, 4027 tokens
	//   quick_create: header, scope global, 1986 tokens
}

// BenchmarkReadLog reads 200 commits of the reference project: each compiled once, so the time is linear in
// commits times project size.
func BenchmarkReadLog(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("no git")
	}
	dir := b.TempDir()
	if err := history(dir, 200); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l, err := guard.ReadLog(dir, "", guard.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(l.Commits) != 100 {
			b.Fatalf("%d commits changed a prefix, want 100", len(l.Commits))
		}
	}
}

// TestLogTextQuotesNames: a commit subject or a range holding a terminal escape is printed quoted, never raw.
func TestLogTextQuotesNames(t *testing.T) {
	l := &guard.Log{Range: "main\x1b[2J", Commits: []guard.LogCommit{{Commit: "0123456789abcdef", Time: "2026-03-01T00:00:00Z", Subject: "fix\x1b]8;;http://x\x07"}}}
	var b strings.Builder
	if err := l.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(b.String(), "\x1b\x07") {
		t.Errorf("the text log holds a raw escape: %q", b.String())
	}
	if !strings.Contains(b.String(), `"fix\x1b]8;;http://x\a"`) {
		t.Errorf("the subject is not quoted: %q", b.String())
	}
}

// After a regression, the hit rate per day shows when it fell, and Series with Log puts the commits that
// invalidated a prefix on the same days: here the commit of the second day changed a global block.
func ExampleSeries() {
	dir, err := os.MkdirTemp("", "promptc-series")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := history(dir, 2); err != nil {
		log.Fatal(err)
	}
	logs := `{"time":"2026-11-02T09:30:00Z","task":"issue","response":{"id":"msg_1","type":"message","model":"claude-sonnet-4-5","usage":{"input_tokens":10,"cache_read_input_tokens":990,"output_tokens":5}}}
{"time":"2026-11-03T10:15:00Z","task":"issue","response":{"id":"msg_2","type":"message","model":"claude-sonnet-4-5","usage":{"input_tokens":10,"cache_creation_input_tokens":990,"output_tokens":5}}}
`
	tally := usage.NewTally()
	if _, err := tally.Read(strings.NewReader(logs), "log.jsonl"); err != nil {
		log.Fatal(err)
	}
	s, err := guard.Series(dir, tally, guard.SeriesOptions{By: usage.Day, Log: true})
	if err != nil {
		log.Fatal(err)
	}
	if err := s.Write(os.Stdout, report.Text); err != nil {
		log.Fatal(err)
	}
	// Output:
	//           day (UTC)  requests  input  cache read  hit rate  cost
	//   2026-11-02T00:00:00Z         1  1,000         990     99.0%     —
	//   commit 86d1013eac65, commit time 2026-11-02T09:00:00Z: edit 1 (autopilot, chat, issue, quick_create; 4,351 tokens of cached prefix invalidated)
	//   2026-11-03T00:00:00Z         1  1,000           0      0.0%     —
	// cost in input-price units (an uncached input token costs 1)
}
