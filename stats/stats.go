package stats

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/prefix"
	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/tokens"
)

// Report is the size of a project's prompts: per task, per block and per scope, and the prefixes that runbooks
// share, which is what a provider's prompt cache can reuse. Its JSON form is stable (docs/stats.md).
type Report struct {
	// Encoding names the vocabulary tokens were counted with. Token counts are estimates (see tokens.Counter).
	Encoding string `json:"encoding"`
	// Sample is the fixture asked for (MeasureFixture), "" when each task's first fixture by name is measured.
	Sample string `json:"sample"`
	Tasks  []Task `json:"tasks"`
	// Shared is the prefix that every task's runbook shares by construction, what one cache entry can serve to all:
	// their common prefix, cut back to the shortest global prefix among them.
	Shared SharedPrefix `json:"shared_prefix"`
}

// Task measures one task. Blocks, Scopes and the prefixes measure the runbook of one fixture, the sample: the
// one asked for, else the first (by name) that renders the task; Fixtures gives every fixture's totals.
type Task struct {
	Task string `json:"task"`
	// Fixture and Artifact name the runbook measured; both are empty when no fixture renders the task, or when the
	// fixture asked for does not (then every number is 0 and every list empty).
	Fixture  string `json:"fixture"`
	Artifact string `json:"artifact"`
	Bytes    int    `json:"bytes"`
	Tokens   int    `json:"tokens"`
	// Blocks lists the rendered blocks in runbook order. A block's bytes are its span in the source map: the
	// separator before it and, for the last block, the final newline, so the bytes add up to the runbook's.
	Blocks []BlockSize `json:"blocks"`
	// Scopes totals the blocks by scope: global, task and session from the runbook; turn from the fixture's turn
	// messages, all of them together.
	Scopes       []ScopeTotal `json:"scopes"`
	TurnMessages int          `json:"turn_messages"`
	// GlobalPrefix ends where the first non-global block starts, TaskPrefix where the first session block starts
	// (Artifact.PrefixEnd): the parts shared by every task, and by every session of this task, when the order keeps
	// stable blocks first.
	GlobalPrefix Prefix `json:"global_prefix"`
	TaskPrefix   Prefix `json:"task_prefix"`
	// FixturePrefix is the longest prefix common to the task's runbooks over every fixture that renders it: what
	// the sessions sampled by the fixtures really share.
	FixturePrefix FixturePrefix `json:"fixture_prefix"`
	Fixtures      []Runbook     `json:"fixtures"`
}

// BlockSize is one rendered block of a runbook.
type BlockSize struct {
	Block  string       `json:"block"`
	Scope  blocks.Scope `json:"scope"`
	Source string       `json:"source"` // the block's position, path:line:col
	Bytes  int          `json:"bytes"`
	Tokens int          `json:"tokens"`
}

// ScopeTotal totals the blocks of one scope.
type ScopeTotal struct {
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

// Runbook is one fixture's runbook for a task.
type Runbook struct {
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

// Measure measures the artifacts a program built (as Program.Build returns them), counting tokens with tok (nil: an
// o200k_base counter), sampling each task's first fixture by name. Tasks are in manifest order. A prefix common to
// several runbooks is cut back to a whole character, so that its line, column and tokens are those of valid text.
func Measure(prog *assemble.Program, arts []*assemble.Artifact, tok *tokens.Counter) *Report {
	r, _ := MeasureFixture(prog, arts, tok, "")
	return r
}

// MeasureFixture is Measure sampling the runbooks of the named fixture ("" for each task's first fixture by name). A
// task the fixture does not render is reported without numbers and left out of the shared prefix. It fails only
// when the project has no fixture of that name.
func MeasureFixture(prog *assemble.Program, arts []*assemble.Artifact, tok *tokens.Counter, fixture string) (*Report, error) {
	if err := CheckSample(prog.Project, fixture); err != nil {
		return nil, err
	}
	if tok == nil {
		tok = tokens.New(tokens.O200k)
	}
	r := &Report{Encoding: tok.Encoding().String(), Sample: fixture, Tasks: []Task{}}
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

// CheckSample returns an error when fixture, the sample asked for (promptc stats --fixture, lint --fixture), is not
// "" and names no fixture of p; the message suggests the closest name. MeasureFixture and lint.RunFixture refuse such a
// fixture with it.
func CheckSample(p *blocks.Project, fixture string) error {
	if fixture == "" || p.Fixture(fixture) != nil {
		return nil
	}
	names := make([]string, len(p.Fixtures))
	for i, f := range p.Fixtures {
		names[i] = f.Name
	}
	return fmt.Errorf("no fixture %q%s", fixture, suggest.DidYouMean(fixture, names))
}

// Sample returns the runbook of rbs (task's, one per fixture rendering it) that stats and the lints that measure
// one runbook per task (short-prefix) measure: the named fixture's, else that of p.SampleFixture(task), the first by
// name (docs/reference.md#default-and-sample-fixtures); nil when there is none.
func Sample(p *blocks.Project, task string, rbs []*assemble.Artifact, fixture string) *assemble.Artifact {
	if fixture == "" {
		f := p.SampleFixture(task)
		if f == nil {
			return nil
		}
		fixture = f.Name
	}
	return findFixture(rbs, fixture)
}

func taskStats(p *blocks.Project, task string, rbs []*assemble.Artifact, turns map[string][]*assemble.Artifact, tok *tokens.Counter, fixture string) Task {
	ts := Task{Task: task, Blocks: []BlockSize{}, Scopes: []ScopeTotal{}, Fixtures: []Runbook{}}
	a := Sample(p, task, rbs, fixture)
	if a == nil {
		return ts
	}
	ts.Fixture, ts.Artifact = a.Fixture, a.Path
	ts.Bytes, ts.Tokens = len(a.Text), tok.Count(a.Text)
	byScope := map[blocks.Scope]*ScopeTotal{}
	for scope := blocks.ScopeGlobal; scope <= blocks.ScopeTurn; scope++ {
		ts.Scopes = append(ts.Scopes, ScopeTotal{Scope: scope})
	}
	for i := range ts.Scopes {
		byScope[ts.Scopes[i].Scope] = &ts.Scopes[i]
	}
	for _, sp := range a.Spans {
		n := tok.Count(a.Text[sp.Start:sp.End])
		ts.Blocks = append(ts.Blocks, BlockSize{Block: sp.Block.ID, Scope: sp.Scope, Source: sp.Block.Range.String(),
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
		ts.Fixtures = append(ts.Fixtures, Runbook{Fixture: f.Fixture, Artifact: f.Path, Bytes: len(f.Text),
			Tokens: tok.Count(f.Text), GlobalPrefix: f.PrefixEnd(blocks.ScopeGlobal), TaskPrefix: f.PrefixEnd(blocks.ScopeTask)})
	}
	ts.FixturePrefix = FixturePrefix{Prefix: prefixOf(a, sharedLen(texts), tok), Fixtures: len(rbs)}
	return ts
}

// prefixOf describes a's first n bytes.
func prefixOf(a *assemble.Artifact, n int, tok *tokens.Counter) Prefix {
	p := Prefix{Bytes: n, Tokens: tok.Count(a.Text[:n])}
	at := source.TextPos(a.Text, n)
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
		n = prefix.Common(texts[0][:n], t)
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
		if Sample(p, task, runbooks[task], fixture) != nil {
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
		picked[i] = Sample(p, task, runbooks[task], "")
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
	at := source.TextPos(texts[0], n)
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
