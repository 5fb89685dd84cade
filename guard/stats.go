package guard

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/tokens"
)

// StatsReport is the size of a project's prompts: per task, per block and per scope, and the prefixes that runbooks
// share, which is what a provider's prompt cache can reuse. Its JSON form is stable (docs/stats.md).
type StatsReport struct {
	// Encoding names the vocabulary tokens were counted with. Token counts are estimates (see Counter).
	Encoding string `json:"encoding"`
	// Sample is the fixture asked for (StatsFixture), "" when each task's first fixture by name is measured.
	Sample string      `json:"sample"`
	Tasks  []TaskStats `json:"tasks"`
	// Shared is the prefix that every task's runbook shares by construction, what one cache entry can serve to all:
	// their common prefix, cut back to the shortest global prefix among them.
	Shared SharedPrefix `json:"shared_prefix"`
}

// TaskStats measures one task. Blocks, Scopes and the prefixes measure the runbook of one fixture, the sample: the
// one asked for, else the first (by name) that renders the task; Fixtures gives every fixture's totals.
type TaskStats struct {
	Task string `json:"task"`
	// Fixture and Artifact name the runbook measured; both are empty when no fixture renders the task, or when the
	// fixture asked for does not (then every number is 0 and every list empty).
	Fixture  string `json:"fixture"`
	Artifact string `json:"artifact"`
	Bytes    int    `json:"bytes"`
	Tokens   int    `json:"tokens"`
	// Blocks lists the rendered blocks in runbook order. A block's bytes are its span in the source map: the
	// separator before it and, for the last block, the final newline, so the bytes add up to the runbook's.
	Blocks []BlockStats `json:"blocks"`
	// Scopes totals the blocks by scope: global, task and session from the runbook; turn from the fixture's turn
	// messages, all of them together.
	Scopes       []ScopeStats `json:"scopes"`
	TurnMessages int          `json:"turn_messages"`
	// GlobalPrefix ends where the first non-global block starts, TaskPrefix where the first session block starts
	// (Artifact.PrefixEnd): the parts shared by every task, and by every session of this task, when the order keeps
	// stable blocks first.
	GlobalPrefix Prefix `json:"global_prefix"`
	TaskPrefix   Prefix `json:"task_prefix"`
	// FixturePrefix is the longest prefix common to the task's runbooks over every fixture that renders it: what
	// the sessions sampled by the fixtures really share.
	FixturePrefix FixturePrefix  `json:"fixture_prefix"`
	Fixtures      []FixtureStats `json:"fixtures"`
}

// BlockStats is one rendered block of a runbook.
type BlockStats struct {
	Block  string       `json:"block"`
	Scope  blocks.Scope `json:"scope"`
	Source string       `json:"source"` // the block's position, path:line:col
	Bytes  int          `json:"bytes"`
	Tokens int          `json:"tokens"`
}

// ScopeStats totals the blocks of one scope.
type ScopeStats struct {
	Scope  blocks.Scope `json:"scope"`
	Blocks int          `json:"blocks"` // distinct blocks rendered
	Bytes  int          `json:"bytes"`
	Tokens int          `json:"tokens"`
}

// Prefix is a prefix of a runbook: its bytes [0, Bytes), the line and column (1-based, column in runes) of the first
// byte after it, its tokens, and the block whose span holds that first byte: where the prefix ends. Block is empty
// when the prefix is the whole runbook.
type Prefix struct {
	Bytes  int    `json:"bytes"`
	Line   int    `json:"line"`
	Col    int    `json:"col"`
	Tokens int    `json:"tokens"`
	Block  string `json:"block"`
}

// FixturePrefix is the prefix common to a task's runbooks over its fixtures.
type FixturePrefix struct {
	Prefix
	Fixtures int `json:"fixtures"` // how many runbooks were compared
}

// FixtureStats is one fixture's runbook for a task.
type FixtureStats struct {
	Fixture      string `json:"fixture"`
	Artifact     string `json:"artifact"`
	Bytes        int    `json:"bytes"`
	Tokens       int    `json:"tokens"`
	GlobalPrefix int    `json:"global_prefix_bytes"`
	TaskPrefix   int    `json:"task_prefix_bytes"`
}

// SharedPrefix is the prefix common to one runbook of every task (the sample's, where a fixture was asked for; else
// the same fixture's where one fixture renders every task, else each task's first fixture), cut back to the
// shortest global prefix among them. Session or task text that happens to coincide in the fixtures compared is not
// shared by construction, so it is not counted: Agreed tells how far the runbooks compared really agree.
type SharedPrefix struct {
	Bytes     int      `json:"bytes"`
	Line      int      `json:"line"`
	Col       int      `json:"col"`
	Tokens    int      `json:"tokens"`
	Artifacts []string `json:"artifacts"`
	// Agreed is the length of the runbooks' common prefix before the cut: more than Bytes when session or task text
	// coincides in the fixtures compared.
	Agreed int `json:"agreed_bytes"`
	// Ends names, per task, the block where its runbook leaves the shared prefix ("" when the whole runbook is
	// shared).
	Ends []TaskBlock `json:"ends"`
}

