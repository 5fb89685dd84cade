package workspace_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/workspace"
)

// Several writers installing into one context file at once, each its own target (a daemon's workers, several
// promptc processes): every read-modify-write happens under the directory's lock, so no writer's block is lost and
// the user's text survives. Without the lock, a writer that read the file before another's rename writes back the
// bytes it read, and the other's block is gone; the runbooks change every round so that every install writes, and
// the file is large enough that a write takes a while, which makes that loss all but certain.

// flockable reports whether lockDir takes a real lock on this system: lock_flock.go's build constraint. Elsewhere
// it is documented not to serialise writers, and these tests do not apply.
func flockable() bool {
	switch runtime.GOOS {
	case "linux", "darwin", "freebsd", "netbsd", "openbsd", "dragonfly", "android", "ios":
		return true
	}
	return false
}

// raceEnabled is set by race_test.go in builds with the race detector, which cannot look across the process
// boundaries the tests of processes are about, and only slows their helpers down: those tests skip under it.
var raceEnabled bool

// userText is what the context file holds before the writers start: the repository's own instructions.
var userText = "# Notes\n\nThe repository's own instructions, which no install may lose.\n" +
	strings.Repeat("Keep this line byte for byte.\n", 2000)

// workerTarget is the target of writer i: its own markers, in the same file as every other writer's.
func workerTarget(i int) *blocks.Target {
	return &blocks.Target{
		Name:  "w" + strconv.Itoa(i),
		File:  "CLAUDE.md",
		Begin: fmt.Sprintf("<!-- BEGIN W%d -->", i),
		End:   fmt.Sprintf("<!-- END W%d -->", i),
	}
}

// workerRunbook is the runbook writer i installs in round r: a new one each round, so that each install writes.
func workerRunbook(i, r int) string {
	return fmt.Sprintf("Writer %d, round %d.\n", i, r) + strings.Repeat(fmt.Sprintf("Rule %d.\n", i), 200)
}

// checkWorkers fails the test unless data holds the user's text and, for writer i, exactly one block, of runbook
// workerRunbook(i, last): once each writer's block (with the "\n\n" before it) is taken out, the user's text is
// all that is left.
func checkWorkers(t *testing.T, data []byte, writers, last int) {
	t.Helper()
	rest := data
	for i := range writers {
		tg := workerTarget(i)
		sp, err := workspace.Find(data, tg)
		switch {
		case err != nil:
			t.Errorf("writer %d's block: %v, want one whole block", i, err)
			continue
		case !sp.Found:
			t.Errorf("writer %d's block is missing: it was lost", i)
			continue
		case string(data[sp.Start:sp.End]) != string(workspace.Bytes(tg, workerRunbook(i, last))):
			t.Errorf("writer %d's block is not its last runbook: %.60q", i, data[sp.Start:sp.End])
		}
		if rest, _, _, err = workspace.Uninstalled(rest, tg); err != nil {
			t.Errorf("writer %d: uninstall: %v", i, err)
		}
	}
	if string(rest) != userText {
		t.Errorf("with every block taken out, the file is %d bytes, want the user's %d: %.200q", len(rest), len(userText), rest)
	}
}

