package explain

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/source"
)

// where formats a range for a report: path:line:col, or "" when it names no file.
func where(r source.Range) string {
	if !r.Known() {
		return ""
	}
	return r.String()
}

// at is where in parentheses, or nothing.
func at(r source.Range) string {
	if w := where(r); w != "" {
		return " (" + w + ")"
	}
	return ""
}

// segmentName names a segment as reports do: "global prefix", "task prefix", "session part", "turn message".
func segmentName(s blocks.Scope) string {
	switch s {
	case blocks.ScopeGlobal:
		return "global prefix"
	case blocks.ScopeTask:
		return "task prefix"
	case blocks.ScopeSession:
		return "session part"
	}
	return "turn message"
}

// WriteText writes the report for people:
//
//	block "safety" in task "chat": renders (blocks/core.toml:2:1)
//	why:
//	  order: it is entry 1 of runbook.order (promptc.toml:5:10)
//	  gate: tasks admits every task ("*") (blocks/core.toml:1:1)
//	scope: global
//	  global: it reads no session variable and not .task, and its gate admits every task (blocks/core.toml:2:1)
//	placement (fixture "basic"):
//	  chat/basic.runbook.md: bytes 0-42, lines 1-3, global prefix (bytes 0-44)
func (r *BlockReport) WriteText(w io.Writer) error {
	var sb strings.Builder
	verdict := "renders"
	if !r.Renders {
		verdict = "does not render"
	}
	fmt.Fprintf(&sb, "block %q in task %q: %s%s\n", r.Block.ID, r.Task, verdict, at(r.Block.Range))
	sb.WriteString("why:\n")
	for _, x := range r.Why {
		fmt.Fprintf(&sb, "  %s: %s%s\n", x.Kind, x.Text, at(x.At))
	}
	fmt.Fprintf(&sb, "scope: %s\n", r.Scope)
	for _, x := range r.ScopeWhy {
		fmt.Fprintf(&sb, "  %s: %s%s\n", x.Kind, x.Text, at(x.At))
	}
	switch {
	case r.Fixture == "":
		sb.WriteString("placement: no fixture renders the task\n")
	default:
		note := ""
		if r.FixtureGuessed {
			note = ", the first of several; choose one with --fixture"
		}
		if len(r.Placements) == 0 {
			fmt.Fprintf(&sb, "placement (fixture %q%s): none\n", r.Fixture, note)
			break
		}
		fmt.Fprintf(&sb, "placement (fixture %q%s):\n", r.Fixture, note)
		for _, p := range r.Placements {
			lines := fmt.Sprintf("lines %d-%d", p.FirstLine, p.LastLine)
			if p.FirstLine == p.LastLine {
				lines = fmt.Sprintf("line %d", p.FirstLine)
			}
			fmt.Fprintf(&sb, "  %s: bytes %d-%d, %s, %s (bytes %d-%d)\n", p.Artifact, p.TextStart, p.End, lines, segmentName(p.Segment), p.SegmentStart, p.SegmentEnd)
		}
	}
	writeBudgetText(&sb, r.Budget)
	_, err := io.WriteString(w, sb.String())
	return err
}

// jsonReason is a Reason in JSON.
type jsonReason struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
	At   string `json:"at,omitempty"`
}

func reasons(rs []Reason) []jsonReason {
	out := make([]jsonReason, len(rs))
	for i, x := range rs {
		out[i] = jsonReason{x.Kind, x.Text, where(x.At)}
	}
	return out
}

type jsonPlacement struct {
	Artifact     string `json:"artifact"`
	Start        int    `json:"start"`
	TextStart    int    `json:"text_start"`
	End          int    `json:"end"`
	FirstLine    int    `json:"first_line"`
	LastLine     int    `json:"last_line"`
	Segment      string `json:"segment"`
	SegmentStart int    `json:"segment_start"`
	SegmentEnd   int    `json:"segment_end"`
}

