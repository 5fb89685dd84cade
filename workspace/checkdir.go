package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/promptc/promptc/source"
)

// DirError is a working directory Install, Check and Uninstall refuse to work in, as promptc install's --dir names
// it: Dir is the name messages give it, Err why (fs.ErrNotExist, errNotDir, or the error reading it).
type DirError struct {
	Dir string
	Err error
}

// errNotDir is DirError's Err for a path that is not a directory.
var errNotDir = errors.New("not a directory")

func (e *DirError) Error() string {
	switch d := source.QuoteName(e.Dir); {
	case errors.Is(e.Err, fs.ErrNotExist):
		return d + ": no such directory: --dir must name an existing directory; create it first, or correct --dir"
	case e.Err == errNotDir:
		return d + " is not a directory: --dir must name the directory that holds the context files"
	default:
		return fmt.Sprintf("%s: cannot use the --dir directory: %v", d, e.Err)
	}
}

func (e *DirError) Unwrap() error { return e.Err }

// CheckDir returns a *DirError naming the directory name unless path is an existing directory. Install creates the
// directories a target's file needs inside the working directory, never the directory itself, so that a mistyped
// --dir is an error and not a new directory: a command checks it with CheckDir first.
func CheckDir(name, path string) error {
	fi, err := os.Stat(path)
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return &DirError{Dir: name, Err: pe.Err}
	case err != nil:
		return &DirError{Dir: name, Err: err}
	case !fi.IsDir():
		return &DirError{Dir: name, Err: errNotDir}
	}
	return nil
}
