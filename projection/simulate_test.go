package projection_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/promptc/promptc/projection"
)

var session = projection.Session{Name: "s", Runbook: gts, Turns: []string{"u1", "u2"}, Replies: []string{"a1"}}

func usage(t *testing.T, sim *projection.Simulation, layout string) []projection.Usage {
	t.Helper()
	for _, l := range sim.Layouts {
		if l.Name == layout {
			return l.Turns
		}
	}
	t.Fatalf("no layout %q", layout)
	return nil
}

// TestSimulateExplicit follows the marker rules by hand: turn 1 writes the runbook up to its last marker; turn 2
// reads it back through the history marker's lookback and writes the history.
func TestSimulateExplicit(t *testing.T) {
	sim, err := projection.Simulate([]projection.Session{session}, projection.Options{Model: model(projection.Anthropic, 1, 4)})
	if err != nil {
		t.Fatal(err)
	}
	sys := tokens("G\n\n") + tokens("T\n\n") + tokens("S\n")
	u := usage(t, sim, projection.LayoutPromptc)
	want := []projection.Usage{
		{Session: "s", Turn: 1, InputTokens: sys + tokens("u1"), CacheWriteTokens: sys, UncachedTokens: tokens("u1")},
		{Session: "s", Turn: 2, InputTokens: sys + tokens("u1") + tokens("a1") + tokens("u2"), CacheReadTokens: sys,
			CacheWriteTokens: tokens("u1") + tokens("a1"), UncachedTokens: tokens("u2")},
	}
	for i := range want {
		g := u[i]
		g.HitRate, g.RelativeCost = 0, 0
		if g != want[i] {
			t.Errorf("turn %d: %+v, want %+v", i+1, g, want[i])
		}
	}
	w := want[1]
	if hr := float64(w.CacheReadTokens) / float64(w.InputTokens); abs(u[1].HitRate-hr) > 1e-4 {
		t.Errorf("hit rate %v, want %v", u[1].HitRate, hr)
	}
	cost := (0.1*float64(w.CacheReadTokens) + 1.25*float64(w.CacheWriteTokens) + float64(w.UncachedTokens)) / float64(w.InputTokens)
	if abs(u[1].RelativeCost-cost) > 1e-4 {
		t.Errorf("relative cost %v, want %v", u[1].RelativeCost, cost)
	}
	// volatile-first: the system prompt starts with the turn, so nothing is ever read.
	for _, v := range usage(t, sim, projection.LayoutVolatileFirst) {
		if v.CacheReadTokens != 0 {
			t.Errorf("volatile-first read %d tokens on turn %d", v.CacheReadTokens, v.Turn)
		}
	}
	// rewrite: its one marker, at the end of a request whose summary changes every turn, is never found again.
	if r := usage(t, sim, projection.LayoutRewrite)[1]; r.CacheReadTokens != 0 || r.CacheWriteTokens != r.InputTokens {
		t.Errorf("rewrite turn 2: %+v, want nothing read and everything written", r)
	}
	for _, l := range sim.Layouts {
		var sum projection.Usage
		for _, u := range l.Turns {
			if u.CacheReadTokens+u.CacheWriteTokens+u.UncachedTokens != u.InputTokens {
				t.Errorf("%s turn %d: parts do not add up: %+v", l.Name, u.Turn, u)
			}
			sum.InputTokens += u.InputTokens
			sum.CacheReadTokens += u.CacheReadTokens
		}
		if l.Total.InputTokens != sum.InputTokens || l.Total.CacheReadTokens != sum.CacheReadTokens {
			t.Errorf("%s total %+v is not the sum of its turns", l.Name, l.Total)
		}
	}
}

