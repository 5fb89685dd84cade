package projection_test

import (
	"fmt"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/provider"
	toks "github.com/promptc/promptc/tokens"
)

// trackerSession renders the reference project's session with the most turns, for the benchmarks.
func trackerSession(b *testing.B, task string) (projection.Replay, *assemble.Program) {
	prog, diags := assemble.LoadDir("../examples/tracker")
	if len(diags) > 0 {
		b.Fatal(diags)
	}
	var best projection.Replay
	for _, f := range prog.Project.Fixtures {
		if !f.AdmitsTask(task) || len(f.Turns) <= len(best.Turns) {
			continue
		}
		s, err := projection.FixtureReplay(prog, task, f)
		if err != nil {
			b.Fatal(err)
		}
		best = s
	}
	if len(best.Turns) == 0 {
		b.Fatalf("examples/tracker has no fixture with turns for task %q", task)
	}
	return best, prog
}

// BenchmarkProject: one request body for the last turn of the reference project's longest session.
func BenchmarkProject(b *testing.B) {
	s, prog := trackerSession(b, "chat")
	cat, _ := projection.NewCatalog(prog.Project.Models)
	// One counter for every request, as a platform's daemon keeps one: its vocabulary loads once per process.
	tok := toks.New(toks.O200k)
	for _, p := range provider.All() {
		m, _ := cat.Model(p, "")
		in := s.Input(len(s.Turns))
		b.Run(p.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := projection.New(in, projection.Options{Model: m, Tools: prog.Project.ToolsFor("chat"), Counter: tok}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSimulate50: a session of 50 turns (the reference session's turns repeated), three layouts. The target is
// at most a second (docs/decisions.md#simulate-in-time-linear-in-the-turns).
func BenchmarkSimulate50(b *testing.B) {
	s, prog := trackerSession(b, "chat")
	long := projection.Replay{Name: s.Name, Runbook: s.Runbook}
	for i := 0; len(long.Turns) < 50; i++ {
		long.Turns = append(long.Turns, s.Turns[i%len(s.Turns)])
		if j := i % len(s.Turns); j < len(s.Replies) {
			long.Replies = append(long.Replies, s.Replies[j])
		} else {
			long.Replies = append(long.Replies, "")
		}
	}
	cat, _ := projection.NewCatalog(prog.Project.Models)
	m, _ := cat.Model(projection.Anthropic, "")
	for b.Loop() {
		// A fresh counter each time, so that no paragraph is counted from a cache an earlier run filled.
		tok := toks.New(toks.O200k)
		if _, err := projection.Simulate([]projection.Replay{long}, projection.Options{Model: m, Counter: tok}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSimulateTurns: one session of 1,000 and of 10,000 turns (about 100 bytes a turn, replies as long), every
// layout. It once took 7-8 s for 1,000 turns and did not finish 3,000 in a minute; the time now grows with the
// number of turns (compare the two sizes' ns/op).
func BenchmarkSimulateTurns(b *testing.B) {
	s, prog := trackerSession(b, "chat")
	cat, _ := projection.NewCatalog(prog.Project.Models)
	for _, p := range []projection.Provider{projection.Anthropic, projection.OpenAI} {
		m, _ := cat.Model(p, "")
		for _, n := range []int{1000, 10000} {
			long := projection.Replay{Name: s.Name, Runbook: s.Runbook}
			for i := 0; i < n; i++ {
				long.Turns = append(long.Turns, fmt.Sprintf("Turn %d: look at NW-%d again and tell me whether the rate table for country %d is right.", i, i, i%250))
				long.Replies = append(long.Replies, fmt.Sprintf("Reply %d: the table for %d holds the standard and the reduced rate; both match the ministry's list.", i, i%250))
			}
			b.Run(fmt.Sprintf("%s/%d", p, n), func(b *testing.B) {
				for b.Loop() {
					tok := toks.New(toks.O200k)
					if _, err := projection.Simulate([]projection.Replay{long}, projection.Options{Model: m, Counter: tok}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
