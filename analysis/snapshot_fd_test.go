package analysis

import (
	"os"
	"runtime/debug"
	"testing"

	"github.com/promptc/promptc/internal/testenv"
)

// TestLoadDirClosesDirectories: a keystroke's load leaves no directory of the project open. The file system a load
// reads through holds each directory open (as an os.Root); were it left to the garbage collector, an editor, which
// loads once a keystroke and collects rarely, would hold hundreds of them.
func TestLoadDirClosesDirectories(t *testing.T) {
	if _, err := os.ReadDir("/proc/self/fd"); err != nil {
		testenv.Absent(t, "no /proc/self/fd to count open files with: %v", err)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // nothing is closed behind the test's back
	count := func() int {
		fds, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(fds)
	}
	LoadDir("../examples/tracker", nil) // whatever the first load opens for good (none expected)
	before := count()
	for range 20 {
		if s := LoadDir("../examples/tracker", map[string]string{}); len(s.Diagnostics()) > 0 {
			t.Fatal(s.Diagnostics())
		}
	}
	if after := count(); after > before+2 { // a little slack for the runtime's own
		t.Errorf("20 loads left %d more files open (%d, then %d)", after-before, before, after)
	}
}
