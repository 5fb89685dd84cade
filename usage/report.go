package usage

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/source"
)

// Report is a tally priced with a model table: one row per bucket, sorted by provider, model and task, and the
// total.
type Report struct {
	Rows  []Row `json:"buckets"`
	Total Row   `json:"total"`
	// Files, Lines, Duplicates, NoID and Skipped are the tally's.
	Files      int `json:"files"`
	Lines      int `json:"lines"`
	Duplicates int `json:"duplicates"`
	NoID       int `json:"without_id"`
	Skipped    int `json:"skipped"`
	// Spans, DuplicateSpans, OtherSpans and SkippedSpans are the tally's (none without OTLP lines).
	Spans          int `json:"spans,omitempty"`
	DuplicateSpans int `json:"duplicate_spans,omitempty"`
	OtherSpans     int `json:"other_spans,omitempty"`
	SkippedSpans   int `json:"skipped_spans,omitempty"`
	// Predictions is filled by Predict, and Tolerance with the Tolerance it compared with.
	Predictions []Prediction `json:"predictions,omitempty"`
	Tolerance   float64      `json:"tolerance,omitempty"`
}

// Row is a bucket's totals and what they cost.
type Row struct {
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
	Task     string `json:"task,omitempty"`
	Counts
	UncachedTokens int     `json:"uncached_tokens"`
	HitRate        float64 `json:"hit_rate"`
	// Priced is false when the model table has no row for the model (RelativeCost and Cost are then 0, as they are
	// when the counts are Saturated).
	Priced bool `json:"priced"`
	// PricedAs is the model table row the bucket was priced with, when its name differs from Model.
	PricedAs string `json:"priced_as,omitempty"`
	// Cost is the input cost in input-price units: an uncached token costs 1, a cache read and a cache write the
	// model table's multiples. Output tokens are not priced (the table holds input prices only). It is 0, as are
	// HitRate, UncachedTokens and RelativeCost, when the counts are Saturated.
	Cost float64 `json:"cost"`
	// RelativeCost is Cost ÷ InputTokens: 1 when nothing was cached.
	RelativeCost float64 `json:"relative_cost"`
	// Turns are the totals per turn number, for the requests whose wrapper named a turn (the total has none).
	Turns map[int]Counts `json:"turns,omitempty"`
}

// NewReport prices t's buckets with cat (nil: no prices).
func NewReport(t *Tally, cat *projection.Catalog) *Report {
	rep := &Report{Files: t.Files, Lines: t.Lines, Duplicates: t.Duplicates, NoID: t.NoID, Skipped: t.Skipped,
		Spans: t.Spans, DuplicateSpans: t.DuplicateSpans, OtherSpans: t.OtherSpans, SkippedSpans: t.SkippedSpans}
	allPriced := true
	var cost float64
	for _, k := range t.Buckets() {
		row := Row{Provider: k.Provider, Model: k.Model, Task: k.Task, Counts: t.Counts(k), Turns: t.Turns(k)}
		if r, ok := ratesFor(cat, k.Provider, k.Model); ok {
			row.Priced, row.Cost = true, r.cost(row.Counts)
			if r.Row.Name != k.Model {
				row.PricedAs = r.Row.Name
			}
		}
		row.finish()
		rep.Total.Counts.plus(row.Counts)
		cost += row.Cost
		allPriced = allPriced && row.Priced
		rep.Rows = append(rep.Rows, row)
	}
	rep.Total.Priced, rep.Total.Cost = allPriced && len(rep.Rows) > 0, cost
	rep.Total.finish()
	return rep
}

func (r *Row) finish() {
	if !r.Saturated {
		r.UncachedTokens = r.InputTokens - r.CacheReadTokens - r.CacheWriteTokens
	}
	r.HitRate = r.Counts.HitRate()
	if !r.Priced || r.Saturated {
		r.Cost = 0
		return
	}
	r.Cost = round4(r.Cost)
	if r.InputTokens > 0 {
		r.RelativeCost = round4(r.Cost / float64(r.InputTokens))
	}
}

// Write prints the report in format f: report.Text (a table for a terminal), report.Markdown (a table for a pull
// request or a dashboard) or report.JSON (the Report as a JSON object).
func (r *Report) Write(w io.Writer, f report.Format) error {
	switch f {
	case report.JSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case report.Markdown:
		return r.writeMarkdown(w)
	}
	return r.writeText(w)
}

