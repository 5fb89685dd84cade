package promptc

import (
	"errors"
	"io"
	"io/fs"
	"sync"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/lint"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/stats"
	"github.com/promptc/promptc/tokens"
	"github.com/promptc/promptc/usage"
	"github.com/promptc/promptc/values"
)

// Options shape a Pipeline.
type Options struct {
	// Counter counts tokens for lint, stats, simulations and projections; nil means an o200k_base counter, whose
	// vocabulary loads on first use.
	Counter *tokens.Counter
	// Cache, when set, carries what this open decodes and parses over to the next open through the same Cache, so
	// that reopening a project after an edit decodes and parses only what changed (what the language server does
	// a keystroke). The Pipeline is the one an open without it would give, byte for byte.
	Cache *Cache
}

// Cache holds each blocks/ and templates/ file of a project as read and parsed, kept by content, and each block's
// parsed body, kept by its text, for the next Open of the same project (Options.Cache). It is safe for concurrent
// use; opens through one cache wait for each other.
type Cache struct {
	files  *blocks.FileCache
	bodies *assemble.BodyCache
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{files: blocks.NewFileCache(), bodies: assemble.NewBodyCache()} }

// Pipeline is one loaded project and what is built from it once and shared: the compiled program, its artifacts
// (built on first use), its model catalog (the built-in rows with the project's [[model]] rows over them) and its
// token counter. It is safe for concurrent use. Every front end (the promptc command, the preview, the language
// server, a Go program's own code) opens one and asks it, so that each rule is applied in one place.
type Pipeline struct {
	prog    *assemble.Program
	diags   source.Diagnostics
	counter *tokens.Counter

	buildOnce sync.Once
	arts      []*assemble.Artifact
	buildErr  error

	catOnce sync.Once
	cat     *projection.Catalog
	catErr  error
}

// Open loads and compiles the project rooted at dir, reading it as assemble.LoadDir does (symbolic links followed
// while they stay inside the git work tree holding dir). A project that does not load or compile returns its
// diagnostics (a source.Diagnostics, sorted) as the error, with a Pipeline that holds what could be read: its
// Project and Diagnostics answer, and nothing that needs a compiled program does.
func Open(dir string, opt Options) (*Pipeline, error) {
	fsys := assemble.DirFS(dir)
	if c, ok := fsys.(io.Closer); ok {
		defer c.Close() // the directories it held open: a Pipeline keeps no file system
	}
	return OpenFS(fsys, opt)
}

// OpenFS is Open for the project at the root of fsys.
func OpenFS(fsys fs.FS, opt Options) (*Pipeline, error) {
	var files *blocks.FileCache
	var bodies *assemble.BodyCache
	if opt.Cache != nil {
		files, bodies = opt.Cache.files, opt.Cache.bodies
	}
	proj, diags := values.LoadCached(fsys, files)
	prog, cdiags := assemble.CompileCached(proj, bodies)
	if diags = append(diags, cdiags...); len(diags) > 0 {
		diags = diags.Sort()
	}
	p := &Pipeline{prog: prog, diags: diags, counter: opt.Counter}
	if p.counter == nil {
		p.counter = tokens.New(tokens.O200k)
	}
	if len(diags) > 0 {
		return p, diags
	}
	return p, nil
}

// OpenOverlay is Open for the project at dir as an editor sees it: the files of over (slash paths relative to dir,
// mapped to their text, the unsaved buffers) are read instead of the ones on disk, and those that exist only in
// over are read too (Overlay).
func OpenOverlay(dir string, over map[string]string, opt Options) (*Pipeline, error) {
	fsys := assemble.DirFS(dir)
	if c, ok := fsys.(io.Closer); ok {
		defer c.Close()
	}
	return OpenFS(Overlay(fsys, over), opt)
}

// Program returns the compiled project. It is nil only for a nil Pipeline; its Project holds what could be read
// even when the project has errors, but it renders nothing then.
func (p *Pipeline) Program() *assemble.Program {
	if p == nil {
		return nil
	}
	return p.prog
}