// TaskBlock names a block of one task's runbook.
type TaskBlock struct {
	Task  string `json:"task"`
	Block string `json:"block"`
}

// Stats measures the artifacts a program built (as Program.Build returns them), counting tokens with tok (nil: an
// o200k_base counter), sampling each task's first fixture by name. Tasks are in manifest order. A prefix common to
// several runbooks is cut back to a whole character, so that its line, column and tokens are those of valid text.
func Stats(prog *assemble.Program, arts []*assemble.Artifact, tok *tokens.Counter) *StatsReport {
	r, _ := StatsFixture(prog, arts, tok, "")
	return r
}

// StatsFixture is Stats sampling the runbooks of the named fixture ("" for each task's first fixture by name). A
// task the fixture does not render is reported without numbers and left out of the shared prefix. It fails only
// when the project has no fixture of that name.
func StatsFixture(prog *assemble.Program, arts []*assemble.Artifact, tok *tokens.Counter, fixture string) (*StatsReport, error) {
	if err := checkSample(prog.Project, fixture); err != nil {
		return nil, err
	}
	if tok == nil {
		tok = tokens.New(tokens.O200k)
	}
	r := &StatsReport{Encoding: tok.Encoding().String(), Sample: fixture, Tasks: []TaskStats{}}
	runbooks := map[string][]*assemble.Artifact{}
	turns := map[string][]*assemble.Artifact{} // by runbook path prefix "task/fixture."
	for _, a := range arts {
		if a.Kind == blocks.Runbook {
			runbooks[a.Task] = append(runbooks[a.Task], a)
		} else if i := strings.LastIndex(a.Path, ".turn-"); i >= 0 {
			turns[a.Path[:i+1]] = append(turns[a.Path[:i+1]], a)
		}
	}
	for _, task := range prog.Project.Tasks {
		r.Tasks = append(r.Tasks, taskStats(prog.Project, task, runbooks[task], turns, tok, fixture))
	}
	r.Shared = sharedPrefix(prog.Project, runbooks, tok, fixture)
	return r, nil
}

// checkSample fails when fixture is not "" and names no fixture of p.
func checkSample(p *blocks.Project, fixture string) error {
	if fixture == "" || p.Fixture(fixture) != nil {
		return nil
	}
	names := make([]string, len(p.Fixtures))
	for i, f := range p.Fixtures {
		names[i] = f.Name
	}
	return fmt.Errorf("no fixture %q%s", fixture, blocks.DidYouMean(fixture, names))
}

// sampleOf returns the runbook of rbs (task's, one per fixture rendering it) that stats and the lints measure: the
// named fixture's, else that of p.SampleFixture(task), the first by name
// (docs/reference.md#default-and-sample-fixtures); nil when there is none.
func sampleOf(p *blocks.Project, task string, rbs []*assemble.Artifact, fixture string) *assemble.Artifact {
	if fixture == "" {
		f := p.SampleFixture(task)
		if f == nil {
			return nil
		}
		fixture = f.Name
	}
	return findFixture(rbs, fixture)
}

func taskStats(p *blocks.Project, task string, rbs []*assemble.Artifact, turns map[string][]*assemble.Artifact, tok *tokens.Counter, fixture string) TaskStats {
	ts := TaskStats{Task: task, Blocks: []BlockStats{}, Scopes: []ScopeStats{}, Fixtures: []FixtureStats{}}
	a := sampleOf(p, task, rbs, fixture)
	if a == nil {
		return ts
	}
	ts.Fixture, ts.Artifact = a.Fixture, a.Path
	ts.Bytes, ts.Tokens = len(a.Text), tok.Count(a.Text)
	byScope := map[blocks.Scope]*ScopeStats{}
	for scope := blocks.ScopeGlobal; scope <= blocks.ScopeTurn; scope++ {
		ts.Scopes = append(ts.Scopes, ScopeStats{Scope: scope})
	}
	for i := range ts.Scopes {
		byScope[ts.Scopes[i].Scope] = &ts.Scopes[i]
	}
	for _, sp := range a.Spans {
		n := tok.Count(a.Text[sp.Start:sp.End])
		ts.Blocks = append(ts.Blocks, BlockStats{Block: sp.Block.ID, Scope: sp.Scope, Source: sp.Block.Range.String(),
			Bytes: sp.End - sp.Start, Tokens: n})
		if s := byScope[sp.Scope]; s != nil {
			s.Blocks++
			s.Bytes += sp.End - sp.Start
			s.Tokens += n
		}
	}
	seen := map[string]bool{}
	for _, t := range turns[strings.TrimSuffix(a.Path, "runbook.md")] {
		ts.TurnMessages++
		s := byScope[blocks.ScopeTurn]
		s.Bytes += len(t.Text)
		s.Tokens += tok.Count(t.Text)
		for _, sp := range t.Spans {
			if !seen[sp.Block.ID] {
				seen[sp.Block.ID] = true
				s.Blocks++
			}
		}
	}
	ts.GlobalPrefix = prefixOf(a, a.PrefixEnd(blocks.ScopeGlobal), tok)
	ts.TaskPrefix = prefixOf(a, a.PrefixEnd(blocks.ScopeTask), tok)
	texts := make([]string, len(rbs))
	for i, f := range rbs {
		texts[i] = f.Text
		ts.Fixtures = append(ts.Fixtures, FixtureStats{Fixture: f.Fixture, Artifact: f.Path, Bytes: len(f.Text),
			Tokens: tok.Count(f.Text), GlobalPrefix: f.PrefixEnd(blocks.ScopeGlobal), TaskPrefix: f.PrefixEnd(blocks.ScopeTask)})
	}
	ts.FixturePrefix = FixturePrefix{Prefix: prefixOf(a, sharedLen(texts), tok), Fixtures: len(rbs)}
	return ts
}