// WriteJSON writes the report as one JSON object (documented in docs/explain.md):
//
//	{"block", "task", "defined", "section", "fixture", "fixture_guessed", "renders", "why": [{"kind", "text", "at"}],
//	 "scope", "scope_why": [...], "placements": [{"artifact", "start", "text_start", "end", "first_line",
//	 "last_line", "segment", "segment_start", "segment_end"}]}
func (r *BlockReport) WriteJSON(w io.Writer) error {
	pls := make([]jsonPlacement, len(r.Placements))
	for i, p := range r.Placements {
		pls[i] = jsonPlacement{p.Artifact, p.Start, p.TextStart, p.End, p.FirstLine, p.LastLine, p.Segment.String(), p.SegmentStart, p.SegmentEnd}
	}
	return writeJSON(w, struct {
		Block          string          `json:"block"`
		Task           string          `json:"task"`
		Defined        string          `json:"defined"`
		Section        string          `json:"section"`
		Fixture        string          `json:"fixture"`
		FixtureGuessed bool            `json:"fixture_guessed"`
		Renders        bool            `json:"renders"`
		Why            []jsonReason    `json:"why"`
		Scope          string          `json:"scope"`
		ScopeWhy       []jsonReason    `json:"scope_why"`
		Placements     []jsonPlacement `json:"placements"`
		Budget         []*jsonBudget   `json:"budget,omitempty"`
	}{r.Block.ID, r.Task, where(r.Block.Range), r.Block.Section.String(), r.Fixture, r.FixtureGuessed, r.Renders,
		reasons(r.Why), r.Scope.String(), reasons(r.ScopeWhy), pls, budgetsJSON(r.Budget)})
}

// WriteText writes the report for people:
//
//	chat/basic.runbook.md:8: "- Run only the commands listed in this runbook."
//	  block "safety" (blocks/core.toml:13:1), scope global, global prefix
//	  body line at blocks/core.toml:16:1
//	  text (blocks/core.toml:16:1)
//	  constant "boundary" (blocks/core.toml:2:1)
func (r *LineReport) WriteText(w io.Writer) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s:%d: %q\n", r.Artifact, r.Line, r.Text)
	fmt.Fprintf(&sb, "  block %q%s, scope %s, %s\n", r.Block.ID, at(r.Block.Range), r.Scope, segmentName(r.Segment))
	src := where(r.Source)
	if src == "" {
		src = "?"
	}
	fmt.Fprintf(&sb, "  %s line at %s\n", r.Part, src)
	for _, o := range r.From {
		name := ""
		if o.Name != "" {
			name = fmt.Sprintf(" %q", o.Name)
		}
		fmt.Fprintf(&sb, "  %s%s%s\n", o.Kind, name, at(o.At))
	}
	if r.Budget.Over() {
		fmt.Fprintf(&sb, "  %s\n", r.Budget)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// WriteJSON writes the report as one JSON object (documented in docs/explain.md):
//
//	{"artifact", "line", "text", "start", "end", "block", "defined", "scope", "segment", "part", "source",
//	 "from": [{"kind", "name", "at"}]}
func (r *LineReport) WriteJSON(w io.Writer) error {
	type origin struct {
		Kind assemble.OriginKind `json:"kind"`
		Name string              `json:"name,omitempty"`
		At   string              `json:"at,omitempty"`
	}
	from := make([]origin, len(r.From))
	for i, o := range r.From {
		from[i] = origin{o.Kind, o.Name, where(o.At)}
	}
	return writeJSON(w, struct {
		Artifact string      `json:"artifact"`
		Line     int         `json:"line"`
		Text     string      `json:"text"`
		Start    int         `json:"start"`
		End      int         `json:"end"`
		Block    string      `json:"block"`
		Defined  string      `json:"defined"`
		Scope    string      `json:"scope"`
		Segment  string      `json:"segment"`
		Part     string      `json:"part"`
		Source   string      `json:"source"`
		From     []origin    `json:"from"`
		Budget   *jsonBudget `json:"budget,omitempty"`
	}{r.Artifact, r.Line, r.Text, r.Start, r.End, r.Block.ID, where(r.Block.Range), r.Scope.String(), r.Segment.String(), r.Part, where(r.Source), from, budgetJSON("", r.Budget)})
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Formats are the formats an explain report is written in: text (WriteText) and json (WriteJSON, its fields listed
// in docs/explain.md). report.Formats(Formats...) is promptc explain's --format flag.
var Formats = []report.Format{report.Text, report.JSON}

// Write writes the report in format f, one of Formats.
func (r *BlockReport) Write(w io.Writer, f report.Format) error {
	return write(w, f, r.WriteText, r.WriteJSON)
}

// Write writes the report in format f, one of Formats.
func (r *LineReport) Write(w io.Writer, f report.Format) error {
	return write(w, f, r.WriteText, r.WriteJSON)
}

func write(w io.Writer, f report.Format, text, json func(io.Writer) error) error {
	switch f {
	case report.Text:
		return text(w)
	case report.JSON:
		return json(w)
	}
	return fmt.Errorf("an explain report is written as text or json, not %s", f)
}
