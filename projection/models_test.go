package projection_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/provider"
	toks "github.com/promptc/promptc/tokens"
)

func TestBuiltinModels(t *testing.T) {
	defaults := map[projection.Provider]int{}
	seen := map[string]bool{}
	date := regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	for _, m := range projection.Models() {
		key := m.Provider.String() + "/" + m.Name
		if seen[key] {
			t.Errorf("%s listed twice", key)
		}
		seen[key] = true
		if m.Default {
			defaults[m.Provider]++
		}
		if !strings.HasPrefix(m.Source, "https://") || !date.MatchString(m.Checked) {
			t.Errorf("%s: source %q, checked %q: every row cites a provider page and the day it was read", key, m.Source, m.Checked)
		}
		if m.MinCacheTokens < 1 || m.CacheRead <= 0 || m.CacheRead >= 1 || m.Safety < 1 {
			t.Errorf("%s: implausible row %+v", key, m)
		}
		switch m.Provider {
		case projection.Anthropic, projection.DashScope:
			if m.MaxBreakpoints != 4 || m.Lookback != 20 || m.CacheWrite != 1.25 {
				t.Errorf("%s: markers %d, lookback %d, write %v; the provider's page says 4, 20, 1.25", key, m.MaxBreakpoints, m.Lookback, m.CacheWrite)
			}
		case projection.OpenAI:
			explicit := m.Supports(projection.CacheExplicit)
			if m.Matching != projection.Prefix || m.MinCacheTokens != 1024 || m.Step != 128 || (m.MaxBreakpoints != 0) != explicit {
				t.Errorf("%s: OpenAI caches automatically from 1,024 tokens in steps of 128, with 4 breakpoints where explicit: %+v", key, m)
			}
			if explicit && (m.MaxBreakpoints != 4 || m.Considered != 80 || m.CacheWrite != 1.25) {
				t.Errorf("%s: GPT-5.6's breakpoints: 4, the latest 80 considered, writes at 1.25x: %+v", key, m)
			}
		case projection.Bedrock:
			if m.MaxBreakpoints != 4 || !m.Supports(projection.CacheExplicit) {
				t.Errorf("%s: Bedrock takes 4 cachePoints: %+v", key, m)
			}
		case projection.Gemini:
			if m.Mode(projection.CacheDefault) != projection.CacheImplicit || m.StoragePerHour <= 0 || !m.Supports(projection.CacheExplicit) {
				t.Errorf("%s: Gemini caches implicitly by default, and explicitly with a storage price: %+v", key, m)
			}
		case projection.DeepSeek:
			if !m.ReplyUnits || len(m.TTLs) != 0 || m.Mode(projection.CacheDefault) != projection.CacheAutomatic {
				t.Errorf("%s: DeepSeek caches automatically in units, with no choice of lifetime: %+v", key, m)
			}
		}
		if len(m.TTLWrite) > 0 && len(m.TTLWrite) != len(m.TTLs) {
			t.Errorf("%s: %d write prices for %d lifetimes", key, len(m.TTLWrite), len(m.TTLs))
		}
	}
	for name, want := range map[string][]float64{"claude-sonnet-4-5": {1.25, 2}, "claude-opus-4-6": {1.25, 2}} {
		cat, _ := projection.NewCatalog(nil)
		m, _ := cat.Model(projection.Anthropic, name)
		if m.WritePrice(projection.TTL5m) != want[0] || m.WritePrice(projection.TTL1h) != want[1] {
			t.Errorf("%s: writes at %v (5m) and %v (1h), want %v", name, m.WritePrice(projection.TTL5m), m.WritePrice(projection.TTL1h), want)
		}
	}
	// Where practice is reported to differ from the page, the row says so, and markers go from the larger.
	cat, _ := projection.NewCatalog(nil)
	if m, _ := cat.Model(projection.Anthropic, "claude-sonnet-4-6"); m.MinCacheTokens != 1024 || m.PracticeMinCacheTokens != 2048 ||
		!strings.Contains(m.Practice, "#1194") || m.Minimum() != 2151 {
		t.Errorf("claude-sonnet-4-6: page %d, practice %d (%q), minimum %d; want 1024, 2048, #1194, 2151 (2048 × 1.05)",
			m.MinCacheTokens, m.PracticeMinCacheTokens, m.Practice, m.Minimum())
	}
	for _, p := range provider.All() {
		if defaults[p] != 1 {
			t.Errorf("%s has %d default models, want 1", p, defaults[p])
		}
	}
	// The figures the provider's page gives, as written there
	// (docs/decisions.md#model-figures-follow-the-providers-page-dated).
	for name, min := range map[string]int{"claude-opus-4-5": 4096, "claude-opus-4-6": 4096, "claude-haiku-4-5": 4096,
		"claude-sonnet-4-5": 1024, "claude-sonnet-4-6": 1024, "claude-opus-4-1": 1024, "claude-opus-4-0": 1024} {
		if !seen["anthropic/"+name] {
			t.Errorf("no row for %s", name)
			continue
		}
		cat, _ := projection.NewCatalog(nil)
		if m, _ := cat.Model(projection.Anthropic, name); m.MinCacheTokens != min {
			t.Errorf("%s: minimum %d, want %d", name, m.MinCacheTokens, min)
		}
	}
}

