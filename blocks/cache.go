package blocks

import (
	"io/fs"
	"sync"
)

// FileCache keeps what one load read and parsed of each blocks/ and templates/ file, by name and content, for the
// next load of the same project to reuse: a language server reloads the project at every keystroke, and all but
// the file being edited are as they were (docs/editors.md). A file is reused only when its bytes are exactly those
// it was parsed from, so a load through the cache gives what a load without it gives, byte for byte; only the
// work is saved. The *File of an unchanged file is the same from one load to the next, which later stages may use
// to reuse their own work.
//
// Only the files of the last load are kept. A FileCache may be shared by loads that run one at a time; it is safe
// for concurrent use (loads then wait for each other). Fixtures and the manifest are always read anew: checking a
// fixture's records changes the decoded maps in place.
type FileCache struct {
	load sync.Mutex // held for a whole load: prev is read and next written by one load at a time
	prev map[string]cachedFile

	mu   sync.Mutex // guards next, written by the parsing goroutines
	next map[string]cachedFile
}

// cachedFile is a file as read (raw, before normalisation) and what reading and parsing it gave.
type cachedFile struct {
	raw string
	f   *sourceFile
}

// NewFileCache returns an empty cache.
func NewFileCache() *FileCache { return &FileCache{} }

// LoadCached is Load, reusing what an earlier load through c read and parsed of the files that have not changed
// since. c may be nil: Load.
func LoadCached(fsys fs.FS, c *FileCache) (*Project, Diagnostics) {
	if c == nil {
		return Load(fsys)
	}
	c.load.Lock()
	defer c.load.Unlock()
	c.next = make(map[string]cachedFile, len(c.prev))
	defer func() { c.prev, c.next = c.next, nil }()
	l := newLoader(fsys)
	l.cache = c
	l.load()
	return l.p, l.diags.Sort()
}

// read reads file name of fsys as readFile does, and parses it when parse is set, as parseTOMLFile does, unless the
// last load read the same bytes there. c may be nil.
func (c *FileCache) read(fsys fs.FS, name string, parse bool) *sourceFile {
	if c == nil {
		if parse {
			return parseTOMLFile(fsys, name)
		}
		return readFile(fsys, name)
	}
	data, err := readLimited(fsys, name, MaxSourceBytes)
	if err != nil {
		return readError(name, err)
	}
	if e, ok := c.prev[name]; ok && e.raw == string(data) && (e.f.m != nil || !parse || e.f.diag != nil) {
		c.put(name, e)
		return e.f
	}
	f := decodeFile(name, data)
	if parse && f.diag == nil {
		f.m, f.ix, f.diag = parseTOML(f.file)
	}
	c.put(name, cachedFile{raw: string(data), f: f})
	return f
}

func (c *FileCache) put(name string, e cachedFile) {
	c.mu.Lock()
	c.next[name] = e
	c.mu.Unlock()
}
