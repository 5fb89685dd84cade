//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || android || ios)

package workspace

import "os"

// lockDir checks that dir can be opened. Where flock(2) is missing, installs into one file from several processes
// at once are not serialised: run them one at a time.
func lockDir(dir string) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	f.Close()
	return func() {}, nil
}