func TestMinimumRounding(t *testing.T) {
	for _, tc := range []struct {
		min    int
		safety float64
		want   int
	}{{1024, 1, 1024}, {1024, 1.05, 1076}, {4096, 1.1, 4506}, {1000, 1.5, 1500}, {1024, 0, 1024}} {
		if got := (projection.Model{MinCacheTokens: tc.min, Safety: tc.safety}).Minimum(); got != tc.want {
			t.Errorf("Minimum(%d × %v) = %d, want %d", tc.min, tc.safety, got, tc.want)
		}
	}
}

func TestCatalog(t *testing.T) {
	two, half := 2048, 0.5
	cat, err := projection.NewCatalog([]*blocks.ModelRow{
		{Provider: "anthropic", Name: "claude-sonnet-4-6", MinCacheTokens: &two},
		{Provider: "openai", Name: "my-finetune", CacheRead: &half},
	})
	if err != nil {
		t.Fatal(err)
	}
	m, err := cat.Model(projection.Anthropic, "claude-sonnet-4-6")
	if err != nil || m.MinCacheTokens != 2048 || m.MaxBreakpoints != 4 {
		t.Errorf("override: %+v, %v; want minimum 2048 and the rest as built in", m, err)
	}
	m, err = cat.Model(projection.OpenAI, "my-finetune")
	if err != nil || m.CacheRead != 0.5 || m.MinCacheTokens != 1024 || m.Default || m.Source != "promptc.toml" {
		t.Errorf("added row: %+v, %v; want the default model's rules with cache_read 0.5", m, err)
	}
	if m, _ := cat.Model(projection.OpenAI, ""); m.Name != "gpt-5" {
		t.Errorf("default openai model %q", m.Name)
	}
	if _, err := cat.Model(projection.Anthropic, "claude-sonet-4-6"); err == nil || !strings.Contains(err.Error(), `did you mean "claude-sonnet-4-6"`) {
		t.Errorf("misspelt model: %v", err)
	}
	if _, err := projection.NewCatalog([]*blocks.ModelRow{{Provider: "azure", Name: "x"}}); err == nil {
		t.Error("unknown provider: no error")
	}
	// The built-in rows are not changed by a catalog's overrides.
	for _, m := range projection.Models() {
		if m.Name == "claude-sonnet-4-6" && m.MinCacheTokens != 1024 {
			t.Error("NewCatalog changed the built-in rows")
		}
	}
}

// TestEveryModeProjects: every built-in model, in every cache mode and lifetime it offers, projects and simulates
// the reference project's longest session; each mode or lifetime it does not offer is refused by both.
func TestEveryModeProjects(t *testing.T) {
	prog, diags := assemble.LoadDir("../examples/tracker")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	f := prog.Project.Fixture("conversation")
	s, err := projection.FixtureReplay(prog, "chat", f)
	if err != nil {
		t.Fatal(err)
	}
	counter := toks.New(toks.O200k)
	allModes := []projection.CacheMode{projection.CacheExplicit, projection.CacheAutomatic, projection.CacheImplicit}
	allTTLs := []projection.TTL{projection.TTL5m, projection.TTL30m, projection.TTL1h, projection.TTLInMemory, projection.TTL24h}
	for _, m := range projection.Models() {
		for _, mode := range allModes {
			for _, ttl := range append([]projection.TTL{projection.TTLDefault}, allTTLs...) {
				opt := projection.Options{Model: m, Cache: mode, TTL: ttl, Tools: prog.Project.ToolsFor("chat"), Counter: counter}
				checked := opt.Check()
				_, perr := projection.New(s.Input(len(s.Turns)), opt)
				_, serr := projection.Simulate([]projection.Replay{s}, opt)
				if (perr == nil) != (checked == nil) || (serr == nil) != (checked == nil) {
					t.Errorf("%s/%s %s %s: Check %v, Project %v, Simulate %v", m.Provider, m.Name, mode, ttl, checked, perr, serr)
				}
				if m.Supports(mode) && ttl == projection.TTLDefault && checked != nil {
					t.Errorf("%s/%s: offered mode %s refused: %v", m.Provider, m.Name, mode, checked)
				}
			}
		}
	}
}
