package lsp

import (
	"context"
	"maps"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/promptc/promptc/analysis"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/lint"
	"github.com/promptc/promptc/source"
)

// project is one promptc project of the workspace: the latest snapshot of it, and the worker that makes new ones.
//
// Every change of a document under the root bumps gen. The worker loads the newest state whenever it is behind,
// so keystrokes that arrive during a load are folded into the next one; the diagnostics of the loader and compiler
// are published as soon as a load ends. Lint runs after that on its own goroutine, one at a time, once the project
// has stayed unchanged for lintDelay: a lint whose snapshot is replaced before it starts never runs, one replaced
// while it runs is not published, and only the newest snapshot is linted next, so a slow lint never delays a
// keystroke's diagnostics and superseded lints never queue up.
type project struct {
	srv  *server
	root string
	wake chan struct{}
	// cache carries the work of one load over to the next (nil with Options.NoCache); loads run one at a time.
	cache *analysis.Cache

	mu        sync.Mutex
	gen       int // changes seen
	snap      *analysis.Snapshot
	snapGen   int           // the gen snap was loaded at
	updated   chan struct{} // closed when snap is replaced
	linting   bool
	published map[string]bool // files with diagnostics published, to clear them when fixed
	lint      source.Diagnostics
	lintCodes []string // lint id of each of lint, parallel
	lintGen   int      // the gen lint belongs to
	// disk is set when files may have changed on disk since the last load; over holds the documents it read.
	disk bool
	over map[string]string
}

// lintDelay is how long the project must stay unchanged before its lint starts.
const lintDelay = 150 * time.Millisecond

func newProject(s *server, root string) *project {
	p := &project{srv: s, root: root, wake: make(chan struct{}, 1), updated: make(chan struct{}), published: map[string]bool{}}
	if !s.opt.NoCache {
		p.cache = analysis.NewCache()
	}
	s.wg.Add(1)
	go p.work()
	return p
}

// changed records a change (of the files on disk when disk is set) and wakes the worker.
func (p *project) changed(disk bool) {
	p.mu.Lock()
	p.gen++
	p.disk = p.disk || disk
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *project) rel(path string) string {
	rel, err := filepath.Rel(p.root, path)
	if err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}

// current returns a snapshot that includes every change made before the call.
func (p *project) current(ctx context.Context) (*analysis.Snapshot, error) {
	for {
		p.mu.Lock()
		if p.gen == 0 {
			p.mu.Unlock()
			p.changed(true) // first use: nothing has been loaded yet
			continue
		}
		want := p.gen
		if p.snapGen >= want && p.snap != nil {
			s := p.snap
			p.mu.Unlock()
			return s, nil
		}
		ch := p.updated
		p.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		p.mu.Lock()
		s, ok := p.snap, p.snapGen >= want
		p.mu.Unlock()
		if ok {
			return s, nil
		}
	}
}

func (p *project) work() {
	defer p.srv.wg.Done()
	for {
		select {
		case <-p.srv.ctx.Done():
			return
		case <-p.wake:
		}
		p.mu.Lock()
		gen := p.gen
		behind := p.snapGen < gen || p.snap == nil
		p.mu.Unlock()
		if !behind {
			continue
		}
		over := p.srv.overlays(p.root)
		p.mu.Lock()
		reuse := !p.disk && p.snap != nil && maps.Equal(over, p.over)
		p.disk, p.over = false, over
		p.mu.Unlock()
		var snap *analysis.Snapshot
		if reuse {
			// Nothing changed that the last load did not read (a save of an open document, an open of a
			// document that was already read from its buffer): the snapshot stands.
			p.mu.Lock()
			snap = p.snap
			p.mu.Unlock()
		} else {
			snap = p.load(over)
		}
		p.mu.Lock()
		if snap != nil {
			p.snap = snap
		}
		p.snapGen = gen
		close(p.updated)
		p.updated = make(chan struct{})
		newer := p.gen > gen
		p.mu.Unlock()
		if snap == nil {
			continue
		}
		p.publish(snap, gen)
		if !newer {
			p.startLint()
		}
	}
}

// load loads the project with the open documents, recovering from a panic (reported, and the old snapshot kept).
func (p *project) load(over map[string]string) (snap *analysis.Snapshot) {
	defer func() {
		if r := recover(); r != nil {
			p.srv.logf("panic loading %s: %v\n%s", p.root, r, debug.Stack())
			snap = nil
		}
	}()
	return p.cache.LoadDir(p.root, over)
}

