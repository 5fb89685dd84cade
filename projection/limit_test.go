package projection_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/projection"
)

// TestSimulateCacheLimit: a model that caches at most MaxCacheTokens tokens of a prompt (Amazon Nova) reads and
// writes no token after them; they are sent uncached and counted beyond the limit, and the report says so.
func TestSimulateCacheLimit(t *testing.T) {
	m := model(projection.Bedrock, 1, 4)
	g, gt, sys := tokens("G\n\n"), tokens("G\n\n")+tokens("T\n\n"), tokens("G\n\n")+tokens("T\n\n")+tokens("S\n")
	m.MaxCacheTokens = gt // the limit falls at the end of the task segment
	sim, err := projection.Simulate([]projection.Replay{session}, projection.Options{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	in1 := sys + tokens("u1")
	in2 := sys + tokens("u1") + tokens("a1") + tokens("u2")
	want := []projection.Usage{
		// Turn 1 marks G, T and S: the cache takes G and T (gt tokens), S and the turn are sent uncached.
		{Session: "s", Turn: 1, InputTokens: in1, CacheWriteTokens: gt, UncachedTokens: in1 - gt, BeyondCapTokens: sys - gt},
		// Turn 2 reads the first gt tokens back through S's entry, writes nothing new (the history's marker is past the
		// limit), and everything after the limit up to the history's marker is beyond it.
		{Session: "s", Turn: 2, InputTokens: in2, CacheReadTokens: gt, UncachedTokens: in2 - gt,
			BeyondCapTokens: sys + tokens("u1") + tokens("a1") - gt},
	}
	u := usage(t, sim, projection.LayoutPromptc)
	for i := range want {
		g := u[i]
		g.HitRate, g.RelativeCost, g.WriteCost = 0, 0, 0
		if g != want[i] {
			t.Errorf("turn %d: %+v, want %+v", i+1, g, want[i])
		}
	}
	if g >= gt {
		t.Fatalf("the test needs G shorter than G and T")
	}
	var text bytes.Buffer
	if err := sim.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	total := want[0].BeyondCapTokens + want[1].BeyondCapTokens
	for _, frag := range []string{
		fmt.Sprintf("minimum 1 tokens, at most %d cached", gt),
		fmt.Sprintf("beyond the cache limit: %d tokens after the first %d of a prompt were sent uncached", total, gt),
	} {
		if !strings.Contains(text.String(), frag) {
			t.Errorf("report lacks %q:\n%s", frag, text.String())
		}
	}
	// Without a limit, nothing is beyond it and the report has no such line.
	m.MaxCacheTokens = 0
	sim, _ = projection.Simulate([]projection.Replay{session}, projection.Options{Model: m})
	text.Reset()
	_ = sim.WriteText(&text)
	if sim.Layouts[0].Total.BeyondCapTokens != 0 || strings.Contains(text.String(), "beyond the cache limit") {
		t.Errorf("no limit, yet tokens beyond it:\n%s", text.String())
	}
}

// TestProjectCacheLimitSummary: project's summary says how many of a request's cached tokens the limit drops.
func TestProjectCacheLimitSummary(t *testing.T) {
	m := model(projection.Bedrock, 1, 4)
	m.MaxCacheTokens = tokens("G\n\n")
	pr := project(t, projection.Input{Runbook: gts, History: convo, Turn: "u2"}, projection.Options{Model: m})
	last := tokens("G\n\n") + tokens("T\n\n") + tokens("S\n") + tokens("u1") + tokens("a1")
	want := fmt.Sprintf("this model caches at most %d tokens of a prompt: the %d after them are billed as input", m.MaxCacheTokens, last-m.MaxCacheTokens)
	if !strings.Contains(pr.Summary(), want) {
		t.Errorf("summary %q lacks %q", pr.Summary(), want)
	}
}

// TestNovaRows: the Nova rows carry the model cards' figures: a 1,000-token minimum per checkpoint, 4 checkpoints,
// 5 minutes, at most 20,000 tokens cached, and no checkpoint in the tools.
func TestNovaRows(t *testing.T) {
	cat, err := projection.NewCatalog(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"amazon.nova-pro-v1:0", "amazon.nova-lite-v1:0", "amazon.nova-micro-v1:0"} {
		m, err := cat.Model(projection.Bedrock, name)
		if err != nil {
			t.Fatal(err)
		}
		if m.MinCacheTokens != 1000 || m.MaxBreakpoints != 4 || m.MaxCacheTokens != 20000 || m.ToolMarkers ||
			len(m.TTLs) != 1 || m.TTLs[0] != projection.TTL5m {
			t.Errorf("%s: %+v", name, m)
		}
	}
}

// TestSimulateDeepSeekUnits: DeepSeek reads a cached prefix unit only whole, and in whole 64-token storage units:
// turn 2 begins with turn 1's request and reply, a unit of 96 tokens, of which it reads 64 (the catalog's row:
// minimum 64, step 64). Counted by hand: the runbook is 81 tokens, "Look at NW-142 first." 7, the reply 8, "Why?" 2.
func TestSimulateDeepSeekUnits(t *testing.T) {
	cat, err := projection.NewCatalog(nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := cat.Model(projection.DeepSeek, "")
	if err != nil {
		t.Fatal(err)
	}
	rb := &assemble.Artifact{Text: strings.Repeat("Check the invoice. ", 20) + "\n"}
	s := projection.Replay{Name: "s", Runbook: rb, Turns: []string{"Look at NW-142 first.", "Why?"},
		Replies: []string{"The login fails because the cookie expired."}}
	if got := []int{tokens(rb.Text), tokens(s.Turns[0]), tokens(s.Replies[0]), tokens(s.Turns[1])}; fmt.Sprint(got) != "[81 7 8 2]" {
		t.Fatalf("token counts %v, want [81 7 8 2]: the hand count below needs them", got)
	}
	sim, err := projection.Simulate([]projection.Replay{s}, projection.Options{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	u := usage(t, sim, projection.LayoutPromptc)
	want := []projection.Usage{
		{Session: "s", Turn: 1, InputTokens: 88, UncachedTokens: 88},
		// 81 + 7 + 8 = 96 tokens in the unit turn 2 begins with; whole 64-token units: 64 read, 98 - 64 uncached.
		{Session: "s", Turn: 2, InputTokens: 98, CacheReadTokens: 64, UncachedTokens: 34, HitRate: 0.6531},
	}
	for i := range want {
		g := u[i]
		g.RelativeCost, g.WriteCost = 0, 0
		if g != want[i] {
			t.Errorf("turn %d: %+v, want %+v", i+1, g, want[i])
		}
	}
	// The same unit with no storage unit (step 1) is read whole: 96.
	m.Step = 1
	sim, _ = projection.Simulate([]projection.Replay{s}, projection.Options{Model: m})
	if r := usage(t, sim, projection.LayoutPromptc)[1].CacheReadTokens; r != 96 {
		t.Errorf("step 1: read %d, want the whole unit's 96", r)
	}
}

// TestBedrockClaudeRows: the Claude rows on Bedrock carry the prompt-caching page's table, whose minimums differ
// from Anthropic's own API for Sonnet 4.5 (4,096 on Bedrock, 1,024 at Anthropic), and whose 1-hour lifetime only
// some models take.
func TestBedrockClaudeRows(t *testing.T) {
	cat, err := projection.NewCatalog(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		min  int
		ttls string
	}{
		{"anthropic.claude-sonnet-4-5-20250929-v1:0", 4096, "[5m 1h]"},
		{"anthropic.claude-sonnet-4-6", 1024, "[5m]"},
		{"anthropic.claude-opus-4-5-20251101-v1:0", 4096, "[5m 1h]"},
		{"anthropic.claude-opus-4-6-v1", 4096, "[5m]"},
		{"anthropic.claude-haiku-4-5-20251001-v1:0", 4096, "[5m 1h]"},
	} {
		m, err := cat.Model(projection.Bedrock, tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if m.MinCacheTokens != tc.min || fmt.Sprint(m.TTLs) != tc.ttls || m.MaxBreakpoints != 4 || !m.ToolMarkers ||
			!m.Supports(projection.CacheAutomatic) || m.MaxCacheTokens != 0 {
			t.Errorf("%s: minimum %d, lifetimes %v; want %d and %s, 4 checkpoints, tools, automatic, no limit", tc.name, m.MinCacheTokens, m.TTLs, tc.min, tc.ttls)
		}
		if err := m.Check(projection.CacheExplicit, projection.TTL1h); (err == nil) != (tc.ttls == "[5m 1h]") {
			t.Errorf("%s: --ttl 1h accepted: %v", tc.name, err)
		}
	}
}

// TestGeminiRows: the Gemini rows carry the caching page's 2,048-token minimum for both 2.5 models and the pricing
// page's ratios: hits a tenth of the input price, storage $1.00 against $0.30 (Flash) and $4.50 against $1.25
// (Pro) per million tokens an hour.
func TestGeminiRows(t *testing.T) {
	cat, err := projection.NewCatalog(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		storage float64
	}{
		{"gemini-2.5-flash", 1.00 / 0.30},
		{"gemini-2.5-pro", 4.50 / 1.25},
	} {
		m, err := cat.Model(projection.Gemini, tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if m.MinCacheTokens != 2048 || m.CacheRead != 0.1 || abs(m.StoragePerHour-tc.storage) > 1e-4 {
			t.Errorf("%s: minimum %d, read %v, storage %v; want 2,048, 0.1, %.4f", tc.name, m.MinCacheTokens, m.CacheRead, m.StoragePerHour, tc.storage)
		}
	}
}

// TestDeepSeekRows: every DeepSeek row reads whole units in 64-token storage units, at the pricing page's ratios:
// deepseek-flash $0.003 against $0.15 (0.02), deepseek-v4-pro $0.022 against $0.66 (0.0333), and deepseek-chat,
// billed as deepseek-flash, 0.02.
func TestDeepSeekRows(t *testing.T) {
	cat, err := projection.NewCatalog(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		read float64
	}{
		{"deepseek-chat", 0.003 / 0.15},
		{"deepseek-flash", 0.003 / 0.15},
		{"deepseek-v4-pro", 0.022 / 0.66},
	} {
		m, err := cat.Model(projection.DeepSeek, tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if m.MinCacheTokens != 64 || m.Step != 64 || !m.ReplyUnits || abs(m.CacheRead-tc.read) > 1e-4 || m.CacheWrite != 1 {
			t.Errorf("%s: %+v; want units of 64 from 64, read %.4f", tc.name, m, tc.read)
		}
	}
	if m, _ := cat.Model(projection.DeepSeek, ""); m.Name != "deepseek-chat" {
		t.Errorf("default DeepSeek model %s, want deepseek-chat", m.Name)
	}
}

// TestModelRowLimits: a [[model]] row sets max_cache_tokens and tool_markers like any other key, and only what it
// sets: a Nova model the table lacks starts from Bedrock's default (Claude: tool markers, no cap) until its row says
// otherwise, and a row that lifts Nova Pro's cap with 0 leaves the rest of the shipped row alone.
func TestModelRowLimits(t *testing.T) {
	no, zero, cap := false, 0, 20000
	cat, err := projection.NewCatalog([]*blocks.ModelRow{
		{Provider: "bedrock", Name: "amazon.nova-premier-v1:0", ToolMarkers: &no, MaxCacheTokens: &cap},
		{Provider: "bedrock", Name: "amazon.nova-next-v1:0"},
		{Provider: "bedrock", Name: "amazon.nova-pro-v1:0", MaxCacheTokens: &zero},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		tools bool
		cap   int
		min   int
	}{
		{"amazon.nova-premier-v1:0", false, 20000, 4096},
		{"amazon.nova-next-v1:0", true, 0, 4096},
		{"amazon.nova-pro-v1:0", false, 0, 1000},
	} {
		m, err := cat.Model(projection.Bedrock, tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if m.ToolMarkers != tt.tools || m.MaxCacheTokens != tt.cap || m.MinCacheTokens != tt.min {
			t.Errorf("%s: tool markers %v, max %d, min %d; want %v, %d, %d", tt.name, m.ToolMarkers, m.MaxCacheTokens,
				m.MinCacheTokens, tt.tools, tt.cap, tt.min)
		}
	}
}

// TestSummarySafetyWording: the tokenizer margin is said of a marker where markers are placed, and of the cached
// prefix where the provider caches without them (DeepSeek's rows take no marker at all).
func TestSummarySafetyWording(t *testing.T) {
	cat, err := projection.NewCatalog(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		p     projection.Provider
		cache projection.CacheMode
		want  string
		not   string
	}{
		{projection.DeepSeek, projection.CacheDefault, "so a cached prefix needs ", "a marker needs"},
		{projection.DashScope, projection.CacheExplicit, "so a marker needs ", "a cached prefix needs"},
	} {
		m, err := cat.Model(tt.p, "")
		if err != nil {
			t.Fatal(err)
		}
		if m.Safety <= 1 {
			t.Fatalf("%s's default row has no tokenizer margin (safety %v): the test needs one", tt.p, m.Safety)
		}
		pr := project(t, projection.Input{Runbook: gts, History: convo, Turn: "u2"}, projection.Options{Model: m, Cache: tt.cache})
		if s := pr.Summary(); !strings.Contains(s, tt.want) || strings.Contains(s, tt.not) {
			t.Errorf("%s summary %q: want %q, not %q", tt.p, s, tt.want, tt.not)
		}
	}
}
