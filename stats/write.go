package stats

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/report"
)

// WriteJSON writes the report as indented JSON (docs/stats.md).
func (r *Report) WriteJSON(w io.Writer) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// WriteText writes the report as aligned tables, one section per task, then the prefix shared by all tasks.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Token counts are %s estimates. Block bytes include the separator before the block.\n", r.Encoding)
	for _, ts := range r.Tasks {
		b.WriteByte('\n')
		if ts.Fixture == "" && r.Sample != "" {
			fmt.Fprintf(&b, "task %s: fixture %q does not render this task\n", ts.Task, r.Sample)
			continue
		}
		if ts.Fixture == "" {
			fmt.Fprintf(&b, "task %s: no fixture renders this task\n", ts.Task)
			continue
		}
		which := "the only fixture rendering it"
		switch {
		case r.Sample != "":
			which = fmt.Sprintf("as asked, of %s rendering it", plural.Count(len(ts.Fixtures), "fixture"))
		case len(ts.Fixtures) > 1:
			which = fmt.Sprintf("the first by name of %d fixtures rendering it; --fixture picks another", len(ts.Fixtures))
		}
		fmt.Fprintf(&b, "task %s: %s (fixture %q, %s)\n", ts.Task, ts.Artifact, ts.Fixture, which)
		rows := [][]string{{"block", "scope", "bytes", "tokens", "source"}}
		for _, bs := range ts.Blocks {
			rows = append(rows, []string{bs.Block, bs.Scope.String(), strconv.Itoa(bs.Bytes), strconv.Itoa(bs.Tokens), bs.Source})
		}
		rows = append(rows, []string{"total", "", strconv.Itoa(ts.Bytes), strconv.Itoa(ts.Tokens), ""})
		writeTable(&b, rows, "llrrl")

		b.WriteByte('\n')
		rows = [][]string{{"scope", "blocks", "bytes", "tokens", ""}}
		for _, s := range ts.Scopes {
			note := ""
			if s.Scope == blocks.ScopeTurn {
				note = "in " + plural.Count(ts.TurnMessages, "turn message")
			}
			rows = append(rows, []string{s.Scope.String(), strconv.Itoa(s.Blocks), strconv.Itoa(s.Bytes), strconv.Itoa(s.Tokens), note})
		}
		writeTable(&b, rows, "lrrrl")

		b.WriteByte('\n')
		rows = [][]string{{"prefix", "bytes", "tokens", "ends at", "ends in"}}
		prefixRow := func(name string, p Prefix) {
			rows = append(rows, []string{name, strconv.Itoa(p.Bytes), strconv.Itoa(p.Tokens), fmt.Sprintf("%d:%d", p.Line, p.Col), endsIn(p.Block)})
		}
		prefixRow("global", ts.GlobalPrefix)
		prefixRow("task", ts.TaskPrefix)
		prefixRow("common to "+plural.Count(ts.FixturePrefix.Fixtures, "fixture"), ts.FixturePrefix.Prefix)
		writeTable(&b, rows, "lrrll")

		if len(ts.Fixtures) > 1 {
			b.WriteByte('\n')
			rows = [][]string{{"fixture", "bytes", "tokens", "global prefix", "task prefix"}}
			for _, f := range ts.Fixtures {
				rows = append(rows, []string{f.Fixture, strconv.Itoa(f.Bytes), strconv.Itoa(f.Tokens), strconv.Itoa(f.GlobalPrefix), strconv.Itoa(f.TaskPrefix)})
			}
			writeTable(&b, rows, "lrrrr")
		}
	}
	if sp := r.Shared; len(sp.Artifacts) > 0 {
		var left []string
		for _, ts := range r.Tasks {
			if ts.Fixture == "" {
				left = append(left, ts.Task)
			}
		}
		note := ""
		if len(left) > 0 && r.Sample != "" {
			note = fmt.Sprintf(" (left out, not rendered by fixture %q: %s)", r.Sample, strings.Join(left, ", "))
		} else if len(left) > 0 {
			note = " (left out, no fixture: " + strings.Join(left, ", ") + ")"
		}
		fmt.Fprintf(&b, "\nshared by every task%s: %d bytes, %d tokens, up to %d:%d\n", note, sp.Bytes, sp.Tokens, sp.Line, sp.Col)
		if sp.Agreed > sp.Bytes {
			fmt.Fprintf(&b, "  (the runbooks compared agree on %d bytes, %d past the global prefix: task or session text that\n"+
				"  coincides in these fixtures, which other sessions do not share)\n", sp.Agreed, sp.Agreed-sp.Bytes)
		}
		rows := [][]string{{"task", "runbook", "ends in"}}
		for i, e := range sp.Ends {
			rows = append(rows, []string{e.Task, sp.Artifacts[i], endsIn(e.Block)})
		}
		writeTable(&b, rows, "lll")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func endsIn(block string) string {
	if block == "" {
		return "(end of runbook)"
	}
	return strconv.Quote(block)
}

// writeTable writes rows as columns two spaces apart, indented by two, each column aligned left (l) or right (r)
// as align says. Trailing blanks are dropped.
func writeTable(b *strings.Builder, rows [][]string, align string) {
	widths := make([]int, len(align))
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	for _, row := range rows {
		var line strings.Builder
		line.WriteString("  ")
		for i, cell := range row {
			if i > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell))
			if align[i] == 'r' {
				line.WriteString(pad + cell)
			} else {
				line.WriteString(cell + pad)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
}

// Write writes the report in format f: text (WriteText) or json (WriteJSON); any other format is an error.
func (r *Report) Write(w io.Writer, f report.Format) error {
	switch f {
	case report.Text:
		return r.WriteText(w)
	case report.JSON:
		return r.WriteJSON(w)
	}
	return fmt.Errorf("a stats report is written as text or json, not %s", f)
}
