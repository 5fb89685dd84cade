package preview

import (
	"bytes"
	"sort"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/golden"
	"github.com/promptc/promptc/guard"
)

// Artifact statuses against the base revision (Entry.Status, Comparison.Status).
const (
	StatusSame    = "same"
	StatusChanged = "changed"
	StatusAdded   = "added"
	StatusRemoved = "removed"
)

// comparison is the working tree against the base revision: promptc diff's result, and the revision's artifacts.
type comparison struct {
	rev     string
	result  *guard.Result
	old     map[string]*assemble.Artifact
	changes map[string]*guard.Change
	// removed are the paths the revision builds and the working tree does not, sorted.
	removed []string
}

// compare runs promptc diff's comparison of page s (which compiled) with revision rev, on the artifacts s holds.
func compare(s *Page, rev string) (*comparison, error) {
	res, err := guard.DiffArtifacts(s.Root, rev, s.Arts, guard.Options{Counter: s.counter})
	if err != nil {
		return nil, err
	}
	c := &comparison{rev: rev, result: res, old: map[string]*assemble.Artifact{}, changes: map[string]*guard.Change{}}
	for _, a := range res.Report.Old.Arts {
		c.old[a.Path] = a
		if s.byPath[a.Path] == nil {
			c.removed = append(c.removed, a.Path)
		}
	}
	sort.Strings(c.removed)
	for _, ch := range res.Report.Changes {
		c.changes[ch.Path] = ch
	}
	return c, nil
}

// status is the artifact at path against the revision.
func (c *comparison) status(path string) string {
	ch, ok := c.changes[path]
	switch {
	case !ok:
		return StatusSame
	case ch.Status == golden.Added:
		return StatusAdded
	case ch.Status == golden.Removed:
		return StatusRemoved
	}
	return StatusChanged
}

// Comparison is how one artifact differs from the base revision (View.Base, with Options.Base).
type Comparison struct {
	// Rev is the base revision, as given.
	Rev string `json:"rev"`
	// Status is "same", "changed", "added" (the revision does not build it) or "removed" (only the revision does).
	Status string `json:"status"`
	// Old is the artifact at the revision: its text, blocks, segments and the provider's cache breakpoints, as a
	// View of it (nil for an added artifact).
	Old *View `json:"old,omitempty"`
	// Lines are the lines of promptc diff's line diff, every line of both texts in order.
	Lines []DiffLine `json:"lines"`
	// OldMarks and NewMarks are the changed bytes, [start, end) of the old text and of the new: within a group of
	// lines replaced by others, the bytes a character diff finds removed and inserted; a line removed or added with
	// no line replacing it is marked whole.
	OldMarks [][2]int `json:"old_marks"`
	NewMarks [][2]int `json:"new_marks"`
	// Change is the artifact's change as promptc diff --format json reports it (docs/guard.md): the first
	// differing byte, the block, scope and source that own it, and the cached tokens it invalidates. Nil when
	// the artifact is the same.
	Change *guard.Change `json:"change,omitempty"`
}

// DiffLine is one line of a Comparison: Op is " " (in both), "-" (only the old text) or "+" (only the new); Old and
// New are its bytes [start, end) in each text, its newline included ([n, n] on the side that lacks it).
type DiffLine struct {
	Op  string `json:"op"`
	Old [2]int `json:"old"`
	New [2]int `json:"new"`
}

// comparisonOf is the comparison of the artifact at path, its breakpoints placed for provider ("" for none).
func (s *Page) comparisonOf(path, provider string) (*Comparison, error) {
	c := s.base
	cv := &Comparison{Rev: c.rev, Status: c.status(path), Lines: []DiffLine{}, OldMarks: [][2]int{}, NewMarks: [][2]int{}}
	var oldText, newText string
	if a := s.byPath[path]; a != nil {
		newText = a.Text
	}
	if o := c.old[path]; o != nil {
		ov, err := s.view(o, provider)
		if err != nil {
			return nil, err
		}
		ov.Status = ""
		cv.Old, oldText = ov, o.Text
	}
	if ch := c.changes[path]; ch != nil {
		cv.Change = ch
	}
	cv.Lines, cv.OldMarks, cv.NewMarks = lineDiff(oldText, newText)
	return cv, nil
}

// markLimit bounds the bytes of a replaced group of lines that a character diff refines; a larger group (a
// rewritten file) is marked whole rather than diffed character by character.
const markLimit = 64 << 10

