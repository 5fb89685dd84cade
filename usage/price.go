package usage

import (
	"regexp"
	"slices"

	"github.com/promptc/promptc/projection"
)

// rates are the prices usage applies to a bucket's input tokens, as multiples of the model's input price.
type rates struct {
	// Row is the model table row priced with (its Name may drop a dated suffix of the logged model).
	Row                  projection.Model
	Read, Write, Write1h float64
}

// datedSuffix is the snapshot date a provider appends to a model's name in its responses
// (claude-sonnet-4-5-20250929, gpt-5-2025-08-07).
var datedSuffix = regexp.MustCompile(`-(\d{8}|\d{4}-\d{2}-\d{2})$`)

// ratesFor is the adapter between a logged model and the model table (projection.Catalog): ok is false when the
// table has no row for it, and the bucket is left unpriced.
//
// The one-hour lifetime's write price is the row's own (its ttl_write for "1h": Anthropic's and Bedrock Claude's
// 2×, docs/providers.md#model-data).
func ratesFor(cat *projection.Catalog, provider, model string) (rates, bool) {
	if cat == nil || model == "" {
		return rates{}, false
	}
	p, err := projection.ParseProvider(provider)
	if err != nil {
		return rates{}, false // a provider the model table does not know yet
	}
	m, err := cat.Model(p, model)
	if err != nil {
		trimmed := datedSuffix.ReplaceAllString(model, "")
		if trimmed == model {
			return rates{}, false
		}
		if m, err = cat.Model(p, trimmed); err != nil {
			return rates{}, false
		}
	}
	return rates{Row: m, Read: m.CacheRead, Write: m.CacheWrite, Write1h: write1h(m)}, true
}

// write1h is the price of a token written with a one-hour lifetime: the row's price for 1h where it offers that
// lifetime, else its one write price (a log's 1h writes on such a model were priced by the provider as written).
func write1h(m projection.Model) float64 {
	if slices.Contains(m.TTLs, projection.TTL1h) {
		return m.WritePrice(projection.TTL1h)
	}
	return m.CacheWrite
}

// cost is the input cost of c in input-price units (a token sent uncached costs 1).
func (r rates) cost(c Counts) float64 {
	uncached := c.InputTokens - c.CacheReadTokens - c.CacheWriteTokens
	w5 := c.CacheWriteTokens - c.CacheWrite1hTokens
	return float64(uncached) + float64(c.CacheReadTokens)*r.Read + float64(w5)*r.Write + float64(c.CacheWrite1hTokens)*r.Write1h
}
