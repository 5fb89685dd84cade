package analysis

import (
	"io"
	"io/fs"
	"sync"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/lint"
	"github.com/promptc/promptc/source"
)

// Snapshot is one state of a project: loaded, compiled and indexed from one set of files. It is immutable and safe
// for concurrent use; an edit makes a new Snapshot.
type Snapshot struct {
	// Program is the compiled project. Its Project is never nil, and holds what could be read even when the
	// project has errors.
	Program *assemble.Program
	Project *blocks.Project
	// Files holds the text of every file the editor may ask about, by slash path relative to the project root: the
	// loaded source files, and the overlaid documents the loader did not read.
	Files map[string]*source.File

	diags source.Diagnostics
	// pipeline is the opened project: its model catalog, among what the views need, is built once, there.
	pipeline *promptc.Pipeline

	// The index of names is built on the first query, not by Load: a keystroke needs the diagnostics at once, and
	// the queries only when the user asks.
	indexOnce sync.Once
	idx       *index

	lintOnce sync.Once
	lint     source.Diagnostics
	findings []lint.Finding
	arts     []*assemble.Artifact

	// views caches what the editor's views of the cache render (samples.go): one runbook per task, one
	// simulation per task and provider.
	views sync.Map
}

// Load loads, compiles and indexes the project rooted at fsys (typically Overlay(assemble.DirFS(root), buffers)).
// It never fails: a project that does not load gives a Snapshot whose Diagnostics say why, and whose queries answer
// from what could be read.
func Load(fsys fs.FS) *Snapshot { return (*Cache)(nil).Load(fsys) }

// Cache carries what one load decoded and compiled over to the next load of the same project (a promptc.Cache:
// each blocks/ and templates/ file as read and parsed, kept by content, and each block's parsed body, kept by its
// text), so that a load through it decodes and parses only what changed since and gives the Snapshot Load would
// give, byte for byte (docs/editors.md). A language server keeps one per project. A nil *Cache caches nothing. It
// is safe for concurrent use; loads through one cache then wait for each other.
type Cache struct{ c *promptc.Cache }

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{c: promptc.NewCache()} }

// Load is Load, reusing what earlier loads through c decoded and parsed of the files and blocks that have not
// changed since.
func (c *Cache) Load(fsys fs.FS) *Snapshot {
	var opt promptc.Options
	if c != nil {
		opt.Cache = c.c
	}
	pl, _ := promptc.OpenFS(fsys, opt) // a project with errors still opens: its Diagnostics say them
	prog, p, diags := pl.Program(), pl.Project(), pl.Diagnostics()
	s := &Snapshot{Program: prog, Project: p, Files: map[string]*source.File{}, diags: diags, pipeline: pl}
	for name, f := range p.Files {
		s.Files[name] = f
	}
	return s
}

// LoadDir loads the project rooted at directory root, reading the documents of over (slash paths relative to root)
// instead of the files on disk.
func LoadDir(root string, over map[string]string) *Snapshot {
	return (*Cache)(nil).LoadDir(root, over)
}

// LoadDir is LoadDir, through c (see Cache.Load).
func (c *Cache) LoadDir(root string, over map[string]string) *Snapshot {
	base := assemble.DirFS(root)
	if cl, ok := base.(io.Closer); ok {
		defer cl.Close() // the directories it holds open, one set a keystroke: a Snapshot keeps no file system
	}
	s := c.Load(Overlay(base, over))
	for name, text := range over {
		if _, ok := s.Files[name]; !ok {
			t, _, _ := source.Normalize([]byte(text))
			s.Files[name] = source.NewFile(name, t)
		}
	}
	return s
}

func (s *Snapshot) index() *index {
	s.indexOnce.Do(func() { s.idx = buildIndex(s) })
	return s.idx
}

// Diagnostics returns every problem the loader and the compiler found, sorted by position: what a keystroke must
// update at once. Lint adds what needs the artifacts.
func (s *Snapshot) Diagnostics() source.Diagnostics { return s.diags }

// Lint builds every artifact and runs the stability lints, once per snapshot, and returns what they found: the
// build's own errors (a value that does not fit its variable, a ref to a block that does not render) or, when the
// build succeeds, the lint findings, each with its suggestion. A project with load or compile errors has no lint
// diagnostics (the artifacts cannot be built). It can take much longer than Load: a server runs it in the
// background and drops its result when a newer snapshot has replaced this one.
func (s *Snapshot) Lint() source.Diagnostics {
	s.lintOnce.Do(func() {
		if len(s.diags) > 0 {
			return
		}
		arts, diags := s.Program.Build()
		if len(diags) > 0 {
			s.lint = diags.Sort()
			return
		}
		s.arts = arts
		s.findings = lint.Run(s.Program, arts, counter())
		for _, f := range s.findings {
			s.lint = append(s.lint, f.Diagnostic)
		}
	})
	return s.lint
}

// Findings returns the lint findings of Lint, with their lint ids (running Lint if it has not run).
func (s *Snapshot) Findings() []lint.Finding {
	s.Lint()
	return s.findings
}

// File returns the text of the file name (a slash path relative to the root), or nil when the snapshot has none.
func (s *Snapshot) File(name string) *source.File { return s.Files[name] }
