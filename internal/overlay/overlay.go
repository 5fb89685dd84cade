// Package overlay reads a project as an editor sees it: unsaved buffers over the files on disk.
package overlay

import (
	"io"
	"io/fs"
	"slices"
	"strings"
	"testing/fstest"
)

// FS returns a file system that reads the files of over (slash paths relative to base's root, mapped to their
// text) instead of base's: an editor's open documents, which hold what the user sees rather than what was last
// saved. A directory lists base's entries and over's together, so a new file that was never saved is loaded too,
// and a file deleted on disk while its buffer is open is still read from the buffer.
func FS(base fs.FS, over map[string]string) fs.FS {
	m := make(fstest.MapFS, len(over))
	for name, text := range over {
		m[name] = &fstest.MapFile{Data: []byte(text), Mode: 0o644}
	}
	return &overlayFS{base: base, over: m}
}

type overlayFS struct {
	base fs.FS
	over fstest.MapFS
}

func (o *overlayFS) Open(name string) (fs.File, error) {
	if _, ok := o.over[name]; ok {
		return o.over.Open(name)
	}
	f, err := o.base.Open(name)
	if err == nil {
		return &overlayDir{File: f, fsys: o, name: name}, nil
	}
	if of, oerr := o.over.Open(name); oerr == nil {
		return of, nil // a directory that holds only unsaved files
	}
	return nil, err
}

// Stat implements fs.StatFS, so that what a file is can be known without opening it (a named pipe would block).
func (o *overlayFS) Stat(name string) (fs.FileInfo, error) {
	if _, ok := o.over[name]; ok {
		return fs.Stat(o.over, name)
	}
	fi, err := fs.Stat(o.base, name)
	if err != nil {
		if ofi, oerr := fs.Stat(o.over, name); oerr == nil {
			return ofi, nil // a directory that holds only unsaved files
		}
	}
	return fi, err
}

// ReadDir lists base's entries of dir and over's, over's winning where both have one, sorted by name.
func (o *overlayFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(o.base, name)
	mine, merr := fs.ReadDir(o.over, name)
	if err != nil && merr != nil {
		return nil, err
	}
	if merr != nil || len(mine) == 0 {
		return entries, nil
	}
	byName := map[string]fs.DirEntry{}
	for _, e := range entries {
		byName[e.Name()] = e
	}
	for _, e := range mine {
		if prev, ok := byName[e.Name()]; ok && prev.IsDir() && e.IsDir() {
			continue
		}
		byName[e.Name()] = e
	}
	out := make([]fs.DirEntry, 0, len(byName))
	for _, e := range byName {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// overlayDir is a file of base; when it is a directory, ReadDir merges over's entries in, for walkers that read a
// directory through the file rather than through ReadDirFS.
type overlayDir struct {
	fs.File
	fsys    *overlayFS
	name    string
	entries []fs.DirEntry
	read    bool
}

func (d *overlayDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if !d.read {
		d.read = true
		all, err := d.fsys.ReadDir(d.name)
		if err != nil {
			return nil, err
		}
		d.entries = all
	}
	if n <= 0 {
		out := d.entries
		d.entries = nil
		return out, nil
	}
	if len(d.entries) == 0 {
		return nil, io.EOF
	}
	k := min(n, len(d.entries))
	out := d.entries[:k]
	d.entries = d.entries[k:]
	return out, nil
}
