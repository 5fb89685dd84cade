package guard

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/source"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/golden"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/lint"
)

// TextOptions shape the text report.
type TextOptions struct {
	// Color adds ANSI colours (a terminal without NO_COLOR).
	Color bool
	// Verbose writes every artifact in full even when there are no golden files yet (Result.NoGolden), where the
	// report is otherwise a summary: a first check of a new project would print every byte of every artifact.
	Verbose bool
	// Dir is the project root as seen from where the reader's paths start, slash-separated: the working directory
	// for a terminal ("prompts" when promptc runs with -C prompts from the repository's top, ".." from inside
	// blocks/). Source positions (blocks, constants, template lines, values) are printed under it, so a terminal can
	// open them. Empty or "." prints them relative to the project root. Artifact paths (TASK/FIXTURE.…) are names,
	// not files, and stay as they are.
	Dir string
}

// MarkdownOptions shape the markdown report.
type MarkdownOptions struct {
	// Dir is as in TextOptions; for a pull-request comment, the project root relative to the top of the repository.
	Dir string
	// Links, when set, makes each source position a link to that line in the repository's web view. Its paths are
	// taken as Dir makes them: relative to the top of the repository.
	Links *Links
}

// Links make source positions links into a repository's web view at one commit.
type Links struct {
	// Base is the repository's web address, without a trailing slash: https://github.com/OWNER/REPO.
	Base string
	// Commit is the full hash of the commit the links show.
	Commit string
}

// URL is the address of line line (0: the whole file) of file, a slash-separated path from the top of the
// repository: BASE/blob/COMMIT/FILE#LLINE, the form GitHub, Gitea and Forgejo serve (GitLab redirects it).
func (l *Links) URL(file string, line int) string {
	u := l.Base + "/blob/" + l.Commit + "/" + (&url.URL{Path: file}).EscapedPath()
	if line > 0 {
		u += "#L" + strconv.Itoa(line)
	}
	return u
}

// under is r with its file under dir (see TextOptions.Dir).
func under(dir string, r source.Range) source.Range {
	if dir != "" && dir != "." && r.Filename != "" {
		r.Filename = path.Join(dir, r.Filename)
	}
	return r
}

const (
	ansiReset = "\x1b[0m"
	ansiBold  = "\x1b[1m"
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
	ansiCyan  = "\x1b[36m"
)