// startLint lints the newest snapshot unless a lint is running (which starts the next one when it ends).
func (p *project) startLint() {
	p.mu.Lock()
	if p.linting || p.snap == nil || p.lintGen == p.snapGen {
		p.mu.Unlock()
		return
	}
	p.linting = true
	snap, gen := p.snap, p.snapGen
	p.mu.Unlock()
	p.srv.wg.Add(1)
	go func() {
		defer p.srv.wg.Done()
		// Wait for a pause in the typing: a lint started at every keystroke would compete with the next load.
		var diags source.Diagnostics
		var codes []string
		select {
		case <-time.After(lintDelay):
		case <-p.srv.ctx.Done():
		}
		p.mu.Lock()
		if p.gen != gen || p.srv.ctx.Err() != nil {
			// A change has come in since: its load is on its way, and asks for its own lint when it ends.
			p.linting = false
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		diags, codes = p.runLint(snap)
		p.mu.Lock()
		p.linting = false
		current := p.snapGen == gen && p.srv.ctx.Err() == nil
		if current {
			p.lint, p.lintCodes, p.lintGen = diags, codes, gen
		}
		// A newer snapshot that arrived meanwhile is linted next; one still loading will ask for its lint itself.
		again := !current && p.snap != snap && p.snapGen != p.lintGen
		p.mu.Unlock()
		if current {
			p.publish(snap, gen)
		} else if again && p.srv.ctx.Err() == nil {
			p.startLint()
		}
	}()
}

func (p *project) runLint(snap *analysis.Snapshot) (diags source.Diagnostics, codes []string) {
	defer func() {
		if r := recover(); r != nil {
			p.srv.logf("panic linting %s: %v\n%s", p.root, r, debug.Stack())
			diags, codes = nil, nil
		}
	}()
	if len(snap.Diagnostics()) > 0 {
		return nil, nil
	}
	findings := snap.Findings()
	if len(findings) == 0 {
		diags = snap.Lint() // the build's own errors, when it fails
		return diags, make([]string, len(diags))
	}
	return findingDiags(findings)
}

func findingDiags(fs []lint.Finding) (source.Diagnostics, []string) {
	diags := make(source.Diagnostics, len(fs))
	codes := make([]string, len(fs))
	for i, f := range fs {
		diags[i], codes[i] = f.Diagnostic, string(f.Lint)
	}
	return diags, codes
}

// publish sends the diagnostics of snap (and its lint, once it has run for this gen) for every file of the project,
// and an empty list for each file that had some and has none now.
func (p *project) publish(snap *analysis.Snapshot, gen int) {
	byFile := map[string][]Diagnostic{}
	add := func(d source.Diagnostic, code string) {
		r := d.Range()
		name := r.Filename
		if name == "" {
			name = blocks.ManifestFile
			r = source.Range{}
		}
		byFile[name] = append(byFile[name], toDiagnostic(snap.File(name), r, d, code))
	}
	for _, d := range snap.Diagnostics() {
		add(d, "")
	}
	p.mu.Lock()
	if p.lintGen == gen {
		for i, d := range p.lint {
			add(d, p.lintCodes[i])
		}
	}
	if p.snapGen != gen {
		p.mu.Unlock()
		return // a newer snapshot publishes its own
	}
	var names []string
	for name := range byFile {
		names = append(names, name)
	}
	for name := range p.published {
		if _, ok := byFile[name]; !ok {
			names = append(names, name)
		}
	}
	// Open documents always get an answer, empty or not, so that an editor knows they were checked.
	for name := range p.srv.overlays(p.root) {
		if _, ok := byFile[name]; !ok && !p.published[name] {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	p.published = map[string]bool{}
	for name := range byFile {
		p.published[name] = true
	}
	// Sent under the lock, so that an older publication can never overtake a newer one.
	for _, name := range names {
		ds := byFile[name]
		if ds == nil {
			ds = []Diagnostic{}
		}
		p.srv.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: pathURI(filepath.Join(p.root, filepath.FromSlash(name))), Diagnostics: ds})
	}
	p.mu.Unlock()
}

// toDiagnostic converts a diagnostic at r of file f (nil when the snapshot has no text for it).
func toDiagnostic(f *source.File, r source.Range, d source.Diagnostic, code string) Diagnostic {
	msg := d.Summary
	if d.Detail != "" {
		msg += "\n" + d.Detail
	}
	if d.Suggestion != "" {
		msg += "\nfix: " + d.Suggestion
	}
	sev := 1
	if d.Severity == source.SeverityWarning {
		sev = 2
	}
	return Diagnostic{Range: toRange(f, r), Severity: sev, Code: code, Source: "promptc", Message: msg}
}
