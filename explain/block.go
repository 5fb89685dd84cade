package explain

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
)

// Reason is one fact behind an answer, with where it is written in the project's sources.
type Reason struct {
	// Kind names the rule: "order", "gate", "except", "when", "replaces", "replaced", "empty" and "section" for
	// whether a block renders; "turn", "session", "task", "tools", "gate", "replaces", "replaced" and "global" for
	// its scope.
	Kind string
	Text string
	// At is where the fact is written (a key, a list item, the use of a variable in a body); it names no file
	// when there is no one place to point at.
	At source.Range
}

// Placement is where a block sits in one artifact.
type Placement struct {
	Artifact string // the artifact's path, "chat/basic.runbook.md"
	// Start and End are the block's bytes [Start, End), the separator before it included; TextStart is where its
	// own text (heading or body) starts.
	Start, End, TextStart int
	// FirstLine and LastLine are the lines (from 1) of its own text.
	FirstLine, LastLine int
	// Segment is the part of the artifact the block's text belongs to (Artifact.Segments): ScopeGlobal, ScopeTask
	// or ScopeSession in a runbook; ScopeTurn in a turn message. SegmentStart and SegmentEnd are its bytes.
	Segment                  blocks.Scope
	SegmentStart, SegmentEnd int
}

// BlockReport is what Block finds about one block in one task.
type BlockReport struct {
	Block *blocks.Block
	Task  string
	// Fixture is the fixture the placement and when conditions were decided with ("" when no fixture renders
	// the task); FixtureGuessed is set when the task has several and Block took the first by name.
	Fixture        string
	FixtureGuessed bool
	// Renders says whether the block's text is in at least one of the task's artifacts rendered with Fixture.
	Renders bool
	// Why lists the rules that decide whether the block renders, in the order rendering applies them.
	Why   []Reason
	Scope blocks.Scope
	// ScopeWhy lists what makes the block's scope what it is.
	ScopeWhy   []Reason
	Placements []Placement
	// Budget lists the turn messages (rendered with Fixture) whose turn budget cut something, for a turn block.
	Budget []BudgetNote
}

// Block explains whether block id renders in task and why, its scope and why, and where it sits in the task's
// artifacts (the runbook, or each turn message for a turn block) rendered with fixture f, or with DefaultFixture
// when f is nil. task must be a task of the project: promptc.Pipeline.Task checks a name, once, for every command.
// An unknown block is an error with a suggestion; so is a fixture that does not render the task, and a rendering
// that fails.
func Block(prog *assemble.Program, task, id string, f *blocks.Fixture) (*BlockReport, error) {
	p := prog.Project
	b, ok := p.ByID[id]
	if !ok {
		ids := make([]string, len(p.Blocks))
		for i, b := range p.Blocks {
			ids[i] = b.ID
		}
		return nil, fmt.Errorf("unknown block %q%s", id, suggest.DidYouMean(id, ids))
	}
	scope, ok := prog.Scope(id)
	if !ok {
		return nil, fmt.Errorf("block %q did not compile", id)
	}
	r := &BlockReport{Block: b, Task: task, Scope: scope}
	if f == nil {
		var sure bool
		f, sure = DefaultFixture(p, task)
		r.FixtureGuessed = f != nil && !sure
	} else if !f.AdmitsTask(task) {
		return nil, &blocks.FixtureError{Problem: blocks.FixtureExcludesTask, Task: task, Name: f.Name}
	}
	arts, err := render(prog, task, f, b.Section)
	if err != nil {
		return nil, err
	}
	if f != nil {
		r.Fixture = f.Name
	}
	for _, a := range arts {
		if pl, ok := place(a, b); ok {
			r.Placements = append(r.Placements, pl)
		}
	}
	r.Renders = len(r.Placements) > 0
	r.Why = why(prog, b, task, f, r.Renders)
	r.Budget = budgetNotes(arts)
	if text := budgetReason(r.Budget, b.ID); text != "" {
		if budgetOmitted(r.Budget, b.ID) {
			// Not empty: the budget left it out (its body rendered, then was cut).
			r.Why = slices.DeleteFunc(r.Why, func(x Reason) bool { return x.Kind == "empty" })
		}
		r.Why = append(r.Why, Reason{Kind: "budget", Text: text, At: prog.Project.Turn.Table.Value("max_tokens")})
	}
	r.ScopeWhy = scopeWhy(prog, b.ID)
	return r, nil
}

