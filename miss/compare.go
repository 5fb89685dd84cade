package miss

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/promptc/promptc/internal/prefix"
	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/provider/codecs"
	"github.com/promptc/promptc/tokens"
)

// Rules are the cache rules Compare applies to A's cache entries.
type Rules struct {
	// Explicit: entries end at A's cache markers. Otherwise the provider caches automatically: one entry, A's
	// whole prompt, read back in steps of Step tokens from MinCacheTokens on.
	Explicit bool
	// MinCacheTokens is the shortest entry the provider keeps.
	MinCacheTokens int
	// Step is the granularity of an automatic entry's reuse (1: any length).
	Step int
	// Whole: a later request reads an automatic entry only whole (DeepSeek's prefix units), never a part of it.
	Whole bool
	// MaxCacheTokens is the most an entry holds (Amazon Nova: a prompt's first 20,000 tokens); 0 for no limit.
	MaxCacheTokens int
}

// RulesFor returns the rules for body b's provider and model, from the model table (cat; nil: the built-in rows)
// where it has the provider, else the provider's published defaults (docs/usage.md). Explicit is set when A
// carries a marker.
func RulesFor(cat *provider.Catalog, a *Body) Rules {
	r := Rules{MinCacheTokens: 1024, Step: 1}
	switch a.Provider {
	case provider.DeepSeek:
		r.MinCacheTokens, r.Whole = 1, true
	case provider.OpenAI:
		r.Step = 128
	}
	if cat == nil {
		cat = provider.Builtin()
	}
	if p := a.Provider; codecs.For(p) != nil {
		m, err := cat.Model(p, a.Model)
		if err != nil {
			m, _ = cat.Model(p, "")
		}
		r.MinCacheTokens, r.MaxCacheTokens = m.MinCacheTokens, m.MaxCacheTokens
		if m.Step > 0 {
			r.Step = m.Step
		}
	}
	for _, p := range a.Parts {
		r.Explicit = r.Explicit || p.Marker && p.Kind != Cached
	}
	return r
}

// Result is what Compare finds.
type Result struct {
	A, B *Body
	// Extends is true when B's parts start with every part of A, byte for byte.
	Extends bool
	// Part is the index of the first part of A that B does not repeat (len(A.Parts) when B extends A), and Offset
	// the first byte of its Text that differs (0 when its kind or head differs).
	Part, Offset int
	// Why says what differs: "model", "kind", "head", "text", or "end" when B ends inside A.
	Why string
	// Byte is the offset of the difference in A's parts' texts joined, in cached order.
	Byte int
	// SystemOffset is the offset of the difference in A's system text (Body.System), -1 when it is not in a
	// system part.
	SystemOffset int
	// Tokens is A's input up to the difference; Cached the tokens of A's longest cache entry; Reused the tokens
	// of it B can still read; Rebilled = Cached - Reused.
	Tokens, Cached, Reused, Rebilled int
	// Behind is the index of the part whose breakpoint the difference fell behind (the first of A's markers at
	// or after it; -1 when none is), Before that of the marker B still reads (-1 when none).
	Behind, Before int
	Rules          Rules
}