// cells are the row's table cells, its names quoted by quote: a name comes from the log, and may hold anything.
func (r *Row) cells(quote func(string) string) []string {
	cost, rate := "n/a", percent(r.HitRate)
	if r.Priced && !r.Saturated {
		cost = fmt.Sprintf("%.2f", r.RelativeCost)
	}
	if r.Saturated {
		rate = "n/a"
	}
	name := func(s string) string {
		if s == "" {
			return "-"
		}
		return quote(s)
	}
	count := func(n int) string {
		if r.Saturated && n == math.MaxInt {
			return "≥" + plural.Thousands(n)
		}
		return plural.Thousands(n)
	}
	return []string{name(r.Provider), name(r.Model), name(r.Task), count(r.Requests), count(r.InputTokens),
		count(r.CacheReadTokens), count(r.CacheWriteTokens), count(r.OutputTokens), rate, cost}
}

// codeSpan is s as a Markdown code span that s cannot leave: its fence is a run of backticks longer than any in s,
// with a space inside each end where CommonMark would otherwise read a backtick of s as part of the fence or strip a
// space of s; a pipe is escaped, since a table splits its cells before it reads code spans. s holds no line break:
// it is quoted (source.QuoteName) first.
func codeSpan(s string) string {
	if s == "" {
		return ""
	}
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	pad := ""
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "" {
		pad = " "
	}
	return fence + pad + strings.ReplaceAll(s, "|", `\|`) + pad + fence
}

// markdownName is a name from the log as a Markdown table cell or list item shows it.
func markdownName(s string) string { return codeSpan(source.QuoteName(s)) }

func percent(f float64) string { return fmt.Sprintf("%.1f%%", f*100) }

var header = []string{"provider", "model", "task", "requests", "input", "cache read", "cache write", "output", "hit rate", "cost"}

func (r *Report) writeText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for i := range r.Rows {
		fmt.Fprintln(tw, strings.Join(r.Rows[i].cells(source.QuoteName), "\t"))
	}
	total := r.Total.cells(source.QuoteName)
	total[0], total[1], total[2] = "total", "", ""
	fmt.Fprintln(tw, strings.Join(total, "\t"))
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", r.summary())
	if err := r.writePredictions(w, source.QuoteName, false); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\ncost: input cost relative to sending every input token uncached (1.00), at the model table's prices;\n"+
		"output tokens are not priced; hit rate: cache-read tokens ÷ input tokens.")
	return err
}

func (r *Report) summary() string {
	var b strings.Builder
	read := plural.Count(r.Lines, "line")
	if r.Spans > 0 {
		read += ", " + plural.Count(r.Spans, "span")
	}
	fmt.Fprintf(&b, "%s counted from %s (%s)", plural.Count(r.Total.Requests, "request"), plural.Count(r.Files, "file"), read)
	if r.Duplicates > 0 {
		fmt.Fprintf(&b, "; %s %s", plural.Count(r.Duplicates, "line"), plural.Noun(r.Duplicates, "of a request already counted", "of requests already counted"))
	}
	if r.DuplicateSpans > 0 {
		fmt.Fprintf(&b, "; %s %s", plural.Count(r.DuplicateSpans, "span"), plural.Noun(r.DuplicateSpans, "of a request already counted", "of requests already counted"))
	}
	if r.OtherSpans > 0 {
		fmt.Fprintf(&b, "; %s %s", plural.Count(r.OtherSpans, "span"), plural.Noun(r.OtherSpans, "not a model call (no token counts, or an agent's)", "not model calls (no token counts, or an agent's)"))
	}
	if r.NoID > 0 {
		fmt.Fprintf(&b, "; %s without an id, %s", plural.Count(r.NoID, "request"), plural.Noun(r.NoID, "counted as its own", "each counted as its own"))
	}
	if r.Skipped > 0 {
		fmt.Fprintf(&b, "; %s not read (reported above)", plural.Count(r.Skipped, "line"))
	}
	if r.SkippedSpans > 0 {
		fmt.Fprintf(&b, "; %s not read (reported above)", plural.Count(r.SkippedSpans, "span"))
	}
	if r.Total.Saturated {
		fmt.Fprintf(&b, "; ≥: a total reached %s, the most a count holds, and stopped there (its hit rate and cost are n/a)", plural.Thousands(math.MaxInt))
	}
	for _, row := range r.Rows {
		if !row.Priced {
			b.WriteString("; n/a: no row in the model table for that provider and model (add a [[model]] row to promptc.toml)")
			break
		}
	}
	return b.String() + "."
}

func (r *Report) writeMarkdown(w io.Writer) error {
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(header, " | "), strings.Repeat(" --- |", 3)+strings.Repeat(" ---: |", len(header)-3))
	for i := range r.Rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(r.Rows[i].cells(markdownName), " | "))
	}
	total := r.Total.cells(markdownName)
	total[0], total[1], total[2] = "**total**", "", ""
	fmt.Fprintf(w, "| %s |\n\n%s\n", strings.Join(total, " | "), r.summary())
	return r.writePredictions(w, markdownName, true)
}