// render renders task's artifacts of the given section with fixture f: the runbook, or every turn message.
func render(prog *assemble.Program, task string, f *blocks.Fixture, section blocks.Kind) ([]*assemble.Artifact, error) {
	if f == nil {
		return nil, nil
	}
	turns := []int{0}
	if section == blocks.Turn {
		turns = turns[:0]
		for k := range f.Turns {
			turns = append(turns, k+1)
		}
	}
	var out []*assemble.Artifact
	for _, k := range turns {
		a, err := prog.Render(assemble.RenderRequest{Task: task, Fixture: f, Turn: k})
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// place finds block b in artifact a.
func place(a *assemble.Artifact, b *blocks.Block) (Placement, bool) {
	for _, s := range a.Spans {
		if s.Block != b {
			continue
		}
		end := s.End
		if end > s.TextStart && a.Text[end-1] == '\n' {
			end-- // the final newline ends the last line; it starts none
		}
		pl := Placement{Artifact: a.Path, Start: s.Start, End: s.End, TextStart: s.TextStart,
			FirstLine: lineOf(a.Text, s.TextStart), LastLine: lineOf(a.Text, max(s.TextStart, end-1))}
		pl.Segment, pl.SegmentStart, pl.SegmentEnd = segmentOf(a, s.TextStart)
		return pl, true
	}
	return Placement{}, false
}

// segmentOf returns the segment holding byte off of a: for a turn message, the whole message.
func segmentOf(a *assemble.Artifact, off int) (blocks.Scope, int, int) {
	if a.Kind == blocks.Turn {
		return blocks.ScopeTurn, 0, len(a.Text)
	}
	for _, g := range a.Segments() {
		if off >= g.Start && off < g.End {
			return g.Scope, g.Start, g.End
		}
	}
	return blocks.ScopeSession, 0, len(a.Text)
}

// lineOf returns the line (from 1) holding byte off of text.
func lineOf(text string, off int) int {
	return strings.Count(text[:min(off, len(text))], "\n") + 1
}

// why lists the rules that decide whether b renders in task, in the order rendering applies them.
func why(prog *assemble.Program, b *blocks.Block, task string, f *blocks.Fixture, renders bool) []Reason {
	p := prog.Project
	var out []Reason
	sec := &p.Runbook
	if b.Section == blocks.Turn {
		sec = &p.Turn
	}
	switch {
	case b.Section == blocks.Unplaced:
		return append(out, Reason{"section", "it is in neither runbook.order nor turn.order, and replaces no block", b.Range})
	case b.Replaces != "":
		out = append(out, Reason{"replaces", fmt.Sprintf("it replaces %q, taking its place in %s.order where its gate admits the task (reason: %s)", b.Replaces, sec.Kind, b.Reason), b.Table.Key("replaces")})
	default:
		i := slices.Index(sec.Order, b.ID)
		out = append(out, Reason{"order", fmt.Sprintf("it is entry %d of %s.order", i+1, sec.Kind), sec.EntryRange(i)})
	}

	// The static gate.
	if i := slices.Index(b.Except, task); i >= 0 {
		out = append(out, Reason{"except", fmt.Sprintf("except lists %q: the block never renders in this task", task), b.Table.Item("except", i)})
		return out
	}
	if !b.AdmitsTask(task) {
		out = append(out, Reason{"gate", fmt.Sprintf("tasks = %s does not list %q: the block never renders in this task", list(b.Tasks), task), b.Table.Value("tasks")})
		return out
	}
	if i := slices.Index(b.Tasks, task); i >= 0 {
		out = append(out, Reason{"gate", fmt.Sprintf("tasks lists %q", task), b.Table.Item("tasks", i)})
	} else if !written(b.Table, "tasks") {
		out = append(out, Reason{"gate", "tasks is not set, so it admits every task" + exceptNote(b), b.Range})
	} else {
		out = append(out, Reason{"gate", "tasks admits every task (\"*\")" + exceptNote(b), b.Table.Value("tasks")})
	}

	// when, decided with the fixture's values.
	holds := whenHolds(prog, f)
	if b.When != "" {
		out = append(out, whenReason(prog, holds, b, f))
	}

	// The slot: is another block picked in its place?
	for _, s := range prog.Slots(b.Section) {
		if s.Base.ID != b.Slot {
			continue
		}
		for _, rep := range s.Replacers {
			if rep == b || !rep.AdmitsTask(task) {
				continue
			}
			text := fmt.Sprintf("block %q replaces it in this task (reason: %s)", rep.ID, rep.Reason)
			if rep.When != "" {
				text = fmt.Sprintf("block %q replaces it in this task when %q holds (reason: %s)", rep.ID, rep.When, rep.Reason)
				if f != nil {
					text += "; " + holdsText(p, holds, rep, f)
				}
			}
			out = append(out, Reason{"replaced", text, rep.Range})
		}
	}
	if !renders && f != nil && b.Section != blocks.Unplaced {
		if picked := pickedSomewhere(prog, b, task, f, holds); picked {
			out = append(out, Reason{"empty", fmt.Sprintf("its body renders empty with fixture %q, so it is left out", f.Name), b.BodyRange})
		}
	}
	return out
}

// exceptNote mentions an except list that leaves out other tasks.
func exceptNote(b *blocks.Block) string {
	if len(b.Except) == 0 {
		return ""
	}
	return " but those in except = " + list(b.Except)
}

// whenHolds decides when conditions with f's values: per turn k (0 for the session).
func whenHolds(prog *assemble.Program, f *blocks.Fixture) func(b *blocks.Block, k int) bool {
	cache := map[int]values{}
	return func(b *blocks.Block, k int) bool {
		if b.When == "" {
			return true
		}
		vals, ok := cache[k]
		if !ok {
			vals = prepare(prog, f, k)
			cache[k] = vals
		}
		return b.WhenHolds(func(name string) bool { return assemble.Truthy(vals[name]) })
	}
}

// holdsText says in which turns (or whether, for a session variable) b's when condition holds with fixture f.
func holdsText(p *blocks.Project, holds func(*blocks.Block, int) bool, b *blocks.Block, f *blocks.Fixture) string {
	perTurn := false
	for _, name := range b.Cond.Names() {
		if v := p.Vars[name]; v != nil && v.Scope == blocks.ScopeTurn {
			perTurn = true
		}
	}
	if !perTurn {
		if holds(b, 0) {
			return fmt.Sprintf("it holds in fixture %q", f.Name)
		}
		return fmt.Sprintf("it does not hold in fixture %q", f.Name)
	}
	var yes, no []string
	for k := 1; k <= len(f.Turns); k++ {
		if holds(b, k) {
			yes = append(yes, strconv.Itoa(k))
		} else {
			no = append(no, strconv.Itoa(k))
		}
	}
	switch {
	case len(f.Turns) == 0:
		return fmt.Sprintf("fixture %q has no turns", f.Name)
	case len(no) == 0:
		return fmt.Sprintf("it holds in every turn of fixture %q", f.Name)
	case len(yes) == 0:
		return fmt.Sprintf("it holds in no turn of fixture %q", f.Name)
	}
	return fmt.Sprintf("it holds in %s %s of fixture %q, not in %s", plural.Noun(len(yes), "turn", "turns"), strings.Join(yes, ", "), f.Name, strings.Join(no, ", "))
}

// whenReason explains b's when condition, decided with fixture f's values when there is one.
func whenReason(prog *assemble.Program, holds func(*blocks.Block, int) bool, b *blocks.Block, f *blocks.Fixture) Reason {
	what := func(name string) string {
		if v := prog.Project.Vars[name]; v != nil {
			return fmt.Sprintf("%s variable %q", v.Scope, name)
		}
		return fmt.Sprintf("variable %q", name)
	}
	var text string
	if name, neg, single := b.Cond.Negated(); single {
		cond := "is truthy"
		if neg {
			cond = "is not truthy"
		}
		text = fmt.Sprintf("when = %q: it renders only when %s %s", b.When, what(name), cond)
	} else {
		var vars []string
		for _, name := range b.Cond.Names() {
			vars = append(vars, what(name))
		}
		list := vars[0]
		if n := len(vars); n > 1 {
			list = strings.Join(vars[:n-1], ", ") + " and " + vars[n-1]
		}
		text = fmt.Sprintf("when = %q: it renders only when the condition over %s holds", b.When, list)
	}
	if f != nil {
		text += "; " + holdsText(prog.Project, holds, b, f)
	} else {
		text += " (no fixture renders the task to decide it)"
	}
	return Reason{"when", text, b.WhenRange}
}

// pickedSomewhere reports whether b fills its slot in one of the task's artifacts rendered with f: then, if it is
// missing from all of them, its body rendered empty.
func pickedSomewhere(prog *assemble.Program, b *blocks.Block, task string, f *blocks.Fixture, holds func(*blocks.Block, int) bool) bool {
	ks := []int{0}
	if b.Section == blocks.Turn {
		ks = ks[:0]
		for k := range f.Turns {
			ks = append(ks, k+1)
		}
	}
	for _, s := range prog.Slots(b.Section) {
		if s.Base.ID != b.Slot {
			continue
		}
		for _, k := range ks {
			if s.Pick(task, func(x *blocks.Block) bool { return holds(x, k) }) == b {
				return true
			}
		}
	}
	return false
}

// list writes a gate list as TOML does: ["a", "b"].
func list(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// written reports whether key is written in table t.
func written(t *blocks.Table, key string) bool {
	if t == nil {
		return false
	}
	_, ok := t.Keys[key]
	return ok
}
