package usage

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/report"
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
	// Predictions is filled by Predict.
	Predictions []Prediction `json:"predictions,omitempty"`
}

// Row is a bucket's totals and what they cost.
type Row struct {
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
	Task     string `json:"task,omitempty"`
	Counts
	UncachedTokens int     `json:"uncached_tokens"`
	HitRate        float64 `json:"hit_rate"`
	// Priced is false when the model table has no row for the model (RelativeCost and Cost are then 0).
	Priced bool `json:"priced"`
	// PricedAs is the model table row the bucket was priced with, when its name differs from Model.
	PricedAs string `json:"priced_as,omitempty"`
	// Cost is the input cost in input-price units: an uncached token costs 1, a cache read and a cache write the
	// model table's multiples. Output tokens are not priced (the table holds input prices only).
	Cost float64 `json:"cost"`
	// RelativeCost is Cost ÷ InputTokens: 1 when nothing was cached.
	RelativeCost float64 `json:"relative_cost"`
	// Turns are the totals per turn number, for the requests whose wrapper named a turn (the total has none).
	Turns map[int]Counts `json:"turns,omitempty"`
}

// NewReport prices t's buckets with cat (nil: no prices).
func NewReport(t *Tally, cat *projection.Catalog) *Report {
	rep := &Report{Files: t.Files, Lines: t.Lines, Duplicates: t.Duplicates, NoID: t.NoID, Skipped: t.Skipped}
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
	r.UncachedTokens = r.InputTokens - r.CacheReadTokens - r.CacheWriteTokens
	r.HitRate = r.Counts.HitRate()
	if !r.Priced {
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

func (r *Row) cells() []string {
	cost := "n/a"
	if r.Priced {
		cost = fmt.Sprintf("%.2f", r.RelativeCost)
	}
	task := r.Task
	if task == "" {
		task = "-"
	}
	model := r.Model
	if model == "" {
		model = "-"
	}
	return []string{r.Provider, model, task, plural.Thousands(r.Requests), plural.Thousands(r.InputTokens),
		plural.Thousands(r.CacheReadTokens), plural.Thousands(r.CacheWriteTokens), plural.Thousands(r.OutputTokens),
		percent(r.HitRate), cost}
}

func percent(f float64) string { return fmt.Sprintf("%.1f%%", f*100) }

var header = []string{"provider", "model", "task", "requests", "input", "cache read", "cache write", "output", "hit rate", "cost"}

func (r *Report) writeText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for i := range r.Rows {
		fmt.Fprintln(tw, strings.Join(r.Rows[i].cells(), "\t"))
	}
	total := r.Total.cells()
	total[0], total[1], total[2] = "total", "", ""
	fmt.Fprintln(tw, strings.Join(total, "\t"))
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", r.summary())
	if err := r.writePredictions(w, false); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\ncost: input cost relative to sending every input token uncached (1.00), at the model table's prices;\n"+
		"output tokens are not priced; hit rate: cache-read tokens ÷ input tokens.")
	return err
}

func (r *Report) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s counted from %s (%s)", plural.Count(r.Total.Requests, "request"), plural.Count(r.Files, "file"), plural.Count(r.Lines, "line"))
	if r.Duplicates > 0 {
		fmt.Fprintf(&b, "; %s of a request already counted", plural.Count(r.Duplicates, "line"))
	}
	if r.NoID > 0 {
		fmt.Fprintf(&b, "; %s without an id, each counted as its own", plural.Count(r.NoID, "request"))
	}
	if r.Skipped > 0 {
		fmt.Fprintf(&b, "; %s not read (reported above)", plural.Count(r.Skipped, "line"))
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
		c := r.Rows[i].cells()
		for j := range 3 {
			c[j] = "`" + strings.ReplaceAll(c[j], "|", `\|`) + "`"
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(c, " | "))
	}
	total := r.Total.cells()
	total[0], total[1], total[2] = "**total**", "", ""
	fmt.Fprintf(w, "| %s |\n\n%s\n", strings.Join(total, " | "), r.summary())
	return r.writePredictions(w, true)
}
