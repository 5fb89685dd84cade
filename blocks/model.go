package blocks

import (
	"slices"
	"strings"

	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/source"
)

// ModelRow is a [[model]] row of promptc.toml: provider model data (how a model caches a prompt prefix, and what it
// costs) that overrides the row promptc ships for the same provider and name, or adds a model it does not know.
// A pointer field is nil when the row does not set it, so that an override changes only what it names.
type ModelRow struct {
	// Provider is one of provider.Names(); Name the model id as the provider's API takes it.
	Provider, Name string
	// MinCacheTokens (≥ 1) is the shortest prefix the provider caches; MaxBreakpoints (≥ 0) how many cache markers
	// a request may carry; Lookback (≥ 0) how many content blocks before a marker are searched for an earlier
	// entry; Step (≥ 1) the granularity of cached tokens above the minimum.
	MinCacheTokens, MaxBreakpoints, Lookback, Step *int
	// CacheWrite and CacheRead (≥ 0) are the prices of a token written to and read from the cache, as multiples of
	// the input price; Safety (≥ 1) the factor by which a counted prefix must exceed MinCacheTokens.
	CacheWrite, CacheRead, Safety *float64
	// MaxCacheTokens (≥ 0) is the longest prefix the provider caches, 0 for no limit (Amazon Nova: 20,000).
	MaxCacheTokens *int
	// ToolMarkers says whether the model takes a cache marker after the tool definitions.
	ToolMarkers *bool
	// InputPricePerMTok (≥ 0) is the price in USD of a million uncached input tokens; PriceSource and PriceChecked
	// cite where it was read, and when.
	InputPricePerMTok         *float64
	PriceSource, PriceChecked string
	// Source and Checked cite where the data was read, and when.
	Source, Checked string
	// Range is the row's [[model]] header.
	Range source.Range
}

// Providers lists the providers a [[model]] row may name: provider.Names(), the one list of providers promptc
// knows (docs/providers.md).
var Providers = provider.Names()

// The keys of a [[model]] row, in the order they are read and listed in "known keys" hints.
var modelKeys = []key[*ModelRow]{
	{name: "provider", kind: kindString, need: needText[*ModelRow](`[[model]] needs a provider: add provider = "anthropic" (or another of docs/providers.md)`),
		set: func(r *tableReader, m *ModelRow, v value) {
			if !provider.Known(v.str) {
				r.l.errorf(r.valueRange("provider"), `provider must be %s, not %q%s`, provider.QuotedList(), v.str, suggest.DidYouMean(v.str, provider.Names()))
				return
			}
			m.Provider = v.str
		}},
	{name: "name", kind: kindString, need: needText[*ModelRow](`[[model]] needs the model's name: add name = "…" (the model id as the provider's API takes it)`),
		set: func(r *tableReader, m *ModelRow, v value) {
			if strings.TrimSpace(v.str) == "" {
				r.errorf("name", "name must not be empty")
				return
			}
			m.Name = v.str
		}},
	modelInt("min_cache_tokens", 1, func(m *ModelRow, n *int) { m.MinCacheTokens = n }),
	modelInt("max_breakpoints", 0, func(m *ModelRow, n *int) { m.MaxBreakpoints = n }),
	modelInt("lookback", 0, func(m *ModelRow, n *int) { m.Lookback = n }),
	modelNumber("cache_write", 0, func(m *ModelRow, f *float64) { m.CacheWrite = f }),
	modelNumber("cache_read", 0, func(m *ModelRow, f *float64) { m.CacheRead = f }),
	modelNumber("safety", 1, func(m *ModelRow, f *float64) { m.Safety = f }),
	modelInt("step", 1, func(m *ModelRow, n *int) { m.Step = n }),
	modelInt("max_cache_tokens", 0, func(m *ModelRow, n *int) { m.MaxCacheTokens = n }),
	{name: "tool_markers", kind: kindBool, set: func(_ *tableReader, m *ModelRow, v value) {
		b := v.b
		m.ToolMarkers = &b
	}},
	modelNumber("input_price_per_mtok", 0, func(m *ModelRow, f *float64) { m.InputPricePerMTok = f }),
	{name: "price_source", kind: kindString, set: func(_ *tableReader, m *ModelRow, v value) { m.PriceSource = v.str }},
	{name: "price_checked", kind: kindString, set: func(_ *tableReader, m *ModelRow, v value) { m.PriceChecked = v.str }},
	{name: "source", kind: kindString, set: func(_ *tableReader, m *ModelRow, v value) { m.Source = v.str }},
	{name: "checked", kind: kindString, set: func(_ *tableReader, m *ModelRow, v value) { m.Checked = v.str }},
}

func modelInt(name string, lo int64, set func(*ModelRow, *int)) key[*ModelRow] {
	return key[*ModelRow]{name: name, kind: kindInt, min: lo, max: noMax, set: func(_ *tableReader, m *ModelRow, v value) {
		n := int(v.n)
		set(m, &n)
	}}
}

func modelNumber(name string, lo int64, set func(*ModelRow, *float64)) key[*ModelRow] {
	return key[*ModelRow]{name: name, kind: kindNumber, min: lo, set: func(_ *tableReader, m *ModelRow, v value) {
		f := v.f
		set(m, &f)
	}}
}

// setModels reads the [[model]] rows of promptc.toml. Two rows for the same provider and name are an error: which
// one counts would depend on their order.
func setModels(r *tableReader, l *loader, v value) {
	seen := map[[2]string]source.Range{}
	for i, m := range v.tables {
		mr := l.table(r.file, r.ix, "model", i, "[[model]]", m)
		row := &ModelRow{Range: mr.src.Header}
		decode(mr, row, modelKeys)
		if row.Provider != "" && row.Name != "" {
			k := [2]string{row.Provider, row.Name}
			at := mr.valueRange("name")
			if prev, dup := seen[k]; dup {
				l.errorf(at, "model %q of provider %q has two [[model]] rows: here and at %s; merge them into one", row.Name, row.Provider, prev)
			} else {
				seen[k] = at
			}
		}
		l.p.Models = append(l.p.Models, row)
	}
}

// historyKeys are the keys of [history].
var historyKeys = []key[*loader]{
	{name: "volatile", kind: kindStrings, set: func(r *tableReader, l *loader, v value) {
		for i, s := range v.list {
			switch {
			case s == "":
				l.errorf(r.item("volatile", i), "volatile[%d] is empty: list the names of the tool result fields to leave out", i)
			case slices.Contains(v.list[:i], s):
				l.errorf(r.item("volatile", i), "volatile lists %q twice", s)
			default:
				l.p.Volatile = append(l.p.Volatile, s)
			}
		}
	}},
}

func setHistory(r *tableReader, l *loader, v value) {
	decode(l.table(r.file, r.ix, "history", 0, "[history]", v.table), l, historyKeys)
}