// prefixOf describes a's first n bytes.
func prefixOf(a *assemble.Artifact, n int, tok *tokens.Counter) Prefix {
	p := Prefix{Bytes: n, Tokens: tok.Count(a.Text[:n])}
	at := blocks.TextPos(a.Text, n)
	p.Line, p.Col = at.Line, at.Column
	if sp, ok := a.SpanAt(n); ok {
		p.Block = sp.Block.ID
	}
	return p
}

// sharedLen is the length of the longest common prefix of texts, cut back to a whole character.
func sharedLen(texts []string) int {
	if len(texts) == 0 {
		return 0
	}
	n := len(texts[0])
	for _, t := range texts[1:] {
		n = commonPrefix(texts[0][:n], t)
	}
	for n > 0 && n < len(texts[0]) && !utf8.RuneStart(texts[0][n]) {
		n--
	}
	return n
}

// sharedPrefix compares one runbook per task: the sample's where a fixture was asked for; else of the first fixture
// rendering every task, else of each task's sample (Project.SampleFixture). The common prefix is cut back to the
// shortest global prefix of the runbooks compared: a task or session block whose text coincides in every runbook
// compared (a session value that happens to be the same in one fixture) would not coincide in the next session, so
// it is no shared prefix.
func sharedPrefix(p *blocks.Project, runbooks map[string][]*assemble.Artifact, tok *tokens.Counter, fixture string) SharedPrefix {
	sp := SharedPrefix{Artifacts: []string{}, Ends: []TaskBlock{}}
	var rendered []string
	for _, task := range p.Tasks {
		if sampleOf(p, task, runbooks[task], fixture) != nil {
			rendered = append(rendered, task)
		}
	}
	if len(rendered) == 0 {
		return sp
	}
	common := fixture
	for _, a := range runbooks[rendered[0]] {
		if common != "" {
			break
		}
		f, everywhere := a.Fixture, true
		for _, task := range rendered[1:] {
			everywhere = everywhere && findFixture(runbooks[task], f) != nil
		}
		if everywhere {
			common = f
			break
		}
	}
	picked := make([]*assemble.Artifact, len(rendered))
	texts := make([]string, len(rendered))
	for i, task := range rendered {
		picked[i] = sampleOf(p, task, runbooks[task], "")
		if a := findFixture(runbooks[task], common); common != "" && a != nil {
			picked[i] = a
		}
		texts[i] = picked[i].Text
		sp.Artifacts = append(sp.Artifacts, picked[i].Path)
	}
	n := sharedLen(texts)
	sp.Agreed = n
	for _, a := range picked {
		n = min(n, a.PrefixEnd(blocks.ScopeGlobal))
	}
	sp.Bytes, sp.Tokens = n, tok.Count(texts[0][:n])
	at := blocks.TextPos(texts[0], n)
	sp.Line, sp.Col = at.Line, at.Column
	for i, a := range picked {
		tb := TaskBlock{Task: rendered[i]}
		if s, ok := a.SpanAt(n); ok {
			tb.Block = s.Block.ID
		}
		sp.Ends = append(sp.Ends, tb)
	}
	return sp
}

func findFixture(arts []*assemble.Artifact, fixture string) *assemble.Artifact {
	for _, a := range arts {
		if a.Fixture == fixture {
			return a
		}
	}
	return nil
}

// WriteJSON writes the report as indented JSON (docs/stats.md).
func (r *StatsReport) WriteJSON(w io.Writer) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// WriteText writes the report as aligned tables, one section per task, then the prefix shared by all tasks.
func (r *StatsReport) WriteText(w io.Writer) error {
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
			which = fmt.Sprintf("as asked, of %s rendering it", Count(len(ts.Fixtures), "fixture"))
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
				note = "in " + Count(ts.TurnMessages, "turn message")
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
		prefixRow("common to "+Count(ts.FixturePrefix.Fixtures, "fixture"), ts.FixturePrefix.Prefix)
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
func (r *StatsReport) Write(w io.Writer, f report.Format) error {
	switch f {
	case report.Text:
		return r.WriteText(w)
	case report.JSON:
		return r.WriteJSON(w)
	}
	return fmt.Errorf("a stats report is written as text or json, not %s", f)
}
