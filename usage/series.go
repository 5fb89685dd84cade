package usage

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/source"
)

// Period is the length of a Series' periods: an hour or a day, in UTC. It is promptc usage's --by flag.
type Period uint8

const (
	// Hour periods start on the hour.
	Hour Period = iota + 1
	// Day periods start at midnight UTC.
	Day
)

// String is the period's name, as --by takes it.
func (p Period) String() string {
	switch p {
	case Hour:
		return "hour"
	case Day:
		return "day"
	}
	return ""
}

// Set parses a period name (flag.Value).
func (p *Period) Set(s string) error {
	switch s {
	case "hour":
		*p = Hour
	case "day":
		*p = Day
	default:
		return fmt.Errorf("unknown period %q: hour or day", s)
	}
	return nil
}

// UnmarshalText is Set.
func (p *Period) UnmarshalText(b []byte) error { return p.Set(string(b)) }

// MarshalText writes the period's name.
func (p Period) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// hours is the period's length in hours.
func (p Period) hours() int64 {
	if p == Day {
		return 24
	}
	return 1
}

type hourKey struct {
	hour int64
	key  Key
}

func (t *Tally) addHour(at time.Time, key Key, r Record) {
	h := at.Unix()
	h = (h - ((h%3600)+3600)%3600) / 3600 // floor, for times before 1970 too
	k := hourKey{h, key}
	c := t.hours[k]
	if c == nil {
		c = &Counts{}
		t.hours[k] = c
	}
	c.add(r)
}

// Series is a tally's requests per period: the hit rate and cost of each period that holds a request (or a
// commit, once Mark placed one), in time order.
type Series struct {
	By      Period      `json:"by"`
	Periods []PeriodRow `json:"periods"`
	// Untimed counts the requests that give no time (no wrapper time, no span start): they are in no period.
	Untimed int `json:"untimed_requests"`
}

// PeriodRow is one period's totals: Start is its first instant (RFC 3339, UTC). Cost is in input-price units, as a
// Report row's, and Priced is false when a request of the period is on a model the table lacks (Cost is then 0).
type PeriodRow struct {
	Start string `json:"start"`
	Counts
	HitRate float64 `json:"hit_rate"`
	Priced  bool    `json:"priced"`
	Cost    float64 `json:"cost"`
	// Commits are the commits made in the period that invalidated a stable prefix (Mark), by commit time.
	Commits []Commit `json:"commits,omitempty"`

	start int64 // in hours from the epoch
}

// Commit is a commit that invalidated a stable prefix, as promptc log reports it: its commit time (when it was
// committed: promptc does not know when it was deployed), the tasks whose prefix it changed and the most cached
// tokens it invalidated for one of them.
type Commit struct {
	Commit            string    `json:"commit"`
	Time              time.Time `json:"commit_time"`
	Subject           string    `json:"subject"`
	Tasks             []string  `json:"tasks"`
	InvalidatedTokens int       `json:"invalidated_tokens"`
}

// Series returns the tally's requests per period of by, priced with cat (nil: no prices). A period starts on the
// hour, or at midnight UTC, and holds the requests whose time is at or after its start and before the next's.
func (t *Tally) Series(by Period, cat *projection.Catalog) *Series {
	s := &Series{By: by, Periods: []PeriodRow{}, Untimed: t.untimed}
	type agg struct {
		Counts
		cost     float64
		unpriced bool
	}
	byStart := map[int64]*agg{}
	for k, c := range t.hours {
		start := k.hour - ((k.hour%by.hours())+by.hours())%by.hours()
		a := byStart[start]
		if a == nil {
			a = &agg{}
			byStart[start] = a
		}
		a.plus(*c)
		if r, ok := ratesFor(cat, k.key.Provider, k.key.Model); ok {
			a.cost += r.cost(*c)
		} else {
			a.unpriced = true
		}
	}
	for start, a := range byStart {
		row := PeriodRow{start: start, Counts: a.Counts, HitRate: a.HitRate(), Priced: !a.unpriced && !a.Saturated}
		if row.Priced {
			row.Cost = round4(a.cost)
		}
		s.Periods = append(s.Periods, row)
	}
	s.sort()
	return s
}

