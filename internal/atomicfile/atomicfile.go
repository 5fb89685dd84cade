// Package atomicfile writes files so that a reader, or a process that dies halfway, sees either the old bytes or the
// new ones, never a mix.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces name with data: it writes a temporary file in the same directory, syncs it, renames it over name
// and syncs the directory. Missing parent directories are created.
func Write(name string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err = f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	if err = f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, name); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil {
		d.Sync() // best effort: some file systems cannot sync directories
		d.Close()
	}
	return nil
}
