package projection

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/tokens"
)

// TestSimulateMatchesReference: the simulation that shares each session's history between turns counts exactly
// what building every request whole counts, for every provider and cache mode, on random sessions whose texts hold
// blank lines (where token counting splits), empty and missing replies, several sessions that share their first
// turns, and tools.
func TestSimulateMatchesReference(t *testing.T) {
	tok := tokens.New(tokens.O200k)
	rng := rand.New(rand.NewPCG(7, 11))
	words := []string{"alpha", "beta", "gamma", "\n\n", "delta", "\n", "epsilon", " ", "zeta.", "NW-142", "é"}
	text := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		return strings.TrimSpace(b.String()) + "x"
	}
	artifact := func() *assemble.Artifact {
		a := &assemble.Artifact{}
		for i, sc := range []blocks.Scope{blocks.ScopeGlobal, blocks.ScopeTask, blocks.ScopeSession} {
			sp := assemble.Span{Start: len(a.Text), Scope: sc}
			if i > 0 {
				a.Text += "\n\n"
			}
			sp.TextStart = len(a.Text)
			a.Text += text(5 + rng.IntN(60))
			sp.End = len(a.Text)
			a.Spans = append(a.Spans, sp)
		}
		a.Text += "\n"
		a.Spans[len(a.Spans)-1].End++
		return a
	}
	tools := []*blocks.Tool{{Name: "show", Description: "Show it.", Parameters: map[string]any{"type": "object"}}}
	models := func(p Provider) []Model {
		base := Model{Provider: p, Name: "m", MaxBreakpoints: 4, Lookback: 20, CacheWrite: 1.25, CacheRead: 0.1, Safety: 1}
		var out []Model
		for _, min := range []int{1, 40, 150} {
			m := base
			m.MinCacheTokens = min
			switch p {
			case OpenAI:
				m.Matching, m.MaxBreakpoints, m.Step, m.CacheWrite = Prefix, 0, 16, 1
			case DashScope:
				m.Matching, m.ImplicitMinCacheTokens, m.ImplicitCacheRead = Messages, min/2, 0.2
			}
			out = append(out, m)
			if p == Anthropic {
				m.Lookback, m.MaxBreakpoints = 2, 2
				out = append(out, m)
				m.Lookback, m.MaxBreakpoints, m.MaxCacheTokens = 20, 4, min+60 // a cache limit inside the runbook or the history
				m.ToolMarkers = true                                           // and the tools' own marker, with tools
				out = append(out, m)
			}
		}
		return out
	}
	for round := 0; round < 12; round++ {
		rb := artifact()
		var sessions []Replay
		shared := []string{text(8), text(3)}
		for s := 0; s < 1+rng.IntN(3); s++ {
			ss := Replay{Name: fmt.Sprint("s", s), Runbook: rb}
			if rng.IntN(2) == 0 {
				ss.Runbook = artifact()
			}
			n := 1 + rng.IntN(9)
			for k := 0; k < n; k++ {
				if k < len(shared) && rng.IntN(3) > 0 {
					ss.Turns = append(ss.Turns, shared[k])
				} else {
					ss.Turns = append(ss.Turns, text(1+rng.IntN(30)))
				}
				switch rng.IntN(4) {
				case 0: // missing or empty: the placeholder
					ss.Replies = append(ss.Replies, "")
				default:
					ss.Replies = append(ss.Replies, text(1+rng.IntN(40)))
				}
			}
			sessions = append(sessions, ss)
		}
		for _, p := range []Provider{Anthropic, OpenAI, DashScope} {
			for _, m := range models(p) {
				for _, implicit := range []bool{false, true} {
					if implicit && p != DashScope {
						continue
					}
					for _, variant := range []int{0, 1, 2} {
						withTools := variant == 1
						opt := Options{Model: m, Implicit: implicit, Counter: tok}
						if withTools {
							opt.Tools = tools
						}
						if variant == 2 {
							opt.MaxHistoryTokens = 40 + rng.IntN(80) // a budget the sessions exceed: the cut moves
						}
						want, err := referenceSimulate(sessions, opt)
						if err != nil {
							t.Fatal(err)
						}
						got, err := Simulate(sessions, opt)
						if err != nil {
							t.Fatal(err)
						}
						for li := range want.Layouts {
							if opt.MaxHistoryTokens > 0 && li > 0 {
								break // the reference trims every layout's history; the simulation, promptc's
							}
							for ti, w := range want.Layouts[li].Turns {
								if g := got.Layouts[li].Turns[ti]; g != w {
									t.Fatalf("round %d, %s min %d lookback %d implicit %v tools %v, %s %s turn %d:\n got %+v\nwant %+v",
										round, p, m.MinCacheTokens, m.Lookback, implicit, withTools, want.Layouts[li].Name, w.Session, w.Turn, g, w)
								}
							}
							if got.Layouts[li].Total.InputTokens != want.Layouts[li].Total.InputTokens || got.Layouts[li].Total.RelativeCost != want.Layouts[li].Total.RelativeCost {
								t.Fatalf("totals differ: %+v, want %+v", got.Layouts[li].Total, want.Layouts[li].Total)
							}
						}
					}
				}
			}
		}
	}
}
