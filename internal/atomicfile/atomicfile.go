// Package atomicfile writes files so that a reader, or a process that dies halfway, sees either the old bytes or the
// new ones, never a mix.
package atomicfile

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
)

// File is one file to write.
type File struct {
	Name string
	Data []byte
	Perm os.FileMode
	// NoSync skips fsync for output that can be regenerated (promptc build): the rename still makes each file
	// appear whole to readers, but a power loss may leave it empty. User files (golden/, hooks) are synced.
	NoSync bool
	// Like, when set, is the file being replaced: the new one takes its owner and group where the system allows.
	Like os.FileInfo
}

// Write replaces name with data: it writes a temporary file in the same directory, syncs it, renames it over name
// and syncs the directory. Missing parent directories are created.
func Write(name string, data []byte, perm os.FileMode) error {
	return WriteAll([]File{{Name: name, Data: data, Perm: perm}})
}

// WriteAll writes every file atomically, as Write does, and faster: files whose bytes are already right are left
// alone (their times too), the temporary files are written and synced in parallel, and each directory is synced once
// after the renames. Each file on its own is atomic; the set is not (a crash can leave some files new, some old).
func WriteAll(files []File) error {
	var todo []File
	for _, f := range files {
		if Unchanged(f) {
			continue
		}
		todo = append(todo, f)
	}
	if len(todo) == 0 {
		return nil
	}
	temps := make([]string, len(todo))
	errs := make([]error, len(todo))
	next := make(chan int)
	var wg sync.WaitGroup
	// fsync waits on the disk, not the CPU: more writers than processors keep the device busy.
	for w := 0; w < min(4*runtime.GOMAXPROCS(0), len(todo)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				temps[i], errs[i] = writeTemp(todo[i])
			}
		}()
	}
	for i := range todo {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			removeAll(temps)
			return err
		}
	}
	dirs := map[string]bool{}
	for i, f := range todo {
		if err := os.Rename(temps[i], f.Name); err != nil {
			removeAll(temps[i:])
			return err
		}
		if !f.NoSync {
			dirs[filepath.Dir(f.Name)] = true
		}
	}
	names := make([]string, 0, len(dirs))
	for d := range dirs {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, d := range names {
		if fd, err := os.Open(d); err == nil {
			fd.Sync() // best effort: some file systems cannot sync directories
			fd.Close()
		}
	}
	return nil
}

// Unchanged reports whether f's file already holds exactly its bytes with its permissions: WriteAll leaves such a
// file alone, its modification time too.
func Unchanged(f File) bool {
	fi, err := os.Lstat(f.Name)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != f.Perm.Perm() || fi.Size() != int64(len(f.Data)) {
		return false
	}
	same, err := SameBytes(f.Name, f.Data)
	return err == nil && same
}

// UnchangedEach reports Unchanged for each of files, comparing several at once: a build that changes nothing
// reads back every file it would write, and the reads wait on the page cache more than on the CPU.
func UnchangedEach(files []File) []bool {
	out := make([]bool, len(files))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(2*runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(files); i = int(next.Add(1)) - 1 {
				out[i] = Unchanged(files[i])
			}
		}()
	}
	wg.Wait()
	return out
}

// SameBytes reports whether the file name holds exactly data, comparing a chunk at a time through one pooled
// buffer: reading whole files into fresh memory cost more in page faults than the comparison itself.
func SameBytes(name string, data []byte) (bool, error) {
	r, err := os.Open(name)
	if err != nil {
		return false, err
	}
	defer r.Close()
	buf := chunks.Get().(*[]byte)
	defer chunks.Put(buf)
	for {
		n, err := io.ReadFull(r, *buf)
		if n > len(data) || !bytes.Equal((*buf)[:n], data[:n]) {
			return false, nil
		}
		data = data[n:]
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return len(data) == 0, nil
		case err != nil:
			return false, err
		}
	}
}

// chunks holds the buffers Unchanged reads files into.
var chunks = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// TempPattern is the pattern of the temporary file that replaces the file called base, for os.CreateTemp and
// path.Match: ".BASE.tmp-*". One left behind was being written by a process that died before its rename.
func TempPattern(base string) string { return "." + base + ".tmp-*" }

// writeTemp writes f's data to a synced temporary file beside it and returns its name.
func writeTemp(f File) (string, error) {
	dir := filepath.Dir(f.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, TempPattern(filepath.Base(f.Name)))
	if err != nil {
		return "", err
	}
	name := tmp.Name()
	fail := func(err error) (string, error) {
		tmp.Close()
		os.Remove(name)
		return "", err
	}
	if _, err := tmp.Write(f.Data); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(f.Perm); err != nil {
		return fail(err)
	}
	if f.Like != nil {
		copyOwner(tmp, f.Like)
	}
	if !f.NoSync {
		if err := tmp.Sync(); err != nil {
			return fail(err)
		}
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

func removeAll(names []string) {
	for _, n := range names {
		if n != "" {
			os.Remove(n)
		}
	}
}