func (s *Series) sort() {
	sort.Slice(s.Periods, func(i, j int) bool { return s.Periods[i].start < s.Periods[j].start })
	for i := range s.Periods {
		s.Periods[i].Start = time.Unix(s.Periods[i].start*3600, 0).UTC().Format(time.RFC3339)
	}
}

// Mark places each commit in the period holding its commit time; a period with no request gets a row of its own,
// so that no commit goes unshown.
func (s *Series) Mark(commits []Commit) {
	for _, c := range commits {
		h := c.Time.Unix()
		h = (h - ((h%3600)+3600)%3600) / 3600
		start := h - ((h%s.By.hours())+s.By.hours())%s.By.hours()
		i := sort.Search(len(s.Periods), func(i int) bool { return s.Periods[i].start >= start })
		if i == len(s.Periods) || s.Periods[i].start != start {
			s.Periods = append(s.Periods, PeriodRow{start: start, Priced: true})
			s.sort()
			i = sort.Search(len(s.Periods), func(i int) bool { return s.Periods[i].start >= start })
		}
		p := &s.Periods[i]
		c.Time = c.Time.UTC()
		p.Commits = append(p.Commits, c)
		sort.SliceStable(p.Commits, func(a, b int) bool { return p.Commits[a].Time.Before(p.Commits[b].Time) })
	}
}

func (p PeriodRow) cost() string {
	if !p.Priced {
		return "—"
	}
	whole, frac, _ := strings.Cut(fmt.Sprintf("%.1f", p.Cost), ".")
	n, _ := strconv.Atoi(whole)
	return plural.Thousands(n) + "." + frac
}

func (c Commit) line() string {
	return fmt.Sprintf("commit %.12s, commit time %s: %s (%s; %s of cached prefix invalidated)", c.Commit,
		c.Time.Format(time.RFC3339), source.QuoteName(c.Subject), strings.Join(c.Tasks, ", "), plural.Count(c.InvalidatedTokens, "token"))
}

// Write prints the series in format f: a table per period for a terminal (each period's commits under it),
// markdown, or the Series as JSON.
func (s *Series) Write(w io.Writer, f report.Format) error {
	switch f {
	case report.JSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	case report.Markdown:
		var b strings.Builder
		fmt.Fprintf(&b, "| %s (UTC) | requests | input tokens | cache read | hit rate | cost (input-price units) |\n|---|---:|---:|---:|---:|---:|\n", s.By)
		for _, p := range s.Periods {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", p.Start, plural.Thousands(p.Requests), plural.Thousands(p.InputTokens),
				plural.Thousands(p.CacheReadTokens), percent(p.HitRate), p.cost())
			for _, c := range p.Commits {
				fmt.Fprintf(&b, "| ↳ %s | | | | | |\n", strings.ReplaceAll(escapeMarkdownCell(c.line()), "|", "\\|"))
			}
		}
		if s.Untimed > 0 {
			fmt.Fprintf(&b, "\n%s without a time, in no period.\n", plural.Count(s.Untimed, "request"))
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	// The periods are one table; each period's commits go under its row, outside the columns.
	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s (UTC)\trequests\tinput\tcache read\thit rate\tcost\t\n", s.By)
	for _, p := range s.Periods {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", p.Start, plural.Thousands(p.Requests), plural.Thousands(p.InputTokens),
			plural.Thousands(p.CacheReadTokens), percent(p.HitRate), p.cost())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	rows := strings.SplitAfter(table.String(), "\n")
	var b strings.Builder
	b.WriteString(rows[0])
	for i, p := range s.Periods {
		b.WriteString(rows[i+1])
		for _, c := range p.Commits {
			b.WriteString("  " + c.line() + "\n")
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	var err error
	if s.Untimed > 0 {
		_, err = fmt.Fprintf(w, "%s without a time, in no period\n", plural.Count(s.Untimed, "request"))
	}
	if err == nil {
		_, err = io.WriteString(w, "cost in input-price units (an uncached input token costs 1)\n")
	}
	return err
}

func escapeMarkdownCell(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