// lineDiff is guard's line diff of a and b with the changed bytes of each side: within a run of removed lines
// followed by added ones, a character diff (semantically cleaned up) marks what changed.
func lineDiff(a, b string) (lines []DiffLine, am, bm [][2]int) {
	am, bm = [][2]int{}, [][2]int{}
	gl := guard.LineDiff(a, b)
	lines = make([]DiffLine, 0, len(gl))
	for _, l := range gl {
		lines = append(lines, DiffLine{Op: string(rune(l.Op)), Old: [2]int{l.AStart, l.AEnd}, New: [2]int{l.BStart, l.BEnd}})
	}
	for i := 0; i < len(gl); {
		if gl[i].Op == ' ' {
			i++
			continue
		}
		j := i
		for j < len(gl) && gl[j].Op != ' ' {
			j++
		}
		// A run of changed lines: the removed ones tile a[a0:a1], the added ones b[b0:b1].
		a0, a1, b0, b1 := gl[i].AStart, gl[j-1].AEnd, gl[i].BStart, gl[j-1].BEnd
		am, bm = markRun(a, b, a0, a1, b0, b1, am, bm)
		i = j
	}
	return lines, am, bm
}

func markRun(a, b string, a0, a1, b0, b1 int, am, bm [][2]int) ([][2]int, [][2]int) {
	add := func(m [][2]int, s, e int) [][2]int {
		if s == e {
			return m
		}
		if n := len(m); n > 0 && m[n-1][1] == s {
			m[n-1][1] = e
			return m
		}
		return append(m, [2]int{s, e})
	}
	x, y := a[a0:a1], b[b0:b1]
	if x == "" || y == "" || len(x)+len(y) > markLimit {
		return add(am, a0, a1), add(bm, b0, b1)
	}
	// A diff of words, not characters: "Never" replaced by "Do not ever" is one change, not an N and a "Do not ".
	// Each distinct word stands for one rune, as go-diff's line mode does for lines.
	tx, ty := words(x), words(y)
	ids := map[string]rune{}
	runes := func(ws []string) []rune {
		rs := make([]rune, len(ws))
		for i, w := range ws {
			r, ok := ids[w]
			if !ok {
				r = rune(len(ids) + 1)
				ids[w] = r
			}
			rs[i] = r
		}
		return rs
	}
	rx, ry := runes(tx), runes(ty)
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = guard.DiffTimeout
	diffs := dmp.DiffCleanupSemantic(dmp.DiffMainRunes(rx, ry, false))
	ai, bi, wx, wy := a0, b0, 0, 0
	span := func(ws []string, from, n int) int {
		size := 0
		for _, w := range ws[from : from+n] {
			size += len(w)
		}
		return size
	}
	for _, d := range diffs {
		n := len([]rune(d.Text))
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			ai += span(tx, wx, n)
			bi += span(ty, wy, n)
			wx += n
			wy += n
		case diffmatchpatch.DiffDelete:
			size := span(tx, wx, n)
			am = add(am, ai, ai+size)
			ai += size
			wx += n
		case diffmatchpatch.DiffInsert:
			size := span(ty, wy, n)
			bm = add(bm, bi, bi+size)
			bi += size
			wy += n
		}
	}
	return am, bm
}