// Compare finds where b leaves a's cached prefix. counter counts tokens (nil: o200k_base).
func Compare(a, b *Body, rules Rules, counter *tokens.Counter) (*Result, error) {
	if counter == nil {
		counter = tokens.New(tokens.O200k)
	}
	r := &Result{A: a, B: b, Rules: rules, SystemOffset: -1, Behind: -1, Before: -1}
	switch {
	case a.Provider != b.Provider:
		r.Why = "provider"
	case a.Model != b.Model:
		r.Why = "model"
	default:
		r.Part, r.Offset, r.Why = firstDifference(a.Parts, b.Parts)
	}
	r.Extends = r.Why == ""
	if r.Why == "provider" || r.Why == "model" {
		r.Part = 0
	}
	// Bytes and tokens up to the difference, and of each of A's cache entries: the answer needs the tokens of the
	// parts before the difference and, with explicit entries, of those up to A's last marker; an automatic entry (or a
	// B that extends A) needs them all. The parts after that are not counted.
	need := len(a.Parts)
	if rules.Explicit && !r.Extends {
		last := -1
		for i, p := range a.Parts {
			if p.Marker {
				last = i
			}
		}
		need = max(last+1, r.Part)
	}
	counts := countParts(a.Parts, need, r.Part, r.Offset, counter)
	sys := 0
	prefix := 0 // tokens of the parts before i
	var entries []entry
	for i, p := range a.Parts {
		if i == r.Part {
			r.Byte += r.Offset
			r.Tokens = prefix + counts[len(a.Parts)]
			if p.Kind == System {
				r.SystemOffset = sys + r.Offset
			}
		}
		if i < r.Part {
			r.Byte += len(p.Text)
		}
		if p.Kind == System {
			sys += len(p.Text)
		}
		prefix += counts[i]
		if p.Marker || !rules.Explicit && i == len(a.Parts)-1 {
			if t := rules.stepped(prefix); t > 0 {
				entries = append(entries, entry{part: i, tokens: t})
			}
		}
	}
	if r.Part >= len(a.Parts) {
		r.Tokens = prefix
	}
	if n := len(entries); n > 0 {
		r.Cached = entries[n-1].tokens
	}
	for _, e := range entries {
		if e.part < r.Part {
			r.Reused, r.Before = e.tokens, e.part
		} else if r.Behind < 0 {
			r.Behind = e.part
		}
	}
	if r.Extends {
		r.Reused, r.Behind = r.Cached, -1
		if n := len(entries); n > 0 {
			r.Before = entries[n-1].part
		}
	} else if !rules.Explicit && r.Cached > 0 && !rules.Whole {
		// An automatic entry is read as far as the prompts agree, in steps.
		r.Reused = min(rules.stepped(r.Tokens), r.Cached)
	}
	r.Rebilled = r.Cached - r.Reused
	return r, nil
}

// stepped is how much of a prefix of n tokens an entry holds: 0 under the minimum, else the minimum plus whole
// steps (explicit entries hold their whole prefix), never more than MaxCacheTokens.
func (r Rules) stepped(n int) int {
	switch {
	case n < r.MinCacheTokens:
		return 0
	case r.Explicit || r.Step <= 1:
	default:
		n = r.MinCacheTokens + (n-r.MinCacheTokens)/r.Step*r.Step
	}
	if r.MaxCacheTokens > 0 {
		return min(n, r.MaxCacheTokens)
	}
	return n
}

// countParts counts the tokens of each of the first n parts (the rest count 0), and last that of the first off bytes
// of part at: tokenizing is most
// of the time a large body takes, so the parts are counted on every processor at once, and the cut part after
// them, when the counter has cached every paragraph of it but the one the cut falls in.
func countParts(parts []Part, n, at, off int, counter *tokens.Counter) []int {
	counts := make([]int, len(parts)+1)
	var wg sync.WaitGroup
	next := atomic.Int64{}
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				counts[i] = counter.Count(parts[i].Text)
			}
		})
	}
	wg.Wait()
	if at < len(parts) {
		counts[len(parts)] = counter.Count(parts[at].Text[:off])
	}
	return counts
}

type entry struct{ part, tokens int }

// firstDifference returns the first part of a that b does not repeat and the byte where they differ.
func firstDifference(a, b []Part) (part, offset int, why string) {
	for i := range a {
		if i >= len(b) {
			return i, 0, "end"
		}
		x, y := &a[i], &b[i]
		switch {
		case x.Kind != y.Kind:
			return i, 0, "kind"
		case x.Head != y.Head:
			return i, 0, "head"
		case x.Text != y.Text:
			return i, prefix.Common(x.Text, y.Text), "text"
		}
	}
	return len(a), 0, ""
}
