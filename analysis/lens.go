package analysis

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/source"
)

// TaskLens is what an editor shows above a task of the manifest's tasks list (docs/editors.md#what-the-editor-shows-of-the-cache):
// the stable prefix of the task's sample runbook, whether it reaches the default model's minimum for caching, and
// the hit rate the simulation predicts for the task's first fixture with turns.
type TaskLens struct {
	Task  string
	Range source.Range // the task's name in the tasks list
	// Fixture and Artifact name the sample runbook measured ("" when none renders: then the numbers are 0).
	Fixture, Artifact string
	PrefixBytes       int
	PrefixTokens      int
	// Provider and Model are the model whose minimum and cache rules apply: the provider's default model in the
	// project's catalog; Minimum its least cacheable prefix (projection.Model.Minimum).
	Provider, Model string
	Minimum         int
	// Session is the fixture replayed ("" when no fixture of the task has turns); HitRate the share of its input
	// tokens read from the cache in promptc's layout, from 0 to 1.
	Session string
	HitRate float64
	// Title is the lens's text; Preview the path of the preview page that shows the task's sample runbook, to be
	// joined to the address of promptc serve ("/#issue/basic.runbook.md").
	Title, Preview string
}

// TaskLenses returns a lens for each task of the manifest, in its order, under provider's default model. A
// project with errors has none.
func (s *Snapshot) TaskLenses(provider projection.Provider) []TaskLens {
	p := s.Project
	if len(s.diags) > 0 {
		return nil
	}
	var out []TaskLens
	for _, t := range p.Tasks {
		l := TaskLens{Task: t, Range: p.TaskRange(t), Provider: provider.String(), Preview: "/"}
		sim := s.simulate(t, provider)
		l.Model, l.Minimum = sim.model.Name, sim.model.Minimum()
		var parts []string
		if a := s.sample(t); a != nil {
			pre := s.stablePrefix(a)
			l.Fixture, l.Artifact, l.PrefixBytes, l.PrefixTokens = a.Fixture, a.Path, pre.bytes, pre.tokens
			l.Preview = "/#" + (&url.URL{Path: a.Path}).EscapedPath()
			parts = append(parts, fmt.Sprintf("prefix %d tokens (%d B, fixture %q)", pre.tokens, pre.bytes, a.Fixture))
			if sim.err == nil {
				if pre.tokens >= l.Minimum {
					parts = append(parts, fmt.Sprintf("reaches %s's minimum of %d", l.Model, l.Minimum))
				} else {
					parts = append(parts, fmt.Sprintf("below %s's minimum of %d: not cached", l.Model, l.Minimum))
				}
			}
		} else {
			parts = append(parts, "no fixture renders it")
		}
		switch {
		case sim.err != nil:
			parts = append(parts, "no simulation: "+sim.err.Error())
		case sim.sim != nil:
			l.Session, l.HitRate = sim.fixture, sim.sim.Layouts[0].Total.HitRate
			parts = append(parts, fmt.Sprintf("hit rate %.0f%% (fixture %q)", l.HitRate*100, sim.fixture))
		default:
			parts = append(parts, "no fixture with turns to simulate")
		}
		l.Title = strings.Join(parts, " · ")
		out = append(out, l)
	}
	return out
}