// WriteText writes the result for a terminal or a CI log. When an artifact differs: the title and the summary,
// then each artifact with its first differing byte, owning block, scope, the constant, template line or value that
// wrote the byte (Change.Origin), cache impact and diff; a diff shown before (the same lines, wherever they are
// numbered) is named, not repeated. With no golden files yet (NoGolden) and without opt.Verbose: the title and, per
// task, how many artifacts of each kind and their bytes. Then the lint findings, as lint.WriteText writes them
// (after a blank line when a report precedes them). Nothing at all when nothing differs and there are no findings.
func (r *Result) WriteText(w io.Writer, opt TextOptions) error {
	var b strings.Builder
	switch {
	case r.Changed() && r.NoGolden && !opt.Verbose:
		r.writeNoGolden(&b, opt.Color)
	case r.Changed():
		r.Report.writeText(&b, r.Title(), opt)
		if err := projection.WritePrices(&b, r.Prices, "  "); err != nil {
			return err
		}
	}
	if len(r.Findings) > 0 {
		if r.Changed() {
			b.WriteString("\n")
		}
		if err := lint.WriteText(&b, r.Findings); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeNoGolden summarises the artifacts of a project with no golden files yet: the title, then per task (in path
// order) how many artifacts of each kind, and their bytes.
func (r *Result) writeNoGolden(b *strings.Builder, color bool) {
	title := r.Title()
	if color {
		title = ansiBold + title + ansiReset
	}
	b.WriteString(title + "\n")
	type tally struct {
		kinds []string
		count map[string]int
		bytes int
	}
	var tasks []string
	by := map[string]*tally{}
	for _, c := range r.Report.Changes {
		task := c.Task
		if task == "" {
			task = "(no task)"
		}
		t, ok := by[task]
		if !ok {
			t = &tally{count: map[string]int{}}
			by[task] = t
			tasks = append(tasks, task)
		}
		kind := "file"
		switch c.Kind {
		case blocks.Runbook:
			kind = "runbook"
		case blocks.Turn:
			kind = "turn message"
		}
		if t.count[kind] == 0 {
			t.kinds = append(t.kinds, kind)
		}
		t.count[kind]++
		t.bytes += c.NewBytes
	}
	sort.Strings(tasks)
	for _, task := range tasks {
		t := by[task]
		parts := make([]string, 0, len(t.kinds))
		for _, k := range t.kinds {
			parts = append(parts, plural.Count(t.count[k], k))
		}
		fmt.Fprintf(b, "  %s: %s (%s)\n", task, strings.Join(parts, ", "), plural.Count(t.bytes, "byte"))
	}
}

// writeText writes the report under title: the summary first, then each artifact.
func (r *Report) writeText(b *strings.Builder, title string, opt TextOptions) {
	paint := func(code, s string) string {
		if !opt.Color {
			return s
		}
		return code + s + ansiReset
	}
	s := r.Summarize()
	b.WriteString(paint(ansiBold, title) + "\n")
	for _, l := range s.Lines {
		b.WriteString("  " + l + "\n")
	}
	if s.InvalidatedBytes > 0 {
		fmt.Fprintf(b, "  cached prefix invalidated, summed over artifacts: %s, %s (%s estimates)\n", plural.Count(s.InvalidatedBytes, "byte"), plural.Count(s.InvalidatedTokens, "token"), r.Encoding)
	}
	// The same edit usually shows up in many artifacts (every task's runbook, every fixture): print each distinct
	// diff once and point back to it.
	shown := map[string]seen{}
	for _, c := range r.Changes {
		b.WriteString("\n")
		b.WriteString(paint(ansiBold, c.Headline()) + "\n")
		if owner := c.owner(under(opt.Dir, c.Source).String()); owner != "" {
			b.WriteString("  block: " + owner + "\n")
		}
		if o := c.Origin; o != nil {
			moved := *o
			moved.At = under(opt.Dir, o.At)
			b.WriteString("  source: " + moved.String() + ", used by block " + c.Block + "\n")
		}
		if c.Kind == blocks.Runbook && c.Status != golden.Added {
			fmt.Fprintf(b, "  cache: invalidates %s, %s of cached prefix\n", plural.Count(c.InvalidatedBytes, "byte"), plural.Count(c.InvalidatedTokens, "token"))
		} else if c.Kind == blocks.Turn {
			b.WriteString("  cache: turn message, no cached prefix lost\n")
		}
		body, hunks := diffKey(c.Diff)
		if first, ok := shown[body]; ok && body != "" {
			b.WriteString("  diff: same as " + first.path + first.at(hunks) + "\n")
			continue
		}
		shown[body] = seen{c.Path, hunks}
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

// diffKey groups diffs that show the same edit: it is the diff's body with every hunk header reduced to "@@", so
// that one edit in artifacts whose lines are numbered differently (a fixture's session block shifts them, say) has
// one key. hunks are the headers left out, joined by ", ": where the edit is in this artifact.
func diffKey(d string) (key, hunks string) {
	body := diffBody(d)
	if !strings.Contains(body, "@@ ") {
		return body, ""
	}
	var k, h strings.Builder
	for _, line := range strings.SplitAfter(body, "\n") {
		if strings.HasPrefix(line, "@@ ") {
			if h.Len() > 0 {
				h.WriteString(", ")
			}
			h.WriteString(strings.TrimSuffix(line, "\n"))
			k.WriteString("@@\n")
			continue
		}
		k.WriteString(line)
	}
	return k.String(), h.String()
}

// seen is the first artifact that showed a diff, and where in it (diffKey's hunks).
type seen struct{ path, hunks string }

// at says where a repeat of the diff is, when its hunks are elsewhere than in the first artifact: ", at @@ … @@".
func (s seen) at(hunks string) string {
	if hunks == s.hunks {
		return ""
	}
	return ", at " + hunks
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
func (c *Change) Owner() string { return c.owner(c.Source.String()) }

// owner is Owner with the block's position written as source.
func (c *Change) owner(source string) string {
	switch {
	case c.Block != "":
		side := ""
		if c.Side == "old" {
			side = ", removed text"
		}
		return fmt.Sprintf("%s (%s), scope %s%s", c.Block, source, c.Scope, side)
	case c.After != "":
		return fmt.Sprintf("text removed after block %s (scope %s)", c.After, c.Scope)
	}
	return ""
}

// WriteMarkdown writes the result as a ready pull-request comment: the title as a heading, a summary table, each
// distinct diff in a collapsible section, then the lint findings, if any, in a text block. Unlike WriteText it
// writes something when nothing differs: a one-line all-clear. Source positions are under opt.Dir, and links to
// their lines when opt.Links is set.
func (r *Result) WriteMarkdown(w io.Writer, opt MarkdownOptions) error {
	var b strings.Builder
	r.Report.writeMarkdown(&b, r.Title(), opt)
	if err := projection.WritePrices(&b, r.Prices, "- "); err != nil {
		return err
	}
	if len(r.Findings) > 0 {
		var f strings.Builder
		if err := lint.WriteText(&f, r.Findings); err != nil {
			return err
		}
		fence := "```"
		for strings.Contains(f.String(), fence) {
			fence += "`"
		}
		fmt.Fprintf(&b, "\n**Lint errors** (as `promptc lint` prints them):\n\n%stext\n%s%s\n", fence, f.String(), fence)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (r *Report) writeMarkdown(b *strings.Builder, title string, opt MarkdownOptions) {
	// at is a source position as the comment shows it: under opt.Dir, and a link to its line when links are known.
	at := func(rg source.Range) string {
		rg = under(opt.Dir, rg)
		if opt.Links == nil || rg.Filename == "" {
			return rg.String()
		}
		return "[" + rg.String() + "](" + opt.Links.URL(rg.Filename, rg.Start.Line) + ")"
	}
	s := r.Summarize()
	fmt.Fprintf(b, "### %s\n\n", title)
	if len(r.Changes) == 0 {
		b.WriteString("No artifact changed: every cached prefix is intact.\n")
		return
	}
	for _, l := range s.Lines {
		b.WriteString("- " + l + "\n")
	}
	fmt.Fprintf(b, "\n**Cached prefix invalidated** (summed over artifacts): %s, %s (%s estimates)\n\n", plural.Count(s.InvalidatedBytes, "byte"), plural.Count(s.InvalidatedTokens, "token"), r.Encoding)
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
		if c.Origin != nil {
			block = fmt.Sprintf("%s `%s` (%s), used by block `%s` (%s)", c.Origin.Kind, c.Origin.Name, at(c.Origin.At), c.Block, at(c.Source))
		} else if c.Block != "" {
			block = fmt.Sprintf("`%s` (%s)", c.Block, at(c.Source))
		} else if c.After != "" {
			block = fmt.Sprintf("after `%s`", c.After)
		}
		scope := "—"
		if c.attributed() {
			scope = c.Scope.String()
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s |\n", c.Path, first, block, scope, plural.Thousands(c.InvalidatedTokens))
	}
	// Each distinct diff once, as in the text report: a global edit repeats in every runbook, and a pull-request
	// comment has a size limit.
	shown := map[string]seen{}
	for _, c := range r.Changes {
		body, hunks := diffKey(c.Diff)
		if first, ok := shown[body]; ok && body != "" {
			fmt.Fprintf(b, "\n<code>%s</code>: %s; same diff as <code>%s</code>%s\n", escapeHTML(c.Path), escapeHTML(c.Detail()), escapeHTML(first.path), escapeHTML(first.at(hunks)))
			continue
		}
		shown[body] = seen{c.Path, hunks}
		fence := "```"
		for strings.Contains(c.Diff, fence) {
			fence += "`"
		}
		fmt.Fprintf(b, "\n<details><summary><code>%s</code>: %s</summary>\n\n%sdiff\n%s%s\n\n</details>\n", escapeHTML(c.Path), escapeHTML(c.Detail()), fence, c.Diff, fence)
	}
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
	// Findings are a check result's error-level lint findings, in promptc lint's JSON form; absent when none.
	Findings []lint.Finding `json:"findings,omitempty"`
	// Prices are what the change costs per task and model at the traffic given; absent without traffic.
	Prices []projection.ChangePrice `json:"prices,omitempty"`
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
	// Origin names the constant, template line or value that wrote the first differing byte; absent when the
	// block's own text did.
	Origin *jsonOrigin `json:"origin,omitempty"`
}

type jsonOrigin struct {
	Kind   assemble.OriginKind `json:"kind"`
	Name   string              `json:"name"`
	Source string              `json:"source"`
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
	if o := c.Origin; o != nil {
		jc.Origin = &jsonOrigin{Kind: o.Kind, Name: o.Name, Source: o.At.String()}
	}
	return jc
}

// MarshalJSON writes the change in its stable JSON form, as promptc diff --format json writes each change
// (docs/guard.md), so that another front end (the preview) shows the same object.
func (c *Change) MarshalJSON() ([]byte, error) { return json.Marshal(newJSONChange(c)) }

// WriteJSON writes the result as indented JSON with a stable field order (version 1, documented in docs/guard.md).
func (r *Result) WriteJSON(w io.Writer) error {
	rep := r.Report
	jr := jsonReport{Version: 1, Old: rep.Old.Label, New: rep.New.Label, Encoding: rep.Encoding, Summary: rep.Summarize(),
		Changes: []jsonChange{}, Findings: r.Findings, Prices: r.Prices}
	if jr.Summary.Lines == nil {
		jr.Summary.Lines = []string{}
	}
	for _, c := range rep.Changes {
		jr.Changes = append(jr.Changes, newJSONChange(c))
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(jr)
}
