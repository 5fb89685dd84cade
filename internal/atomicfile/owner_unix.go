//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// copyOwner gives f the owner and group of like, when they differ from the process's and the system allows it (a
// daemon running as root writing into a user's file keeps the file the user's). Best effort: without the right to
// change owners, the file stays the process's.
func copyOwner(f *os.File, like os.FileInfo) {
	st, ok := like.Sys().(*syscall.Stat_t)
	if !ok || (int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid()) {
		return
	}
	_ = f.Chown(int(st.Uid), int(st.Gid))
}
