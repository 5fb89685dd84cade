package projection

// The reference simulation: every request built whole by project and every part hashed, as promptc did before the
// simulation shared its history between turns. It costs the square of a session's length; the tests compare the
// fast simulation with it on sessions small enough.

import (
	"crypto/sha256"
	"fmt"
	"io"

	"github.com/promptc/promptc/tokens"
)

func referenceSimulate(sessions []Replay, opt Options) (*Simulation, error) {
	if opt.Counter == nil {
		c := tokens.New(tokens.O200k)
		opt.Counter = c
	}
	m := opt.Model
	sim := &Simulation{Provider: m.Provider.String(), Model: m.Name, Encoding: opt.Counter.Encoding().String()}
	switch {
	case m.Matching == Prefix:
		sim.Cache = "automatic"
	case opt.Implicit:
		sim.Cache = "implicit"
	default:
		sim.Cache = "explicit"
	}
	for _, name := range []string{LayoutPromptc, LayoutVolatileFirst, LayoutRewrite} {
		c := newRefCache(m, opt.Implicit)
		l := Layout{Name: name}
		for _, s := range sessions {
			if s.Runbook == nil {
				return nil, fmt.Errorf("projection: session %q has no runbook", s.Name)
			}
			for k := range s.Turns {
				pr, err := project(layoutInput(name, s, k), opt, name != LayoutPromptc)
				if err != nil {
					return nil, fmt.Errorf("session %q, turn %d: %w", s.Name, k+1, err)
				}
				u := c.request(pr)
				u.Session, u.Turn = s.Name, k+1
				u.WriteCost = float64(u.CacheWriteTokens) * m.CacheWrite
				u.rates(m, c.read)
				l.Turns = append(l.Turns, u)
				l.Total.add(u)
			}
		}
		l.Total.rates(m, c.read)
		sim.Layouts = append(sim.Layouts, l)
	}
	return sim, nil
}

// cache is a provider's prompt cache as the simulation sees it: the prefixes written so far, each known by the
// hash of its parts.
type refCache struct {
	m        Model
	explicit bool
	min      int
	read     float64
	entries  map[[32]byte]bool
}

func newRefCache(m Model, implicit bool) *refCache {
	c := &refCache{m: m, explicit: m.Matching != Prefix && !implicit, min: m.MinCacheTokens, read: m.CacheRead, entries: map[[32]byte]bool{}}
	if implicit && m.Matching != Prefix {
		c.min, c.read = m.ImplicitMinCacheTokens, m.ImplicitCacheRead
	}
	return c
}

// request counts one request and adds what it writes to the cache.
func (c *refCache) request(pr *Projection) Usage {
	hashes := make([][32]byte, len(pr.Parts))
	var h [32]byte
	sum := sha256.New()
	for i, p := range pr.Parts {
		sum.Reset()
		sum.Write(h[:])
		fmt.Fprintf(sum, "%d\x00%s\x00%d\x00", p.Kind, p.Role, p.Message)
		io.WriteString(sum, p.Text)
		sum.Sum(h[:0])
		hashes[i] = h
	}
	u := Usage{InputTokens: pr.Tokens}
	if c.explicit {
		c.explicitRequest(pr, hashes, &u)
	} else {
		c.prefixRequest(pr, hashes, &u)
	}
	u.UncachedTokens = u.InputTokens - u.CacheReadTokens - u.CacheWriteTokens
	return u
}

// explicitRequest: each marker reads the longest prefix cached at it or at one of the Lookback parts before it;
// the prefix up to the last marker that reaches the minimum is written, less what was read.
func (c *refCache) explicitRequest(pr *Projection, hashes [][32]byte, u *Usage) {
	last := -1
	for _, i := range pr.Markers() {
		for j := i; j >= 0 && j >= i-c.m.Lookback; j-- {
			if c.entries[hashes[j]] {
				u.CacheReadTokens = max(u.CacheReadTokens, pr.Parts[j].Prefix)
				break
			}
		}
		if pr.Parts[i].Prefix >= c.min {
			last = i
		}
	}
	if last >= 0 && pr.Parts[last].Prefix > u.CacheReadTokens {
		u.CacheWriteTokens = pr.Parts[last].Prefix - u.CacheReadTokens
	}
	if cp := c.m.MaxCacheTokens; cp > 0 {
		// The cache holds a prompt's first cp tokens: what is read stops there, and so does what is written.
		cached := u.CacheReadTokens + u.CacheWriteTokens
		u.CacheReadTokens = min(u.CacheReadTokens, cp)
		u.CacheWriteTokens = min(cached, cp) - u.CacheReadTokens
		u.BeyondCapTokens = cached - min(cached, cp)
	}
	for _, i := range pr.Markers() {
		if pr.Parts[i].Prefix >= c.min {
			c.entries[hashes[i]] = true
		}
	}
}

// prefixRequest: the longest run of leading parts some earlier request also began with is read, from the minimum
// on, in steps; every prefix of the request is cached for later ones. Matching whole parts (messages) makes the
// count a lower bound: a provider may also match the start of the first part that differs.
func (c *refCache) prefixRequest(pr *Projection, hashes [][32]byte, u *Usage) {
	shared := 0
	for j := range hashes {
		if !c.entries[hashes[j]] {
			break
		}
		shared = pr.Parts[j].Prefix
	}
	if shared >= c.min && c.min > 0 {
		step := max(c.m.Step, 1)
		u.CacheReadTokens = c.min + (shared-c.min)/step*step
	}
	for _, h := range hashes {
		c.entries[h] = true
	}
}
