package guard

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/golden"
)

// Summary says in a few lines what a set of changes costs: which tasks and scopes are hit, and the cached tokens
// lost in all.
type Summary struct {
	Lines             []string `json:"lines"`
	Artifacts         int      `json:"artifacts"`
	InvalidatedBytes  int      `json:"invalidated_bytes"`
	InvalidatedTokens int      `json:"invalidated_tokens"`
}

// Summarize reads the changes the way a reviewer would: a global prefix change invalidates every task's cache; a task
// or session change only its own; a turn message change loses no cached prefix.
func (r *Report) Summarize() Summary {
	s := Summary{Artifacts: len(r.Changes)}
	byScope := map[blocks.Scope][]string{}
	var added, removed, tails []string
	for _, c := range r.Changes {
		s.InvalidatedBytes += c.InvalidatedBytes
		s.InvalidatedTokens += c.InvalidatedTokens
		switch {
		case c.Status == golden.Added:
			added = append(added, c.Path)
		case c.Status == golden.Removed:
			removed = append(removed, c.Path)
		case c.Kind == blocks.Turn:
			byScope[blocks.ScopeTurn] = append(byScope[blocks.ScopeTurn], c.Task)
		case c.Block == "" && c.After != "":
			tails = append(tails, c.Task)
		default:
			scope := c.Scope
			if !c.attributed() {
				scope = blocks.ScopeTask
			}
			byScope[scope] = append(byScope[scope], c.Task)
		}
	}
	if tasks := byScope[blocks.ScopeGlobal]; len(tasks) > 0 {
		s.Lines = append(s.Lines, "global prefix changed: every task's cache is invalidated")
	}
	if tasks := byScope[blocks.ScopeTask]; len(tasks) > 0 {
		s.Lines = append(s.Lines, byTasks(tasks,
			"task prefix of %s changed: %[1]s's cache is invalidated",
			"task prefix of %s changed: their caches are invalidated"))
	}
	if tasks := byScope[blocks.ScopeSession]; len(tasks) > 0 {
		s.Lines = append(s.Lines, byTasks(tasks,
			"session part of %s's runbook changed: its cached sessions are invalidated from there",
			"session part of the runbooks of %s changed: their cached sessions are invalidated from there"))
	}
	if tasks := byScope[blocks.ScopeTurn]; len(tasks) > 0 {
		s.Lines = append(s.Lines, byTasks(tasks,
			"%s's turn message changed: no cached prefix is lost",
			"turn messages of %s changed: no cached prefix is lost"))
	}
	if len(tails) > 0 {
		s.Lines = append(s.Lines, byTasks(tails,
			"text removed at the end of %s's runbook: the cached prefix before it is intact",
			"text removed at the end of the runbooks of %s: the cached prefixes before it are intact"))
	}
	if len(added) > 0 {
		s.Lines = append(s.Lines, fmt.Sprintf("%d new %s: %s", len(added), noun(len(added), "artifact", "artifacts"), listPaths(added)))
	}
	if len(removed) > 0 {
		s.Lines = append(s.Lines, fmt.Sprintf("%d %s no longer produced: %s", len(removed), noun(len(removed), "artifact", "artifacts"), listPaths(removed)))
	}
	return s
}

