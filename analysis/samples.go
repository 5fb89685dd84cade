package analysis

import (
	"sync"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/projection"
)

// The editor's views of the cache (inlay hints, code lenses) measure one runbook per task, the sample's: the first
// fixture by name rendering the task (blocks.Project.SampleFixture), as promptc stats and the short-prefix lint do.
// Each is rendered once per snapshot, when a view first asks for it.

// sample is one task's measured runbook: nil Art when the project has errors, no fixture renders the task, or the
// render fails.
type sample struct {
	once sync.Once
	art  *assemble.Artifact
}

// sample returns the runbook of task's sample fixture, rendered once per snapshot.
func (s *Snapshot) sample(task string) *assemble.Artifact {
	v, _ := s.views.LoadOrStore("sample\x00"+task, &sample{})
	e := v.(*sample)
	e.once.Do(func() {
		if len(s.diags) > 0 {
			return
		}
		f := s.Project.SampleFixture(task)
		if f == nil {
			return
		}
		if a, err := s.Program.Render(assemble.RenderRequest{Task: task, Fixture: f}); err == nil {
			e.art = a
		}
	})
	return e.art
}

// prefix is a task's stable prefix in its sample runbook: its bytes, its tokens, and the span of the first block
// after it (ok false when the whole runbook is stable).
type prefix struct {
	bytes, tokens int
	next          assemble.Span
	ok            bool
}

func (s *Snapshot) stablePrefix(a *assemble.Artifact) prefix {
	end := a.PrefixEnd(blocks.ScopeTask)
	p := prefix{bytes: end, tokens: counter().Count(a.Text[:end])}
	if end < len(a.Text) {
		for _, sp := range a.Spans {
			if sp.TextStart == end {
				p.next, p.ok = sp, true
				break
			}
		}
	}
	return p
}

// simulation is the replay of one task's first session fixture under one provider's default model.
type simulation struct {
	once    sync.Once
	fixture string
	model   projection.Model
	sim     *projection.Simulation
	err     error
}

// simulate replays task's first fixture with turns (projection.ReplayFixtures) under provider's default model of
// the project's catalog, once per snapshot; sim is nil when no fixture of the task has turns.
func (s *Snapshot) simulate(task string, provider projection.Provider) *simulation {
	v, _ := s.views.LoadOrStore("sim\x00"+task+"\x00"+provider.String(), &simulation{})
	e := v.(*simulation)
	e.once.Do(func() {
		cat, err := s.pipeline.Catalog()
		if err != nil {
			e.err = err
			return
		}
		if e.model, e.err = cat.Model(provider, ""); e.err != nil || len(s.diags) > 0 {
			return
		}
		fs := projection.ReplayFixtures(s.Project, task)
		if len(fs) == 0 {
			return
		}
		e.fixture = fs[0].Name
		r, err := projection.FixtureReplay(s.Program, task, fs[0])
		if err != nil {
			e.err = err
			return
		}
		e.sim, e.err = projection.Simulate([]projection.Replay{r}, projection.Options{Model: e.model, Counter: counter()})
	})
	return e
}
