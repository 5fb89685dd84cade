package blocks

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrNoRoot is wrapped by the error FindRoot returns when no directory on the way up holds a manifest.
var ErrNoRoot = errors.New("no promptc project")

// FindRoot returns the project root for dir: the nearest of dir and its ancestors that holds ManifestFile, as an
// absolute path. A relative dir is taken relative to the working directory. When none holds one, the error wraps
// ErrNoRoot and reads "no promptc.toml in DIR or any parent directory".
func FindRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; {
		if _, err := os.Stat(filepath.Join(d, ManifestFile)); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", noRootError{abs}
		}
		d = parent
	}
}

// noRootError says where FindRoot started looking; it is ErrNoRoot to errors.Is.
type noRootError struct{ dir string }

func (e noRootError) Error() string {
	return fmt.Sprintf("no %s in %s or any parent directory", ManifestFile, e.dir)
}

func (e noRootError) Is(target error) bool { return target == ErrNoRoot }
