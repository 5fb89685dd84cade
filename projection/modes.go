package projection

import (
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/provider"
)

// Provider is an API whose request bodies promptc projects (package provider holds the one list).
type Provider = provider.Provider

// The providers (provider.Anthropic, ...).
const (
	Anthropic = provider.Anthropic
	OpenAI    = provider.OpenAI
	DashScope = provider.DashScope
	Bedrock   = provider.Bedrock
	Gemini    = provider.Gemini
	DeepSeek  = provider.DeepSeek
)

// ParseProvider returns the provider named s (provider.Parse).
func ParseProvider(s string) (Provider, error) { return provider.Parse(s) }

// CacheMode is how a request uses the provider's prompt cache (provider.CacheMode).
type CacheMode = provider.CacheMode

// The cache modes.
const (
	CacheDefault   = provider.CacheDefault
	CacheExplicit  = provider.CacheExplicit
	CacheAutomatic = provider.CacheAutomatic
	CacheImplicit  = provider.CacheImplicit
)

// ParseCacheMode returns the mode named s: explicit, automatic or implicit.
func ParseCacheMode(s string) (CacheMode, error) { return provider.ParseCacheMode(s) }

// TTL is how long a cache entry lives from its last use (provider.TTL).
type TTL = provider.TTL

// The cache lifetimes.
const (
	TTLDefault  = provider.TTLDefault
	TTL5m       = provider.TTL5m
	TTL30m      = provider.TTL30m
	TTL1h       = provider.TTL1h
	TTLInMemory = provider.TTLInMemory
	TTL24h      = provider.TTL24h
)

// ParseTTL returns the lifetime named s: 5m, 30m, 1h, in_memory or 24h.
func ParseTTL(s string) (TTL, error) { return provider.ParseTTL(s) }

// Matching is how a model finds a cached prefix (provider.Matching).
type Matching = provider.Matching

// The matchings.
const (
	Breakpoints = provider.Breakpoints
	Prefix      = provider.Prefix
	Messages    = provider.Messages
)

// Model is what promptc knows of one model's prompt cache (provider.Model).
type Model = provider.Model

// Catalog is the models a project projects for (provider.Catalog).
type Catalog = provider.Catalog

// Models returns the built-in model rows, in the order of the embedded table (provider/models.toml).
func Models() []Model { return provider.Models() }

// NewCatalog returns the built-in rows with the project's [[model]] rows applied over them: a row naming a built-in
// model changes the fields it sets; a row naming another model adds it, starting from the provider's default
// model's rules.
func NewCatalog(rows []*blocks.ModelRow) (*Catalog, error) {
	if len(rows) == 0 {
		return provider.Builtin(), nil
	}
	out := make([]provider.Row, 0, len(rows))
	for _, r := range rows {
		p, err := provider.Parse(r.Provider)
		if err != nil {
			return nil, err
		}
		out = append(out, provider.Row{Provider: p, Name: r.Name, MinCacheTokens: r.MinCacheTokens,
			MaxBreakpoints: r.MaxBreakpoints, Lookback: r.Lookback, Step: r.Step, CacheWrite: r.CacheWrite,
			CacheRead: r.CacheRead, Safety: r.Safety, MaxCacheTokens: r.MaxCacheTokens, ToolMarkers: r.ToolMarkers,
			Source: r.Source, Checked: r.Checked, InputPricePerMTok: r.InputPricePerMTok, PriceSource: r.PriceSource,
			PriceChecked: r.PriceChecked})
	}
	return provider.NewCatalog(out), nil
}