// TestConcurrentInstall: writers in one process (a daemon's goroutines) install into one file at once.
func TestConcurrentInstall(t *testing.T) {
	if !flockable() {
		t.Skipf("no flock on %s: concurrent installs are not serialised there", runtime.GOOS)
	}
	const writers, rounds = 8, 12
	dir := t.TempDir()
	writeFile(t, dir, "CLAUDE.md", userText)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tg := workerTarget(i)
			<-start
			for r := range rounds {
				if _, err := workspace.Install(dir, workerRunbook(i, r), tg); err != nil {
					t.Errorf("writer %d, round %d: %v", i, r, err)
					return
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	data, err := os.ReadFile(filepath.Join(dir, "CLAUDE.md"))
	if err != nil {
		t.Fatal(err)
	}
	checkWorkers(t, data, writers, rounds-1)
	if temps, _ := filepath.Glob(filepath.Join(dir, ".CLAUDE.md.tmp-*")); len(temps) != 0 {
		t.Errorf("temporary files left: %q", temps)
	}
}

// concurrentEnv names the environment variable that turns the test binary into one writer of
// TestConcurrentProcesses: its value is "DIR WRITER ROUNDS".
const concurrentEnv = "PROMPTC_WORKSPACE_CONCURRENT_HELPER"

// TestConcurrentHelperProcess is not a test: TestConcurrentProcesses runs the test binary with concurrentEnv set
// to get a writer in a process of its own. It says "ready", waits for its standard input to close, so that every
// writer starts at once, then installs its runbook of each round.
func TestConcurrentHelperProcess(t *testing.T) {
	v := os.Getenv(concurrentEnv)
	if v == "" {
		t.Skip("helper process for TestConcurrentProcesses")
	}
	var dir string
	var i, rounds int
	if _, err := fmt.Sscan(v, &dir, &i, &rounds); err != nil {
		fmt.Fprintln(os.Stderr, "bad", concurrentEnv, v, err)
		os.Exit(2)
	}
	fmt.Println("ready")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	for r := range rounds {
		if _, err := workspace.Install(dir, workerRunbook(i, r), workerTarget(i)); err != nil {
			fmt.Fprintf(os.Stderr, "writer %d, round %d: %v\n", i, r, err)
			os.Exit(1)
		}
	}
	os.Exit(0)
}

// TestConcurrentProcesses: writers in several processes (promptc install run by several hooks at once) install
// into one file at once; the lock is flock(2) on the directory, which processes share.
func TestConcurrentProcesses(t *testing.T) {
	if os.Getenv(concurrentEnv) != "" {
		t.Skip("in the helper process")
	}
	if !flockable() {
		t.Skipf("no flock on %s: concurrent installs are not serialised there", runtime.GOOS)
	}
	if raceEnabled {
		t.Skip("the race detector cannot look across processes, and TestConcurrentInstall runs the same code under it: run without -race")
	}
	const writers, rounds = 4, 12
	dir := t.TempDir()
	writeFile(t, dir, "CLAUDE.md", userText)
	type proc struct {
		cmd    *exec.Cmd
		stdin  interface{ Close() error }
		stderr bytes.Buffer
	}
	procs := make([]*proc, writers)
	for i := range procs {
		p := &proc{cmd: exec.Command(os.Args[0], "-test.run=^TestConcurrentHelperProcess$")}
		p.cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %d", concurrentEnv, dir, i, rounds))
		p.cmd.Stderr = &p.stderr
		in, err := p.cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out, err := p.cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
		p.stdin = in
		if line, err := readLine(out, 30*time.Second); line != "ready" {
			t.Fatalf("writer %d: %q, %v; stderr: %s", i, line, err, p.stderr.String())
		}
		procs[i] = p
	}
	for _, p := range procs {
		p.stdin.Close()
	}
	for i, p := range procs {
		if err := p.cmd.Wait(); err != nil {
			t.Errorf("writer %d: %v; stderr: %s", i, err, p.stderr.String())
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "CLAUDE.md"))
	if err != nil {
		t.Fatal(err)
	}
	checkWorkers(t, data, writers, rounds-1)
}

// readLine reads one line from r, without its newline, giving up after timeout (a helper process that hangs).
func readLine(r interface{ Read([]byte) (int, error) }, timeout time.Duration) (string, error) {
	type result struct {
		line string
		err  error
	}
	c := make(chan result, 1)
	go func() {
		line, err := bufio.NewReader(r).ReadString('\n')
		c <- result{strings.TrimSuffix(line, "\n"), err}
	}()
	select {
	case res := <-c:
		return res.line, res.err
	case <-time.After(timeout):
		return "", fmt.Errorf("no line after %v", timeout)
	}
}