// TestSimulateLookback: an entry more than Lookback parts before every marker is not found.
func TestSimulateLookback(t *testing.T) {
	turns := []string{"u1", "u2", "u3"}
	s := projection.Session{Name: "s", Runbook: gts, Turns: turns}
	m := model(projection.Anthropic, 1, 1) // one marker: the history's, from turn 2 on
	m.Lookback = 1
	sim, err := projection.Simulate([]projection.Session{s}, projection.Options{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	u := usage(t, sim, projection.LayoutPromptc)
	// Turn 1's one marker goes after the system's first part (there is no history). Turn 2's goes after reply 1:
	// with a lookback of 1 it sees reply 1 and u1, not G, so it reads nothing. With a lookback of 2, turn 3's marker
	// (after reply 2) sees reply 2, u3's predecessor u2 and reply 1, where turn 2 wrote its entry.
	if u[1].CacheReadTokens != 0 {
		t.Errorf("turn 2 read %d with a lookback of 1", u[1].CacheReadTokens)
	}
	m.Lookback = 2
	sim, _ = projection.Simulate([]projection.Session{s}, projection.Options{Model: m})
	u = usage(t, sim, projection.LayoutPromptc)
	want := tokens("G\n\n") + tokens("T\n\n") + tokens("S\n") + tokens("u1") + tokens(projection.Placeholder)
	if u[2].CacheReadTokens != want {
		t.Errorf("turn 3 read %d with a lookback of 2, want turn 2's history prefix %d", u[2].CacheReadTokens, want)
	}
}

// TestSimulatePrefix: automatic caching reads the longest shared run of messages, from the minimum on, in steps.
func TestSimulatePrefix(t *testing.T) {
	m := model(projection.OpenAI, 3, 0)
	m.Step = 2
	sim, err := projection.Simulate([]projection.Session{session}, projection.Options{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	u := usage(t, sim, projection.LayoutPromptc)
	if u[0].CacheReadTokens != 0 || u[0].CacheWriteTokens != 0 {
		t.Errorf("turn 1: %+v", u[0])
	}
	shared := tokens("G\n\nT\n\nS\n") + tokens("u1")
	want := 3 + (shared-3)/2*2
	if u[1].CacheReadTokens != want {
		t.Errorf("turn 2 read %d, want %d (shared %d, minimum 3, step 2)", u[1].CacheReadTokens, want, shared)
	}
	if u[1].CacheWriteTokens != 0 {
		t.Errorf("automatic caching wrote %d tokens: writes are not billed apart", u[1].CacheWriteTokens)
	}
	// Automatic caching finds the rewrite layout's unchanged system message: the runbook is read, the summary not.
	sysTokens := tokens("G\n\nT\n\nS\n")
	if r := usage(t, sim, projection.LayoutRewrite)[1]; r.CacheReadTokens != 3+(sysTokens-3)/2*2 {
		t.Errorf("rewrite turn 2 read %d, want the runbook's %d in steps", r.CacheReadTokens, 3+(sysTokens-3)/2*2)
	}
}

func TestSimulateJSONShape(t *testing.T) {
	sim, err := projection.Simulate([]projection.Session{session}, projection.Options{Model: model(projection.DashScope, 1, 4)})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(sim)
	var doc struct {
		Layouts []struct {
			Name  string                       `json:"name"`
			Turns []map[string]json.RawMessage `json:"turns"`
			Total map[string]json.RawMessage   `json:"total"`
		} `json:"layouts"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range doc.Layouts {
		names = append(names, l.Name)
		for _, k := range []string{"input_tokens", "cache_read_tokens", "cache_write_tokens", "uncached_tokens", "hit_rate", "relative_cost"} {
			if _, ok := l.Total[k]; !ok {
				t.Errorf("%s total lacks %s", l.Name, k)
			}
			if _, ok := l.Turns[0][k]; !ok {
				t.Errorf("%s turn lacks %s", l.Name, k)
			}
		}
	}
	if strings.Join(names, ",") != "promptc,volatile-first,rewrite" {
		t.Errorf("layouts %v", names)
	}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// TestSimulateImplicit: DashScope without markers caches automatically, from its implicit minimum, and reads cost
// the implicit price.
func TestSimulateImplicit(t *testing.T) {
	m := model(projection.DashScope, 1, 4)
	m.ImplicitMinCacheTokens, m.ImplicitCacheRead = 2, 0.2
	sim, err := projection.Simulate([]projection.Session{session}, projection.Options{Model: m, Implicit: true})
	if err != nil {
		t.Fatal(err)
	}
	if sim.Cache != "implicit" {
		t.Errorf("cache %q, want implicit", sim.Cache)
	}
	u := usage(t, sim, projection.LayoutPromptc)[1]
	// Turn 2 begins with turn 1's whole request: its three system messages and u1.
	shared := tokens("G\n\n") + tokens("T\n\n") + tokens("S\n") + tokens("u1")
	if u.CacheReadTokens != shared || u.CacheWriteTokens != 0 {
		t.Errorf("turn 2: %+v, want %d read and nothing written", u, shared)
	}
	want := (0.2*float64(shared) + float64(u.UncachedTokens)) / float64(u.InputTokens)
	if abs(u.RelativeCost-want) > 1e-4 {
		t.Errorf("relative cost %v, want %v (reads at the implicit price 0.2)", u.RelativeCost, want)
	}
}
