package assemble

import (
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// Build renders every artifact of the project (docs/reference.md#artifacts): for each task in manifest order and each fixture admitting it,
// in name order, the runbook, then each turn message when the project has a turn order. Rendering runs in parallel;
// the result does not depend on scheduling. Problems found while rendering are reported once per position and
// message, with the tasks and fixtures they occur in.
func (prog *Program) Build() ([]*Artifact, source.Diagnostics) {
	type job struct {
		task    string
		fixture *blocks.Fixture
		out     []*Artifact
		diags   source.Diagnostics
	}
	var jobs []*job
	// Session blocks render the same for every task of a fixture, and its values prepare the same: each fixture's
	// jobs share one cache of both.
	shared := map[*blocks.Fixture]*fixtureCache{}
	for _, f := range prog.Project.Fixtures {
		shared[f] = &fixtureCache{renders: make(renderCache, prog.sessionSlots), turns: make([]onceValues, len(f.Turns))}
	}
	for _, task := range prog.Project.Tasks {
		for _, f := range prog.Project.Fixtures {
			if f.AdmitsTask(task) {
				jobs = append(jobs, &job{task: task, fixture: f})
			}
		}
	}
	var wg sync.WaitGroup
	next := make(chan *job)
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(jobs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				j.out, j.diags = prog.buildFixture(j.task, j.fixture, shared[j.fixture])
			}
		}()
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()

	var out []*Artifact
	// The same problem shows up in many tasks and fixtures: report it once, saying where it occurs.
	type key struct {
		rng     source.Range
		summary string
	}
	contexts := map[key][]string{}
	first := map[key]source.Diagnostic{}
	var order []key
	for _, j := range jobs {
		out = append(out, j.out...)
		for _, d := range j.diags {
			k := key{d.Range(), d.Summary}
			if _, seen := contexts[k]; !seen {
				order = append(order, k)
				first[k] = d
			}
			contexts[k] = append(contexts[k], j.task+"/"+j.fixture.Name)
		}
	}
	var diags source.Diagnostics
	for _, k := range order {
		d := first[k]
		d.Summary += " (rendering " + summarize(contexts[k]) + ")"
		diags = append(diags, d)
	}
	return out, diags.Sort()
}

// summarize lists at most three task/fixture pairs.
func summarize(ctx []string) string {
	sort.Strings(ctx)
	ctx = slices.Compact(ctx)
	if len(ctx) <= 3 {
		return strings.Join(ctx, ", ")
	}
	return strings.Join(ctx[:3], ", ") + " and " + strconv.Itoa(len(ctx)-3) + " more"
}

// fixtureCache is what the tasks rendered with one fixture share: the outputs of its session blocks, and its session
// and turn values as prepared.
type fixtureCache struct {
	renders renderCache
	session onceValues
	turns   []onceValues
}

// buildFixture renders one task's artifacts for one fixture.
func (prog *Program) buildFixture(task string, f *blocks.Fixture, shared *fixtureCache) ([]*Artifact, source.Diagnostics) {
	s, diags := prog.newSession(task, f.Session, fixtureOrigin(f, 0), shared.renders, &shared.session)
	if len(diags) > 0 {
		return nil, diags
	}
	rb := *s.runbook
	rb.Fixture = f.Name
	rb.Path = ArtifactPath(task, f.Name, blocks.Runbook, 0)
	out := []*Artifact{&rb}
	if len(prog.Project.Turn.Order) == 0 {
		return out, nil
	}
	for k, turn := range f.Turns {
		a, d := s.renderTurn(turn, fixtureOrigin(f, k+1), k+1, &shared.turns[k])
		if len(d) > 0 {
			diags = append(diags, d...)
			continue
		}
		a.Fixture = f.Name
		a.Path = ArtifactPath(task, f.Name, blocks.Turn, k+1)
		out = append(out, a)
	}
	return out, diags
}
