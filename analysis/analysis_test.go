package analysis

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
)

// tracker loads the reference project with the given documents overlaid.
func tracker(t testing.TB, over map[string]string) *Snapshot {
	t.Helper()
	return LoadDir(filepath.Join("..", "examples", "tracker"), over)
}

// offsetOf returns the byte offset of the n-th (from 0) occurrence of needle in file name of s, plus delta.
func offsetOf(t testing.TB, s *Snapshot, name, needle string, n, delta int) int {
	t.Helper()
	f := s.File(name)
	if f == nil {
		t.Fatalf("no file %s", name)
	}
	off := -1
	for i, from := 0, 0; i <= n; i++ {
		k := strings.Index(f.Text[from:], needle)
		if k < 0 {
			t.Fatalf("%s: %q occurs fewer than %d times", name, needle, n+1)
		}
		off, from = from+k, from+k+1
	}
	return off + delta
}

func rangeStrings(rs []blocks.Range) []string {
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s:%d:%d-%d", r.Filename, r.Start.Line, r.Start.Column, r.End.Column))
	}
	return out
}

func TestTrackerLoads(t *testing.T) {
	s := tracker(t, nil)
	if d := s.Diagnostics(); len(d) > 0 {
		t.Fatalf("tracker has diagnostics: %v", d)
	}
	if d := s.Lint(); len(d) > 0 {
		t.Logf("lint: %v", d)
	}
	_ = os.Stdout
}
