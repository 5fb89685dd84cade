package projection

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/source"
)

// FixtureInput returns the request of turn k (from 1) of fixture f's session of task: the runbook, turns 1 to k-1
// each followed by its reply as the history, and turn k's message. A fixture without turns, or a k out of range,
// is an error that says what to do.
func FixtureInput(prog *assemble.Program, task string, f *blocks.Fixture, k int) (Input, error) {
	switch n := len(f.Turns); {
	case n == 0:
		return Input{}, fmt.Errorf("fixture %q has no [[turn]] entries: add one, or give the turn's values with --turn-file", f.Name)
	case k < 1 || k > n:
		return Input{}, fmt.Errorf("fixture %q has %s; --turn must be between 1 and %d", f.Name, plural.Count(n, "turn"), n)
	}
	s, err := FixtureReplay(prog, task, f)
	if err != nil {
		return Input{}, err
	}
	return s.Input(k), nil
}

// Summary is one line for a person about the request: the model, its input tokens, the cache mode and lifetime,
// and where the cache markers went (or why there are none).
func (p *Projection) Summary() string {
	m := p.Model
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s input tokens (o200k_base estimate", m.Provider, m.Name, plural.Thousands(p.Tokens))
	if m.Safety > 1 {
		// Where no marker is placed (automatic or implicit caching: DeepSeek's, OpenAI's) the margin applies to the
		// cached prefix itself.
		what := "a marker"
		if p.Cache != CacheExplicit {
			what = "a cached prefix"
		}
		fmt.Fprintf(&b, "; this model's tokenizer differs, so %s needs %s counted tokens, %.2f × its minimum of %s",
			what, plural.Thousands(m.Minimum()), m.Safety, plural.Thousands(max(m.MinCacheTokens, m.PracticeMinCacheTokens)))
	}
	b.WriteString(")")
	if p.CacheKey != "" {
		fmt.Fprintf(&b, "; prompt_cache_key %s", p.CacheKey)
	}
	if m.PracticeMinCacheTokens > m.MinCacheTokens {
		fmt.Fprintf(&b, "; caching starts at about %s tokens in practice, not the page's %s (%s)",
			plural.Thousands(m.PracticeMinCacheTokens), plural.Thousands(m.MinCacheTokens), m.Practice)
	}
	if p.TTL != TTLDefault {
		fmt.Fprintf(&b, "; %s cache, entries live %s", p.Cache, p.TTL)
	} else {
		fmt.Fprintf(&b, "; %s cache", p.Cache)
	}
	marks := p.Markers()
	if c := m.MaxCacheTokens; c > 0 && len(marks) > 0 && p.Parts[marks[len(marks)-1]].Prefix > c {
		fmt.Fprintf(&b, "; this model caches at most %s tokens of a prompt: the %s after them are billed as input",
			plural.Thousands(c), plural.Thousands(p.Parts[marks[len(marks)-1]].Prefix-c))
	}
	if len(marks) == 0 {
		if p.Cache != CacheExplicit {
			fmt.Fprintf(&b, ", from %s tokens on", plural.Thousands(m.MinCacheTokens))
		} else {
			b.WriteString("; no cache marker: no prefix reaches the minimum")
		}
		return b.String()
	}
	if p.Cache == CacheAutomatic {
		fmt.Fprintf(&b, ": the provider places one marker at the request's end (%s tokens)", plural.Thousands(p.Parts[marks[len(marks)-1]].Prefix))
		return b.String()
	}
	if p.CacheBody != nil {
		fmt.Fprintf(&b, ": cachedContents holds the first %s tokens (tools and the runbook's stable segments)", plural.Thousands(p.Parts[marks[0]].Prefix))
		return b.String()
	}
	b.WriteString("; cache markers after:")
	sys := 0
	for i, pt := range p.Parts {
		if pt.Kind == SystemPart {
			sys++
		}
		if !pt.Marker {
			continue
		}
		switch {
		case pt.Kind == ToolPart:
			fmt.Fprintf(&b, " the tools (%s tokens);", plural.Thousands(pt.Prefix))
		case pt.Kind == SystemPart:
			fmt.Fprintf(&b, " system part %d (%s prefix, %s tokens);", sys, pt.Scope, plural.Thousands(pt.Prefix))
		case pt.History:
			fmt.Fprintf(&b, " the history (%s tokens);", plural.Thousands(pt.Prefix))
		default:
			fmt.Fprintf(&b, " part %d (%s tokens);", i+1, plural.Thousands(pt.Prefix))
		}
	}
	return strings.TrimSuffix(b.String(), ";")
}

// SimulationFormats are the formats a Simulation is written in: text (WriteText) and json (WriteJSON).
// report.Formats(SimulationFormats...) is promptc simulate's --format flag.
var SimulationFormats = []report.Format{report.Text, report.JSON}

// Write writes the simulation in format f, one of SimulationFormats.
func (s *Simulation) Write(w io.Writer, f report.Format) error {
	switch f {
	case report.Text:
		return s.WriteText(w)
	case report.JSON:
		return s.WriteJSON(w)
	}
	return fmt.Errorf("a simulation is written as text or json, not %s", f)
}

// WriteJSON writes the simulation as indented JSON (the fields' json names), ending in a newline.
func (s *Simulation) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// WriteText writes the report promptc simulate prints: the model's rules, why nothing is cached when nothing is,
// a table per layout with its total, the expired tokens, and the lifetimes compared.
func (s *Simulation) WriteText(w io.Writer) error {
	m := s.model
	ttl := ""
	if s.TTL != "" {
		ttl = ", entries live " + s.TTL
	}
	limit := ""
	if m.MaxCacheTokens > 0 {
		limit = ", at most " + plural.Thousands(m.MaxCacheTokens) + " cached"
	}
	fmt.Fprintf(w, "%s %s, %s cache%s: minimum %s tokens%s, reads cost %gx and writes %gx the input price\n",
		s.Provider, s.Model, s.Cache, ttl, plural.Thousands(m.MinCacheTokens), limit, m.CacheRead, m.WritePrice(TTLDefault))
	fmt.Fprintf(w, "Token counts are %s estimates.\n", s.Encoding)
	if c := s.Closest; c != nil {
		fmt.Fprintf(w, "Nothing is cached: no prefix reaches the minimum of %s counted tokens. The closest, %s of session %s turn %d, has %s: %s short.\n",
			plural.Thousands(c.Minimum), c.Where, source.QuoteName(c.Session), c.Turn, plural.Thousands(c.Tokens), plural.Thousands(c.Short))
	}
	for _, l := range s.Layouts {
		fmt.Fprintf(w, "\n%s\n", l.Name)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "session\tturn\tinput\tread\twrite\tuncached\thit rate\tcost\t")
		row := func(u Usage, session, turn string) {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%.1f%%\t%.2f\t\n", session, turn, plural.Thousands(u.InputTokens),
				plural.Thousands(u.CacheReadTokens), plural.Thousands(u.CacheWriteTokens), plural.Thousands(u.UncachedTokens), u.HitRate*100, u.RelativeCost)
		}
		for _, u := range l.Turns {
			row(u, source.QuoteName(u.Session), fmt.Sprint(u.Turn))
		}
		row(l.Total, "total", "")
		if err := tw.Flush(); err != nil {
			return err
		}
		if l.Total.ExpiredTokens > 0 {
			fmt.Fprintf(w, "expired: %s tokens cached by an earlier turn had expired and were sent again\n", plural.Thousands(l.Total.ExpiredTokens))
		}
		if l.Total.BeyondCapTokens > 0 {
			fmt.Fprintf(w, "beyond the cache limit: %s tokens after the first %s of a prompt were sent uncached (this model caches no more)\n",
				plural.Thousands(l.Total.BeyondCapTokens), plural.Thousands(m.MaxCacheTokens))
		}
	}
	if len(s.Lifetimes) > 1 {
		fmt.Fprintf(w, "\nlifetimes (promptc's layout)\n")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "ttl\tread\twrite\texpired\tstorage\tcost\t")
		for _, lt := range s.Lifetimes {
			u := lt.Total
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.2f\t\n", lt.TTL, plural.Thousands(u.CacheReadTokens), plural.Thousands(u.CacheWriteTokens),
				plural.Thousands(u.ExpiredTokens), plural.Thousands(int(u.StorageCost+0.5)), u.RelativeCost)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(w, "cheapest: %s\n", s.Cheapest)
	}
	_, err := fmt.Fprintln(w, "\ncost: input cost relative to sending every token uncached (1.00); hit rate: tokens read from the cache.")
	return err
}
