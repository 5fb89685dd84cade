package projection_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/promptc/promptc/projection"
)

var session = projection.Replay{Name: "s", Runbook: gts, Turns: []string{"u1", "u2"}, Replies: []string{"a1"}}

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
	sim, err := projection.Simulate([]projection.Replay{session}, projection.Options{Model: model(projection.Anthropic, 1, 4)})
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
		g.HitRate, g.RelativeCost, g.WriteCost = 0, 0, 0
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
	s := projection.Replay{Name: "s", Runbook: gts, Turns: turns}
	m := model(projection.Anthropic, 1, 1) // one marker: the history's, from turn 2 on
	m.Lookback = 1
	sim, err := projection.Simulate([]projection.Replay{s}, projection.Options{Model: m})
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
	sim, _ = projection.Simulate([]projection.Replay{s}, projection.Options{Model: m})
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
	sim, err := projection.Simulate([]projection.Replay{session}, projection.Options{Model: m})
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
	// The automatic cache's prefixes expire too: with in_memory retention (counted as 5 minutes) a turn 5 minutes
	// later reads nothing, and what it would have read is reported expired; 24h keeps it.
	m.TTLs = []projection.TTL{projection.TTLInMemory, projection.TTL24h}
	for _, tc := range []struct {
		ttl  projection.TTL
		read int
	}{{projection.TTLInMemory, 0}, {projection.TTL24h, want}} {
		sim, _ := projection.Simulate([]projection.Replay{session}, projection.Options{Model: m, Gap: 5 * time.Minute, TTL: tc.ttl})
		if u := usage(t, sim, projection.LayoutPromptc)[1]; u.CacheReadTokens != tc.read || u.ExpiredTokens != want-tc.read {
			t.Errorf("%s, 5 minutes later: %+v; want %d read, %d expired", tc.ttl, u, tc.read, want-tc.read)
		}
	}
	// Automatic caching finds the rewrite layout's unchanged system message: the runbook is read, the summary not.
	sysTokens := tokens("G\n\nT\n\nS\n")
	if r := usage(t, sim, projection.LayoutRewrite)[1]; r.CacheReadTokens != 3+(sysTokens-3)/2*2 {
		t.Errorf("rewrite turn 2 read %d, want the runbook's %d in steps", r.CacheReadTokens, 3+(sysTokens-3)/2*2)
	}
}

