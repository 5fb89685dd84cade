//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly || android || ios

package workspace

import (
	"errors"
	"os"
	"syscall"
)

// lockDir takes an exclusive flock(2) on directory dir, waiting for it, and returns its release. The lock is on the
// directory, not the file: an atomic write replaces the file (a new inode each time), so a lock on the file would
// not be shared by the next writer. Every writer of context files in dir, promptc install and uninstall from any
// process, takes it before reading the file and holds it until the rename is done.
func lockDir(dir string) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
