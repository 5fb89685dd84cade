package blocks

import (
	"io/fs"
	"maps"
	"slices"
	"sync"

	"github.com/promptc/promptc/source"
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

	// env and nextEnv are what the decoding of a blocks/ file reads besides the file: the manifest and the
	// templates, as the last load and this one read them. decoded holds each blocks/ file's decoding by its
	// sourceFile, valid while env is what it was: nextDecoded is filled by this load.
	env, nextEnv         decodeEnv
	decoded, nextDecoded map[*sourceFile]*decodedFile
}

// decodeEnv is what decoding a blocks/ file reads besides the file itself: the manifest, by its bytes (its tasks,
// variables and bad keys follow from them), and the templates, by name and the sourceFile each was read as (the
// same only when its bytes are; nil when its name was refused).
type decodeEnv struct {
	manifest  string
	ok        bool // the manifest was read (and is the bytes above)
	templates []templateRead
}

type templateRead struct {
	name string
	f    *sourceFile
}

func (e *decodeEnv) equal(o *decodeEnv) bool {
	return e.ok && o.ok && e.manifest == o.manifest && slices.Equal(e.templates, o.templates)
}

// decodedFile is what decoding one blocks/ file on its own gave (loader.decodeAlone): its diagnostics in the order
// found, and what it defines. Its blocks are never handed out: each load takes copies, which it places.
type decodedFile struct {
	diags      source.Diagnostics
	consts     map[string]*Const
	constRange map[string]source.Range
	blocks     []*Block
	tools      []*Tool
	toolRange  map[string]source.Range
	badKeys    []string
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
func LoadCached(fsys fs.FS, c *FileCache) (*Project, source.Diagnostics) {
	if c == nil {
		return Load(fsys)
	}
	c.load.Lock()
	defer c.load.Unlock()
	c.next = make(map[string]cachedFile, len(c.prev))
	c.nextEnv, c.nextDecoded = decodeEnv{}, map[*sourceFile]*decodedFile{}
	defer func() {
		c.prev, c.next = c.next, nil
		c.env, c.decoded, c.nextDecoded = c.nextEnv, c.nextDecoded, nil
	}()
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

// manifest reads and parses promptc.toml as parseTOMLFile does, noting its bytes for decodeEnv. It is never reused:
// checking the variables' defaults may change the decoded maps in place.
func (c *FileCache) manifest(fsys fs.FS) *sourceFile {
	if c == nil {
		return parseTOMLFile(fsys, ManifestFile)
	}
	data, err := readLimited(fsys, ManifestFile, MaxSourceBytes)
	if err != nil {
		return readError(ManifestFile, err)
	}
	f := decodeFile(ManifestFile, data)
	if f.diag == nil {
		f.m, f.ix, f.diag = parseTOML(f.file)
	}
	c.nextEnv.manifest, c.nextEnv.ok = string(data), true
	return f
}

// blockFileCached decodes blocks/ file f as blockFile does, reusing the last load's decoding of it when the file
// and what its decoding reads are as they were, and when nothing it defines is defined by a file before it (whose
// "defined twice" would then be reported here): the result is the same as blockFile's in every case.
func (l *loader) blockFileCached(f *sourceFile) {
	c := l.cache
	if c == nil {
		l.blockFile(f)
		return
	}
	d := c.decoded[f]
	if d == nil || !c.env.equal(&c.nextEnv) {
		d = l.decodeAlone(f)
	}
	if !l.merge(d) {
		l.blockFile(f)
		return
	}
	c.nextDecoded[f] = d
}

// decodeBase returns a copy of l to run decodeAlone on from other goroutines while l loads on: its project and the
// maps decoding reads or that l goes on writing (the files read, the bad keys) are its own, the rest is only read
// once the manifest and templates/ are loaded.
func (l *loader) decodeBase() *loader {
	p := *l.p
	p.Files = maps.Clone(l.p.Files)
	base := *l
	base.p, base.badKeys = &p, maps.Clone(l.badKeys)
	return &base
}

// decodeAlone decodes blocks/ file f as blockFile would in a project where no other blocks/ file has been read.
func (l *loader) decodeAlone(f *sourceFile) *decodedFile {
	p := *l.p
	p.Consts, p.ByID, p.Blocks, p.Tools = map[string]*Const{}, map[string]*Block{}, nil, nil
	sub := *l
	sub.p, sub.diags, sub.constRange, sub.toolRange, sub.badKeys = &p, nil, map[string]source.Range{}, map[string]source.Range{}, maps.Clone(l.badKeys)
	sub.blockFile(f)
	d := &decodedFile{diags: sub.diags, consts: p.Consts, constRange: sub.constRange, blocks: p.Blocks, tools: p.Tools, toolRange: sub.toolRange}
	for k := range sub.badKeys {
		if !l.badKeys[k] {
			d.badKeys = append(d.badKeys, k)
		}
	}
	return d
}

// merge adds what d defines to the project, as decoding its file in place would have, unless a name it defines is
// defined already (then it adds nothing and returns false).
func (l *loader) merge(d *decodedFile) bool {
	for name := range d.constRange {
		if _, dup := l.constRange[name]; dup {
			return false
		}
	}
	for name := range d.toolRange {
		if _, dup := l.toolRange[name]; dup {
			return false
		}
	}
	for _, b := range d.blocks {
		if _, dup := l.p.ByID[b.ID]; dup {
			return false
		}
	}
	l.diags = append(l.diags, d.diags...)
	maps.Copy(l.constRange, d.constRange)
	maps.Copy(l.p.Consts, d.consts)
	maps.Copy(l.toolRange, d.toolRange)
	l.p.Tools = append(l.p.Tools, d.tools...)
	for _, k := range d.badKeys {
		l.badKeys[k] = true
	}
	for _, b := range d.blocks {
		nb := *b // the load places its blocks (Section, Slot, ReplacedBy): the cached ones stay as decoded
		l.p.ByID[nb.ID] = &nb
		l.p.Blocks = append(l.p.Blocks, &nb)
	}
	return true
}

// template notes how templates/ file name was read, for decodeEnv.
func (c *FileCache) template(name string, f *sourceFile) {
	if c != nil {
		c.nextEnv.templates = append(c.nextEnv.templates, templateRead{name, f})
	}
}