func TestSimulateJSONShape(t *testing.T) {
	sim, err := projection.Simulate([]projection.Replay{session}, projection.Options{Model: model(projection.DashScope, 1, 4)})
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
	sim, err := projection.Simulate([]projection.Replay{session}, projection.Options{Model: m, Implicit: true})
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

// TestSimulateLifetimes pins the arithmetic of expiry and of the lifetime comparison on a case computed by hand.
// Two turns ten minutes apart, Anthropic's rules with a minimum of one token:
//
//   - 5m: turn 1 writes the system (sys tokens) at 1.25; by turn 2 it has expired, so turn 2 writes it again
//     (sys expired tokens) with the history: 1.25·(sys+u1+a1), and sends u2 uncached;
//   - 1h: turn 1 writes the system at 2.0 (its markers carry the 1h lifetime); turn 2 reads it (0.1·sys) and
//     writes the history at 1.25 (the history's marker keeps 5m): 1h is the cheaper by 0.4·sys.
func TestSimulateLifetimes(t *testing.T) {
	m := model(projection.Anthropic, 1, 4)
	m.Modes = []projection.CacheMode{projection.CacheExplicit}
	m.TTLs, m.TTLWrite = []projection.TTL{projection.TTL5m, projection.TTL1h}, []float64{1.25, 2.0}
	sys, u1, a1, u2 := tokens("G\n\n")+tokens("T\n\n")+tokens("S\n"), tokens("u1"), tokens("a1"), tokens("u2")
	input := float64(sys + u1 + sys + u1 + a1 + u2)
	sim, err := projection.Simulate([]projection.Replay{session}, projection.Options{Model: m, Gap: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	u := usage(t, sim, projection.LayoutPromptc)
	if u[1].CacheReadTokens != 0 || u[1].ExpiredTokens != sys || u[1].CacheWriteTokens != sys+u1+a1 {
		t.Errorf("5m, turn 2: %+v; want nothing read, %d expired, %d written", u[1], sys, sys+u1+a1)
	}
	want5 := (1.25*float64(sys) + float64(u1) + 1.25*float64(sys+u1+a1) + float64(u2)) / input
	want1 := (2.0*float64(sys) + float64(u1) + 0.1*float64(sys) + 1.25*float64(u1+a1) + float64(u2)) / input
	if len(sim.Lifetimes) != 2 || sim.Lifetimes[0].TTL != "5m" || sim.Lifetimes[1].TTL != "1h" {
		t.Fatalf("lifetimes %+v, want 5m and 1h", sim.Lifetimes)
	}
	l5, l1 := sim.Lifetimes[0].Total, sim.Lifetimes[1].Total
	if abs(l5.RelativeCost-want5) > 1e-4 || abs(l1.RelativeCost-want1) > 1e-4 {
		t.Errorf("costs 5m %v, 1h %v; want %.4f and %.4f", l5.RelativeCost, l1.RelativeCost, want5, want1)
	}
	if l1.LongTTLWriteTokens != sys || l1.ExpiredTokens != 0 || l1.CacheReadTokens != sys {
		t.Errorf("1h total %+v: want %d written at 1h, nothing expired, %d read", l1, sys, sys)
	}
	if sim.Cheapest != "1h" {
		t.Errorf("cheapest %q, want 1h", sim.Cheapest)
	}
	// Thirty seconds apart nothing expires, and the 5m lifetime's cheaper writes win.
	sim, _ = projection.Simulate([]projection.Replay{session}, projection.Options{Model: m})
	if sim.Cheapest != "5m" || sim.Lifetimes[0].Total.ExpiredTokens != 0 {
		t.Errorf("30s gaps: cheapest %q, expired %d; want 5m, 0", sim.Cheapest, sim.Lifetimes[0].Total.ExpiredTokens)
	}
	// An entry lives its lifetime and not a moment more: used at t, it is gone for a request at t + 5m.
	for _, tc := range []struct {
		gap           time.Duration
		read, expired int
	}{{5*time.Minute - time.Second, sys, 0}, {5 * time.Minute, 0, sys}} {
		sim, _ = projection.Simulate([]projection.Replay{session}, projection.Options{Model: m, Gap: tc.gap, TTL: projection.TTL5m})
		if u := usage(t, sim, projection.LayoutPromptc)[1]; u.CacheReadTokens != tc.read || u.ExpiredTokens != tc.expired {
			t.Errorf("gap %v, 5m: turn 2 read %d, expired %d; want %d, %d", tc.gap, u.CacheReadTokens, u.ExpiredTokens, tc.read, tc.expired)
		}
	}
	// A fixture's own pace (Replay.After) is the gap where Options.Gap is not set.
	slow := session
	slow.After = []time.Duration{0, 10 * time.Minute}
	sim, _ = projection.Simulate([]projection.Replay{slow}, projection.Options{Model: m})
	if sim.Cheapest != "1h" {
		t.Errorf("after = 10m: cheapest %q, want 1h", sim.Cheapest)
	}
}

// TestSimulateGeminiStorage: Gemini's explicit cache holds the global and task segments (st tokens), written once
// at the input price and read on turn 2 (its lifetime runs from its creation); keeping it costs st × hours × the
// storage price, so over a minute the 5m lifetime is the cheapest: 0.25·st against 3·st (1h) and 72·st (24h).
func TestSimulateGeminiStorage(t *testing.T) {
	m := projection.Model{Provider: projection.Gemini, Name: "g", Matching: projection.Prefix, MinCacheTokens: 1, Step: 1,
		CacheWrite: 1, CacheRead: 0.1, Safety: 1, StoragePerHour: 3, NoRefresh: true,
		Modes: []projection.CacheMode{projection.CacheImplicit, projection.CacheExplicit},
		TTLs:  []projection.TTL{projection.TTL1h, projection.TTL5m, projection.TTL24h}}
	st := tokens("G\n\n") + tokens("T\n\n")
	sim, err := projection.Simulate([]projection.Replay{session}, projection.Options{Model: m, Cache: projection.CacheExplicit})
	if err != nil {
		t.Fatal(err)
	}
	u := usage(t, sim, projection.LayoutPromptc)
	if u[0].CacheWriteTokens != st || u[1].CacheReadTokens != st || u[1].CacheWriteTokens != 0 {
		t.Errorf("turns %+v; want %d written on turn 1 and read on turn 2", u, st)
	}
	if u[0].StorageCost != 3*float64(st) {
		t.Errorf("storage %v, want %v (an hour of %d tokens at 3)", u[0].StorageCost, 3*float64(st), st)
	}
	var got []string
	for _, l := range sim.Lifetimes {
		got = append(got, fmt.Sprintf("%s:%.2f", l.TTL, l.Total.StorageCost))
	}
	want := fmt.Sprintf("1h:%.2f 5m:%.2f 24h:%.2f", 3*float64(st), 0.25*float64(st), 72*float64(st))
	if strings.Join(got, " ") != want || sim.Cheapest != "5m" {
		t.Errorf("lifetimes %v, cheapest %q; want %s, 5m", got, sim.Cheapest, want)
	}
}

// TestSimulateShortfall: when no prefix reaches the minimum, the simulation says which comes closest, and by how
// much; once one does, it says nothing.
func TestSimulateShortfall(t *testing.T) {
	sim, err := projection.Simulate([]projection.Replay{session}, projection.Options{Model: model(projection.Anthropic, 1000, 4)})
	if err != nil {
		t.Fatal(err)
	}
	n := tokens("G\n\nT\n\nS\n") + tokens("u1") + tokens("a1")
	want := projection.Shortfall{Where: "the history", Session: "s", Turn: 2, Tokens: n, Minimum: 1000, Short: 1000 - n}
	if sim.Closest == nil || *sim.Closest != want {
		t.Errorf("closest %+v, want %+v", sim.Closest, want)
	}
	sim, _ = projection.Simulate([]projection.Replay{session}, projection.Options{Model: model(projection.OpenAI, 1000, 0)})
	if c := sim.Closest; c == nil || c.Where != "the whole request" || c.Turn != 2 || c.Short != 1000-c.Tokens {
		t.Errorf("automatic caching: closest %+v, want the whole request of turn 2", c)
	}
	sim, _ = projection.Simulate([]projection.Replay{session}, projection.Options{Model: model(projection.Anthropic, 1, 4)})
	if sim.Closest != nil {
		t.Errorf("a minimum of 1 is reached, yet closest %+v", sim.Closest)
	}
}

// TestSimulateHistoryBudget: with a history budget, promptc's layout moves its cut in steps and keeps reading its
// cached history between them; trimming at every turn moves the cut every turn, so that nothing after the runbook
// is read again.
func TestSimulateHistoryBudget(t *testing.T) {
	long := projection.Replay{Name: "long", Runbook: gts}
	for i := 0; i < 30; i++ {
		long.Turns = append(long.Turns, fmt.Sprintf("Turn %d: look at the next issue of the list and say what it needs.", i))
		long.Replies = append(long.Replies, fmt.Sprintf("Reply %d: it needs a test and a fix in the rate table.", i))
	}
	sim, err := projection.Simulate([]projection.Replay{long}, projection.Options{Model: model(projection.Anthropic, 1, 4), MaxHistoryTokens: 400})
	if err != nil {
		t.Fatal(err)
	}
	stepped, every := usage(t, sim, projection.LayoutPromptc), usage(t, sim, projection.LayoutTrimEveryTurn)
	sys := tokens("G\n\n") + tokens("T\n\n") + tokens("S\n")
	late := func(us []projection.Usage) (n int) {
		for _, u := range us[20:] {
			if u.CacheReadTokens > sys {
				n++
			}
		}
		return n
	}
	if s, e := late(stepped), late(every); e != 0 || s < 5 {
		t.Errorf("turns 21-30 reading history: stepped %d, every turn %d; want most, and none", s, e)
	}
	for _, u := range stepped {
		if u.InputTokens-sys-tokens(long.Turns[u.Turn-1]) > 400 {
			t.Errorf("turn %d: history of %d tokens over the budget of 400", u.Turn, u.InputTokens-sys-tokens(long.Turns[u.Turn-1]))
		}
	}
	if len(sim.Layouts) != 4 || sim.Layouts[3].Name != projection.LayoutTrimEveryTurn {
		t.Errorf("layouts %d, want the trimming one last", len(sim.Layouts))
	}
}