// Project returns the project's source model: manifest, blocks, tools and fixtures.
func (p *Pipeline) Project() *blocks.Project {
	if p == nil || p.prog == nil {
		return nil
	}
	return p.prog.Project
}

// Diagnostics returns the problems loading and compiling found, sorted by position; nil for a project that
// compiles.
func (p *Pipeline) Diagnostics() source.Diagnostics { return p.diags }

// Counter returns the token counter every measure of the pipeline uses.
func (p *Pipeline) Counter() *tokens.Counter { return p.counter }

// errNotCompiled is what a Pipeline whose project did not compile answers where it needs the program.
var errNotCompiled = errors.New("the project does not compile: see its diagnostics")

// usable is nil when p holds a compiled program, and otherwise its diagnostics.
func (p *Pipeline) usable() error {
	if len(p.diags) > 0 {
		return p.diags
	}
	if p.prog == nil {
		return errNotCompiled
	}
	return nil
}

// Artifacts builds every artifact of the project, once: each task's runbook and turn messages for every fixture
// that renders it, as promptc build writes them. A build that fails returns its diagnostics (source.Diagnostics).
func (p *Pipeline) Artifacts() ([]*assemble.Artifact, error) {
	if err := p.usable(); err != nil {
		return nil, err
	}
	p.buildOnce.Do(func() {
		arts, diags := p.prog.Build()
		if len(diags) > 0 {
			p.buildErr = diags
			return
		}
		p.arts = arts
	})
	return p.arts, p.buildErr
}

// Catalog returns the model table of the project: the built-in rows, with the project's [[model]] rows applied
// over them (docs/providers.md). A nil Pipeline, for a command run outside any project, gives the built-in rows
// alone (provider.Builtin, built once for the process). It is built once; a front end takes it from here (guard's
// price of a change too: it opens each revision it compares through this pipeline).
func (p *Pipeline) Catalog() (*projection.Catalog, error) {
	if p == nil {
		return projection.NewCatalog(nil)
	}
	p.catOnce.Do(func() {
		var rows []*blocks.ModelRow
		if pr := p.Project(); pr != nil {
			rows = pr.Models
		}
		p.cat, p.catErr = projection.NewCatalog(rows)
	})
	return p.cat, p.catErr
}

// Task returns the task named name. This is the one place a task's name is checked: a name the manifest does not
// list is a *blocks.UnknownTaskError (its message names the closest task and lists them all), and a Task, once
// returned, always names a task of the project.
func (p *Pipeline) Task(name string) (Task, error) {
	if p.Project() == nil {
		return Task{}, errNotCompiled
	}
	if err := blocks.CheckTask(name, p.Project().Tasks); err != nil {
		return Task{}, err
	}
	return Task{p: p, name: name}, nil
}

// Lint builds every artifact and runs the stability lints (docs/lint.md), measuring each task's runbook of fixture
// ("" for the first fixture by name that renders the task), as promptc lint does.
func (p *Pipeline) Lint(fixture string) ([]lint.Finding, error) {
	arts, err := p.Artifacts()
	if err != nil {
		return nil, err
	}
	return lint.RunFixture(p.prog, arts, p.counter, fixture)
}

// Stats builds every artifact and measures it (docs/stats.md): bytes and tokens per task, block and scope, with
// each task's runbook of fixture ("" for the first fixture by name that renders the task), as promptc stats does.
func (p *Pipeline) Stats(fixture string) (*stats.Report, error) {
	arts, err := p.Artifacts()
	if err != nil {
		return nil, err
	}
	return stats.MeasureFixture(p.prog, arts, p.counter, fixture)
}

// Predict adds to r, a report of real usage, each task's hit rate as the project's fixtures simulate it
// (usage --predict; docs/usage.md).
func (p *Pipeline) Predict(r *usage.Report) error {
	if err := p.usable(); err != nil {
		return err
	}
	cat, err := p.Catalog()
	if err != nil {
		return err
	}
	return usage.Predict(r, p.prog, cat, p.counter)
}
