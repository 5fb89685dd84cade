package projection

import "github.com/promptc/promptc/blocks"

// Where the cache markers go: the rules of docs/providers.md over a request's parts, the same for every provider's
// wire format (the provider packages write a marker in their own shape).

// place puts the cache markers (placeMarkers), each with its lifetime (markerTTL).
func (b *builder) place() {
	ps := partSlice(b.parts)
	for _, i := range placeMarkers(b.m, b.mode, b.naive, ps, b.lastHistory) {
		b.parts[i].Marker = true
		b.parts[i].TTL = markerTTL(b.m, b.mode, b.ttl, &b.parts[i])
	}
}

// markerTTL is the lifetime a marker is sent with: the one chosen, except that where a request may mix lifetimes
// (Anthropic, Bedrock), a longer one goes only on the system's markers and the history's keeps the default, since
// the history's entry is replaced every turn (the longer lifetimes first, as the APIs ask).
func markerTTL(m Model, mode CacheMode, chosen TTL, p *PlacedPart) TTL {
	t := m.Lifetime(chosen)
	if mode == CacheExplicit && p.History && (m.Provider == Anthropic || m.Provider == Bedrock) && len(m.TTLs) > 0 {
		return m.TTLs[0]
	}
	return t
}

// parts is a request's parts as the marker rules read them: a slice, or the simulation's views that share their
// history between turns.
type parts interface {
	Len() int
	At(i int) *PlacedPart
	// Prefix is the tokens of the request up to and including part i.
	Prefix(i int) int
}

type partSlice []PlacedPart

func (s partSlice) Len() int             { return len(s) }
func (s partSlice) At(i int) *PlacedPart { return &s[i] }
func (s partSlice) Prefix(i int) int     { return s[i].Prefix }

// placeMarkers returns the parts cache markers follow, in order: the end of each system part whose prefix reaches
// the minimum, and the end of the history (lastHistory, -1 for none); at most MaxBreakpoints, the history's kept
// first, then the system's from the first (the prefixes shared most widely), then, where the model takes one
// (ToolMarkers), the end of the tools. naive places one marker, on the
// request's last part, as automatic caching does. None where the model takes no markers.
func placeMarkers(m Model, mode CacheMode, naive bool, ps parts, lastHistory int) []int {
	if ps.Len() == 0 {
		return nil
	}
	min := m.Minimum()
	if m.Provider == Gemini {
		if mode != CacheExplicit || naive {
			return nil
		}
		// The cachedContents resource holds the stable prefix: the parts up to the runbook's task segment.
		last := -1
		for i := 0; i < ps.Len() && ps.At(i).Kind != MessagePart; i++ {
			if ps.At(i).Kind == SystemPart && ps.At(i).Scope <= blocks.ScopeTask {
				last = i
			}
		}
		if last >= 0 && ps.Prefix(last) >= min {
			return []int{last}
		}
		return nil
	}
	if m.MaxBreakpoints <= 0 || mode == CacheImplicit || mode == CacheAutomatic && m.Matching == Prefix {
		return nil
	}
	if naive || mode == CacheAutomatic {
		if last := ps.Len() - 1; ps.Prefix(last) >= min {
			return []int{last}
		}
		return nil
	}
	budget := m.MaxBreakpoints
	var out []int
	// The history's marker goes on its last part that holds text: a marker on an empty part would make the block
	// an empty text block, which the APIs refuse.
	h := lastHistory
	for h >= 0 && ps.At(h).History && (ps.At(h).Text == "" || m.Provider == OpenAI && ps.At(h).Role != User) {
		h-- // OpenAI takes breakpoints on user content only
	}
	hist := -1
	if h >= 0 && ps.At(h).History && ps.Prefix(h) >= min {
		hist = h
		budget--
	}
	for i := 0; i < ps.Len() && budget > 0; i++ {
		if ps.At(i).Kind == MessagePart {
			break // the system parts come before every message
		}
		if ps.At(i).Kind == SystemPart && ps.Prefix(i) >= min {
			out = append(out, i)
			budget--
		}
	}
	if hist >= 0 {
		out = append(out, hist) // system parts come before the history: the list stays in order
	}
	// The tools come first and change least (with the task's gate alone), but the first system marker's prefix
	// holds them already; a marker of their own only keeps them cached when the runbook's global segment changes,
	// so it gets a breakpoint only when one is left (docs/providers.md#tools-and-the-breakpoint-limit).
	if t := lastTool(ps); m.ToolMarkers && budget > 0 && t >= 0 && ps.Prefix(t) >= min {
		out = append([]int{t}, out...)
	}
	return out
}

// lastTool is the index of the last native tool definition, -1 without tools (they open the request).
func lastTool(ps parts) int {
	t := -1
	for i := 0; i < ps.Len() && ps.At(i).Kind == ToolPart; i++ {
		t = i
	}
	return t
}
