//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/promptc/promptc/internal/testenv"
)

// TestWriteKeepsOwner: a file written with Like takes the owner and group of the file it replaces, as a root
// process writing into a user's file must leave it the user's; without Like, the file is the process's.
func TestWriteKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Absent(t, "changing a file's owner takes root, and this runs as uid %d", os.Geteuid())
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "CLAUDE.md")
	if err := os.WriteFile(name, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const uid, gid = 4242, 4343
	if err := os.Chown(name, uid, gid); err != nil {
		t.Fatal(err)
	}
	like, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	owner := func() (int, int) {
		fi, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		return int(st.Uid), int(st.Gid)
	}
	if err := WriteAll([]File{{Name: name, Data: []byte("new\n"), Perm: 0o644, Like: like}}); err != nil {
		t.Fatal(err)
	}
	if u, g := owner(); u != uid || g != gid {
		t.Errorf("owner %d:%d after a write with Like, want %d:%d", u, g, uid, gid)
	}
	if err := WriteAll([]File{{Name: name, Data: []byte("newer\n"), Perm: 0o644}}); err != nil {
		t.Fatal(err)
	}
	if u, g := owner(); u != os.Geteuid() || g != os.Getegid() {
		t.Errorf("owner %d:%d after a write without Like, want the process's", u, g)
	}
	// Like naming the process's own owner changes nothing and still writes.
	self, _ := os.Stat(name)
	if err := WriteAll([]File{{Name: name, Data: []byte("newest\n"), Perm: 0o644, Like: self}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(name); string(got) != "newest\n" {
		t.Errorf("after a write with Like of the process's own file: %q", got)
	}
}
