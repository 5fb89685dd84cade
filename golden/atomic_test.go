package golden

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"testing"
	"time"
)

// helperEnv names the environment variable that turns the test binary into the process TestUpdateAtomic kills: its
// value is the golden directory to update.
const helperEnv = "PROMPTC_GOLDEN_UPDATE_HELPER"

// atomicTrees returns the tree before and after the update TestUpdateAtomic interrupts: files only in the old tree
// (stale), only in the new one (missing), changed, and unchanged, each large enough for a kill to land mid-write.
func atomicTrees(files, size int) (before, after map[string][]byte) {
	before, after = map[string][]byte{}, map[string][]byte{}
	content := func(i, version int) []byte {
		var seed [32]byte
		binary.LittleEndian.PutUint64(seed[:], uint64(i))
		binary.LittleEndian.PutUint64(seed[8:], uint64(version))
		b := make([]byte, size)
		rand.NewChaCha8(seed).Read(b)
		return b
	}
	stale, missing := files/20, files/20
	for i := range files {
		p := fmt.Sprintf("task%d/f%03d.runbook.md", i%4, i)
		if i >= missing {
			before[p] = content(i, 0)
		}
		if i < files-stale {
			if i%3 == 0 {
				after[p] = content(i, 0)
			} else {
				after[p] = content(i, 1)
			}
		}
	}
	return before, after
}

// raceEnabled is set by race_test.go in builds with the race detector.
var raceEnabled bool

// atomicSize is the size of the tree TestUpdateAtomic updates: smaller with -short, and with the race detector,
// which cannot look across the process boundary this test is about and only slows the helper down.
func atomicSize() (files, size int) {
	if testing.Short() || raceEnabled {
		return 40, 64 << 10
	}
	return 200, 256 << 10
}

// TestUpdateHelperProcess is not a test: TestUpdateAtomic runs the test binary with helperEnv set to get a process
// that runs Update and can be killed at any moment.
func TestUpdateHelperProcess(t *testing.T) {
	dir := os.Getenv(helperEnv)
	if dir == "" {
		t.Skip("helper process for TestUpdateAtomic")
	}
	_, after := atomicTrees(atomicSize())
	fmt.Println("ready")
	start := time.Now()
	if _, err := Update(dir, after); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(int64(time.Since(start)))
	os.Exit(0)
}

// startHelper starts the helper process updating dir and returns once it is about to call Update, with the rest of
// its output.
func startHelper(t *testing.T, dir string) (*exec.Cmd, *bufio.Reader) {
	t.Helper()
	args := []string{"-test.run=^TestUpdateHelperProcess$"}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	if err != nil || line != "ready\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper process: %q, %v", line, err)
	}
	return cmd, r
}

// resetTree makes dir hold exactly the old tree again, rewriting only what differs, without Update (and its syncs)
// for speed.
func resetTree(t *testing.T, dir string, tree map[string][]byte) {
	t.Helper()
	for _, name := range tempFiles(t, dir) {
		if err := os.Remove(name); err != nil {
			t.Fatal(err)
		}
	}
	got := mustRead(t, dir)
	for p := range got {
		if _, ok := tree[p]; !ok {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
				t.Fatal(err)
			}
		}
	}
	for p, data := range tree {
		if bytes.Equal(got[p], data) {
			continue
		}
		name := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUpdateAtomic kills a process in the middle of Update, at random moments, and checks that every file holds
// either its old bytes or its new bytes, that the temporary files left behind never show as part of the tree, and
// that the next Update removes them and finishes the job.
func TestUpdateAtomic(t *testing.T) {
	if os.Getenv(helperEnv) != "" {
		t.Skip("in the helper process")
	}
	before, after := atomicTrees(atomicSize())
	dir := filepath.Join(t.TempDir(), "golden")

	// One uninterrupted run measures how long Update takes here, so that the kills land inside it.
	resetTree(t, dir, before)
	cmd, out := startHelper(t, dir)
	var nanos int64
	if _, err := fmt.Fscan(out, &nanos); err != nil {
		t.Fatalf("helper process: reading how long Update took: %v", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper process: %v", err)
	}
	full := time.Duration(nanos)
	if got := mustRead(t, dir); !treesEqual(got, after) {
		t.Fatal("an uninterrupted Update did not write the new tree")
	}
	t.Logf("uninterrupted Update of %d files: %v", len(after), full)

	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 0))
	t.Logf("kill moments drawn with seed %d", seed)
	// The measured run is slower than the later ones (it creates every directory, the page cache is cold), so the
	// window the kills are drawn from shrinks whenever a kill comes too late to interrupt anything.
	window := full
	for round := range 6 {
		resetTree(t, dir, before)
		cmd, _ := startHelper(t, dir)
		delay := time.Duration(rng.Float64() * float64(window))
		time.Sleep(delay)
		cmd.Process.Kill()
		cmd.Wait()

		got := mustRead(t, dir)
		var olds, news int
		for p, data := range got {
			switch {
			case before[p] != nil && bytes.Equal(data, before[p]):
				olds++
			case after[p] != nil && bytes.Equal(data, after[p]):
				news++
			default:
				_, inOld := before[p]
				_, inNew := after[p]
				t.Errorf("round %d (killed after %v): %s (%d bytes; in old tree %v, in new tree %v) holds neither its old nor its new bytes",
					round, delay, p, len(data), inOld, inNew)
			}
		}
		for p := range before {
			if _, ok := after[p]; ok {
				if _, ok := got[p]; !ok {
					t.Errorf("round %d (killed after %v): %s, in both trees, vanished", round, delay, p)
				}
			}
		}
		if treesEqual(got, after) {
			window = delay
		}
		temps := tempFiles(t, dir)
		t.Logf("round %d: killed after %v: %d files old or unchanged, %d new, %d temporary files left",
			round, delay, olds, news, len(temps))
	}

	// The next Update cleans up after the last kill and completes the tree.
	if _, err := Update(dir, after); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, dir); !treesEqual(got, after) {
		t.Error("Update after a kill did not write the new tree")
	}
	if temps := tempFiles(t, dir); len(temps) != 0 {
		t.Errorf("Update after a kill left temporary files %q", temps)
	}
}

func treesEqual(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for p, data := range a {
		if other, ok := b[p]; !ok || !bytes.Equal(data, other) {
			return false
		}
	}
	return true
}

// tempFiles lists the files under dir named like atomicfile's temporary files.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if os.IsNotExist(err) && p == dir {
			return fs.SkipDir
		}
		if err != nil {
			return err
		}
		if ok, _ := path.Match(".*.tmp-*", d.Name()); ok {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
