//go:build unix

package workspace_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/promptc/promptc/workspace"
)

// crashEnv names the environment variable that turns the test binary into the process TestInstallCrash kills: its
// value is the directory to install into.
const crashEnv = "PROMPTC_WORKSPACE_CRASH_HELPER"

// crashFiles returns the context file TestInstallCrash starts from (1 MiB of the user's text) and the two runbooks
// its helper installs in turn, 200 KB each: large enough that a kill lands in the middle of a write.
func crashFiles() (orig, a, b string) {
	var sb strings.Builder
	for i := 0; sb.Len() < 1<<20; i++ {
		fmt.Fprintf(&sb, "%07d: the user's own notes, which must survive every kill byte for byte.\n", i)
	}
	orig = sb.String()[:1<<20] // ends inside a line: the append must cope with any last byte
	runbook := func(name string) string {
		sb.Reset()
		for i := 0; sb.Len() < 200<<10; i++ {
			fmt.Fprintf(&sb, "Runbook %s, rule %06d: follow it.\n", name, i)
		}
		return sb.String()
	}
	return orig, runbook("A"), runbook("B")
}

// TestCrashHelperProcess is not a test: TestInstallCrash runs the test binary with crashEnv set to get a process
// that installs runbooks A and B in turn, for ever, until it is killed. It says "ready" once its first install is
// done: by then it has taken the lock and removed the temporary files earlier kills left.
func TestCrashHelperProcess(t *testing.T) {
	dir := os.Getenv(crashEnv)
	if dir == "" {
		t.Skip("helper process for TestInstallCrash")
	}
	_, a, b := crashFiles()
	tg := target()
	for i := 0; ; i++ {
		rb := a
		if i%2 == 1 {
			rb = b
		}
		if _, err := workspace.Install(dir, rb, tg); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if i == 0 {
			fmt.Println("ready")
		}
	}
}

// TestInstallCrash kills a process in the middle of installs, at random moments, and checks that the context file
// is always whole: the user's text with runbook A's block or with B's, never a mix of the two, never cut short (the
// kills come after the helper's first install, so the file without a block is not whole either). The temporary
// files a kill leaves are removed by the next install.
func TestInstallCrash(t *testing.T) {
	if os.Getenv(crashEnv) != "" {
		t.Skip("in the helper process")
	}
	if testing.Short() {
		t.Skip("kills 30 processes: skipped in -short mode")
	}
	if raceEnabled {
		t.Skip("the race detector cannot look across the process boundary this test is about, and makes each install several times slower: run without -race")
	}
	// The kills are drawn from the first 20 ms of the helper's run after its first install: an install takes about
	// that long here (10-25 ms, most of it fsync).
	const rounds, window = 30, 20 * time.Millisecond
	orig, a, b := crashFiles()
	tg := target()
	withA := orig + "\n\n" + string(workspace.Bytes(tg, a))
	withB := orig + "\n\n" + string(workspace.Bytes(tg, b))
	dir := t.TempDir()
	writeFile(t, dir, "CLAUDE.md", orig)
	temps := func() []string {
		t.Helper()
		names, err := filepath.Glob(filepath.Join(dir, ".CLAUDE.md.tmp-*"))
		if err != nil {
			t.Fatal(err)
		}
		return names
	}

	const seed = 20240917
	rng := rand.New(rand.NewPCG(seed, 0))
	t.Logf("kill moments drawn with seed %d", seed)
	seen := map[string]int{}
	left := 0
	for round := range rounds {
		stale := temps()
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelperProcess$")
		cmd.Env = append(os.Environ(), crashEnv+"="+dir)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, err := readLine(out, 30*time.Second); line != "ready" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("round %d: helper process: %q, %v", round, line, err)
		}
		for _, name := range stale {
			if _, err := os.Lstat(name); err == nil {
				t.Errorf("round %d: the helper's first install left %s, a temporary file of an earlier kill", round, filepath.Base(name))
			}
		}
		delay := time.Duration(rng.Int64N(int64(window)))
		time.Sleep(delay)
		cmd.Process.Kill() // SIGKILL: no deferred function, no cleanup runs
		cmd.Wait()

		data, err := os.ReadFile(filepath.Join(dir, "CLAUDE.md"))
		if err != nil {
			t.Fatalf("round %d (killed after %v): %v", round, delay, err)
		}
		switch string(data) {
		case withA:
			seen["A"]++
		case withB:
			seen["B"]++
		default:
			t.Fatalf("round %d (killed after %v): the file (%d bytes) is neither the user's text with block A (%d) nor with block B (%d)",
				round, delay, len(data), len(withA), len(withB))
		}
		left += len(temps())
	}
	t.Logf("states after the kills: %v; temporary files left by the kills: %d", seen, left)

	// The next install cleans up after the last kill, and uninstall gives back the user's text.
	if _, err := workspace.Install(dir, a, tg); err != nil {
		t.Fatal(err)
	}
	if names := temps(); len(names) != 0 {
		t.Errorf("Install after a kill left temporary files %q", names)
	}
	wantFile(t, dir, "CLAUDE.md", withA)
	if _, err := workspace.Uninstall(dir, tg); err != nil {
		t.Fatal(err)
	}
	wantFile(t, dir, "CLAUDE.md", orig)
}