func uniqueSorted(list []string) []string {
	set := map[string]bool{}
	var out []string
	for _, s := range list {
		if !set[s] {
			set[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// byTasks fills one of two sentences with the distinct tasks, sorted: one for a single task, one for several.
func byTasks(tasks []string, one, many string) string {
	u := uniqueSorted(tasks)
	if len(u) == 1 {
		return fmt.Sprintf(one, u[0])
	}
	return fmt.Sprintf(many, strings.Join(u, ", "))
}

func listPaths(paths []string) string {
	if len(paths) <= 3 {
		return strings.Join(paths, ", ")
	}
	return strings.Join(paths[:3], ", ") + fmt.Sprintf(" and %d more", len(paths)-3)
}

// noun picks the singular or plural form for n.
func noun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// count formats n with its unit: "1 byte", "12,345 tokens".
func count(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return thousands(n) + " " + unit + "s"
}

// thousands formats n with thousands separators: 12,345.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TextOptions shape the text report.
type TextOptions struct {
	// Title is the first line: "promptc check: 2 artifacts differ from golden/".
	Title string
	// Color adds ANSI colours (a terminal without NO_COLOR).
	Color bool
}

const (
	ansiReset = "\x1b[0m"
	ansiBold  = "\x1b[1m"
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
	ansiCyan  = "\x1b[36m"
)

// WriteText writes the report for a terminal or a CI log: the summary first, then each artifact with its first
// differing byte, owning block, scope, cache impact and diff.
func (r *Report) WriteText(w io.Writer, opt TextOptions) error {
	paint := func(code, s string) string {
		if !opt.Color {
			return s
		}
		return code + s + ansiReset
	}
	var b strings.Builder
	s := r.Summarize()
	b.WriteString(paint(ansiBold, opt.Title) + "\n")
	for _, l := range s.Lines {
		b.WriteString("  " + l + "\n")
	}
	if s.InvalidatedBytes > 0 {
		fmt.Fprintf(&b, "  cached prefix invalidated, summed over artifacts: %s, %s (%s estimates)\n", count(s.InvalidatedBytes, "byte"), count(s.InvalidatedTokens, "token"), r.Encoding)
	}
	// The same edit usually shows up in many artifacts (every task's runbook, every fixture): print each distinct
	// diff once and point back to it.
	shown := map[string]string{}
	for _, c := range r.Changes {
		b.WriteString("\n")
		b.WriteString(paint(ansiBold, c.Headline()) + "\n")
		if owner := c.Owner(); owner != "" {
			b.WriteString("  block: " + owner + "\n")
		}
		if c.Kind == blocks.Runbook && c.Status != golden.Added {
			fmt.Fprintf(&b, "  cache: invalidates %s, %s of cached prefix\n", count(c.InvalidatedBytes, "byte"), count(c.InvalidatedTokens, "token"))
		} else if c.Kind == blocks.Turn {
			b.WriteString("  cache: turn message, no cached prefix lost\n")
		}
		body := diffBody(c.Diff)
		if first, ok := shown[body]; ok && body != "" {
			b.WriteString("  diff: same as " + first + "\n")
			continue
		}
		shown[body] = c.Path
		for _, line := range strings.SplitAfter(c.Diff, "\n") {
			if line == "" {
				continue
			}
			switch {
			case strings.HasPrefix(line, "---"), strings.HasPrefix(line, "+++"):
				b.WriteString(paint(ansiBold, strings.TrimSuffix(line, "\n")) + "\n")
			case strings.HasPrefix(line, "@@"):
				b.WriteString(paint(ansiCyan, strings.TrimSuffix(line, "\n")) + "\n")
			case line[0] == '-':
				b.WriteString(paint(ansiRed, strings.TrimSuffix(line, "\n")) + "\n")
			case line[0] == '+':
				b.WriteString(paint(ansiGreen, strings.TrimSuffix(line, "\n")) + "\n")
			default:
				b.WriteString(line)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// diffBody is a unified diff without its two file header lines.
func diffBody(d string) string {
	for i := 0; i < 2; i++ {
		if j := strings.IndexByte(d, '\n'); j >= 0 {
			d = d[j+1:]
		}
	}
	return d
}

// Headline is one line naming the artifact and where it first differs.
func (c *Change) Headline() string { return c.Path + ": " + c.Detail() }

// Detail says where the artifact first differs, or that it is new or gone, and notes line-ending-only changes.
func (c *Change) Detail() string {
	var d string
	switch c.Status {
	case golden.Added:
		d = "new artifact"
	case golden.Removed:
		d = "no longer produced"
	default:
		d = fmt.Sprintf("changed at byte %d (line %d, col %d)", c.Offset, c.Line, c.Col)
	}
	if c.Note != "" {
		d += "; " + c.Note
	}
	return d
}

// Owner names the block owning the first differing byte, its source position and scope.
func (c *Change) Owner() string {
	switch {
	case c.Block != "":
		side := ""
		if c.Side == "old" {
			side = ", removed text"
		}
		return fmt.Sprintf("%s (%s), scope %s%s", c.Block, c.Source, c.Scope, side)
	case c.After != "":
		return fmt.Sprintf("text removed after block %s (scope %s)", c.After, c.Scope)
	}
	return ""
}

// WriteMarkdown writes a ready pull-request comment: a summary table, then each diff in a collapsible section.
func (r *Report) WriteMarkdown(w io.Writer, title string) error {
	var b strings.Builder
	s := r.Summarize()
	fmt.Fprintf(&b, "### %s\n\n", title)
	if len(r.Changes) == 0 {
		b.WriteString("No artifact changed: every cached prefix is intact.\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	for _, l := range s.Lines {
		b.WriteString("- " + l + "\n")
	}
	fmt.Fprintf(&b, "\n**Cached prefix invalidated** (summed over artifacts): %s, %s (%s estimates)\n\n", count(s.InvalidatedBytes, "byte"), count(s.InvalidatedTokens, "token"), r.Encoding)
	b.WriteString("| artifact | first change | block | scope | cached tokens invalidated |\n")
	b.WriteString("|---|---|---|---|---:|\n")
	for _, c := range r.Changes {
		first := fmt.Sprintf("byte %d (%d:%d)", c.Offset, c.Line, c.Col)
		switch c.Status {
		case golden.Added:
			first = "new artifact"
		case golden.Removed:
			first = "no longer produced"
		}
		block := "—"
		if c.Block != "" {
			block = fmt.Sprintf("`%s` (%s)", c.Block, c.Source)
		} else if c.After != "" {
			block = fmt.Sprintf("after `%s`", c.After)
		}
		scope := "—"
		if c.attributed() {
			scope = c.Scope.String()
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", c.Path, first, block, scope, thousands(c.InvalidatedTokens))
	}
	// Each distinct diff once, as in the text report: a global edit repeats in every runbook, and a pull-request
	// comment has a size limit.
	shown := map[string]string{}
	for _, c := range r.Changes {
		body := diffBody(c.Diff)
		if first, ok := shown[body]; ok && body != "" {
			fmt.Fprintf(&b, "\n<code>%s</code>: %s; same diff as <code>%s</code>\n", escapeHTML(c.Path), escapeHTML(c.Detail()), escapeHTML(first))
			continue
		}
		shown[body] = c.Path
		fence := "```"
		for strings.Contains(c.Diff, fence) {
			fence += "`"
		}
		fmt.Fprintf(&b, "\n<details><summary><code>%s</code>: %s</summary>\n\n%sdiff\n%s%s\n\n</details>\n", escapeHTML(c.Path), escapeHTML(c.Detail()), fence, c.Diff, fence)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func escapeHTML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// jsonReport is the stable JSON form of a report (version 1): documented in docs/guard.md.
type jsonReport struct {
	Version  int          `json:"version"`
	Old      string       `json:"old"`
	New      string       `json:"new"`
	Encoding string       `json:"encoding"`
	Summary  Summary      `json:"summary"`
	Changes  []jsonChange `json:"changes"`
}

// jsonChange is the stable JSON form of a change: every field always in this order; block, scope, side, after, note
// and source omitted when empty.
type jsonChange struct {
	Path              string `json:"path"`
	Status            string `json:"status"`
	Task              string `json:"task"`
	Kind              string `json:"kind"`
	Offset            int    `json:"offset"`
	Line              int    `json:"line"`
	Col               int    `json:"col"`
	Block             string `json:"block,omitempty"`
	Scope             string `json:"scope,omitempty"`
	Side              string `json:"side,omitempty"`
	After             string `json:"after,omitempty"`
	InvalidatedBytes  int    `json:"invalidated_bytes"`
	InvalidatedTokens int    `json:"invalidated_tokens"`
	OldBytes          int    `json:"old_bytes"`
	NewBytes          int    `json:"new_bytes"`
	Note              string `json:"note,omitempty"`
	Diff              string `json:"diff"`
	Source            string `json:"source,omitempty"`
}

func newJSONChange(c *Change) jsonChange {
	jc := jsonChange{Path: c.Path, Status: c.Status.String(), Task: c.Task, Offset: c.Offset, Line: c.Line, Col: c.Col,
		Block: c.Block, Side: c.Side, After: c.After, InvalidatedBytes: c.InvalidatedBytes,
		InvalidatedTokens: c.InvalidatedTokens, OldBytes: c.OldBytes, NewBytes: c.NewBytes, Note: c.Note, Diff: c.Diff}
	if c.Kind != blocks.Unplaced {
		jc.Kind = c.Kind.String()
	}
	if c.attributed() {
		jc.Scope = c.Scope.String()
	}
	if c.Source.Known() {
		jc.Source = c.Source.String()
	}
	return jc
}

// WriteJSON writes the report as indented JSON with a stable field order.
func (r *Report) WriteJSON(w io.Writer) error {
	jr := jsonReport{Version: 1, Old: r.Old.Label, New: r.New.Label, Encoding: r.Encoding, Summary: r.Summarize(), Changes: []jsonChange{}}
	if jr.Summary.Lines == nil {
		jr.Summary.Lines = []string{}
	}
	for _, c := range r.Changes {
		jr.Changes = append(jr.Changes, newJSONChange(c))
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(jr)
}

// WriteAnnotations writes GitHub Actions workflow commands that put each change on the line of the block source that
// caused it. Changes owned by the same source position are one annotation naming every artifact, since GitHub shows
// only a few per step. prefix is the project root's path relative to the repository root ("" or "examples/tracker/").
func (r *Report) WriteAnnotations(w io.Writer, prefix string) error {
	type group struct {
		at      string
		changes []*Change
	}
	var groups []*group
	byAt := map[string]*group{}
	for _, c := range r.Changes {
		at := "file=" + annotationValue(prefix+"golden/"+c.Path)
		if c.Source.Known() {
			at = fmt.Sprintf("file=%s,line=%d,col=%d", annotationValue(prefix+c.Source.Filename), max(c.Source.Start.Line, 1), max(c.Source.Start.Column, 1))
		}
		g, ok := byAt[at]
		if !ok {
			g = &group{at: at}
			byAt[at] = g
			groups = append(groups, g)
		}
		g.changes = append(g.changes, c)
	}
	var b strings.Builder
	for _, g := range groups {
		c := g.changes[0]
		msg := c.Headline()
		if owner := c.Owner(); owner != "" {
			msg += "; block " + owner
		}
		tokens := 0
		for _, c := range g.changes {
			tokens += c.InvalidatedTokens
		}
		if len(g.changes) > 1 {
			paths := make([]string, 0, len(g.changes)-1)
			for _, c := range g.changes[1:] {
				paths = append(paths, c.Path)
			}
			msg += fmt.Sprintf("; also %s", listPaths(paths))
		}
		if tokens > 0 {
			msg += fmt.Sprintf("; invalidates %s of cached prefix", count(tokens, "token"))
		}
		fmt.Fprintf(&b, "::error %s::%s\n", g.at, annotationData(msg))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// annotationData escapes a workflow command's message, as GitHub's toolkit does.
func annotationData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// annotationValue escapes a workflow command's property value.
func annotationValue(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