// words splits s into the units changes are marked in: runs of letters, digits and underscores (any byte past ASCII
// counts as a letter, so a word of any script, or a byte that is not UTF-8, stays whole), runs of spaces and tabs,
// and every other byte alone.
func words(s string) []string {
	class := func(c byte) int {
		switch {
		case c >= 0x80 || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			return 1
		case c == ' ' || c == '\t':
			return 2
		}
		return 0
	}
	var out []string
	for i := 0; i < len(s); {
		j := i + 1
		if k := class(s[i]); k != 0 {
			for j < len(s) && class(s[j]) == k {
				j++
			}
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// Base is the page's account of the change since the base revision (/api/base): promptc diff's summary and, per
// task, the cached prefix before and after.
type Base struct {
	Rev string `json:"rev"`
	// Title is promptc diff's title line: "promptc diff REV: 3 artifacts changed".
	Title string `json:"title"`
	// Note says why the revision was compared as empty (it has no project here, or its project does not compile),
	// as promptc diff prints it on stderr; "" when it compiled.
	Note     string        `json:"note,omitempty"`
	Encoding string        `json:"encoding"`
	Summary  guard.Summary `json:"summary"`
	// Changed counts the artifacts by status: "changed", "added", "removed".
	Changed map[string]int `json:"changed"`
	// Tasks are the task's cached prefix before and after, one per task of the working tree in manifest order.
	Tasks []TaskPrefix `json:"tasks"`
}

// Prefixes are a runbook's size and where its prefixes end, in tokens.
type Prefixes struct {
	Tokens       int `json:"tokens"`
	GlobalPrefix int `json:"global_prefix"`
	TaskPrefix   int `json:"task_prefix"`
}

// TaskPrefix is one task's cached prefix at the revision and in the working tree: its first fixture's runbook (by
// name, as promptc stats takes it) on each side. The runbook is the part of a request a provider caches; a change
// keeps the tokens before its first differing byte cached and loses the rest.
type TaskPrefix struct {
	Task     string `json:"task"`
	Artifact string `json:"artifact"`
	Status   string `json:"status"`
	// Before and After are the runbook at the revision and in the working tree (Before nil when the revision has
	// no runbook there).
	Before *Prefixes `json:"before,omitempty"`
	After  *Prefixes `json:"after"`
	// Kept is the tokens of the old runbook before the first differing byte; Lost the cached tokens the change
	// invalidates, as promptc diff counts them (Change.InvalidatedTokens); TaskLost those of every runbook of the
	// task summed.
	Kept     int `json:"kept"`
	Lost     int `json:"lost"`
	TaskLost int `json:"task_lost"`
	// Block and Scope own the first differing byte (promptc diff's attribution), "" when the runbook is the same.
	Block string `json:"block,omitempty"`
	Scope string `json:"scope,omitempty"`
}

// Base returns the account of the change since the base revision, nil without one (Options.Base) or when the
// project does not compile.
func (s *Page) Base() *Base {
	c := s.base
	if c == nil {
		return nil
	}
	res := c.result
	b := &Base{Rev: c.rev, Title: res.Title(), Encoding: res.Report.Encoding, Summary: res.Report.Summarize(),
		Changed: map[string]int{StatusChanged: 0, StatusAdded: 0, StatusRemoved: 0}, Tasks: []TaskPrefix{}}
	if b.Summary.Lines == nil {
		b.Summary.Lines = []string{}
	}
	var note bytes.Buffer
	_ = res.WriteNote(&note)
	b.Note = note.String()
	for _, ch := range res.Report.Changes {
		b.Changed[c.status(ch.Path)]++
	}
	lost := map[string]int{}
	for _, ch := range res.Report.Changes {
		lost[ch.Task] += ch.InvalidatedTokens
	}
	prefixes := func(a *assemble.Artifact) *Prefixes {
		return &Prefixes{Tokens: s.counter.Count(a.Text), GlobalPrefix: s.counter.Count(a.Text[:a.PrefixEnd(blocks.ScopeGlobal)]),
			TaskPrefix: s.counter.Count(a.Text[:a.PrefixEnd(blocks.ScopeTask)])}
	}
	for _, task := range s.Prog.Project.Tasks {
		a := s.firstRunbook(task)
		if a == nil {
			continue
		}
		tp := TaskPrefix{Task: task, Artifact: a.Path, Status: c.status(a.Path), After: prefixes(a), TaskLost: lost[task]}
		if o := c.old[a.Path]; o != nil {
			tp.Before = prefixes(o)
			tp.Kept = tp.Before.Tokens
		}
		if ch := c.changes[a.Path]; ch != nil {
			tp.Lost = ch.InvalidatedTokens
			if o := c.old[a.Path]; o != nil {
				tp.Kept = s.counter.Count(o.Text[:ch.Offset])
			}
			if ch.Block != "" || ch.After != "" {
				tp.Block, tp.Scope = ch.Block, ch.Scope.String()
			}
		}
		b.Tasks = append(b.Tasks, tp)
	}
	return b
}

// firstRunbook is task's runbook for its first fixture by name, nil when it has none.
func (s *Page) firstRunbook(task string) *assemble.Artifact {
	var first *assemble.Artifact
	for _, a := range s.Arts {
		if a.Task == task && a.Kind == blocks.Runbook && (first == nil || a.Fixture < first.Fixture) {
			first = a
		}
	}
	return first
}
