package blocks

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
)

// DefaultSeparator joins the rendered blocks of a runbook or turn message unless the manifest says otherwise.
const DefaultSeparator = "\n\n"

// Project is a loaded and checked prompt project. Every slice is in a deterministic order: tasks, order lists and
// model rows as written in the manifest, blocks and tools by file path then position, fixtures by name, variables
// and constants by name.
//
// Every part of the project carries the ranges the loader found it at (each key, value and list item), so that
// diagnostics, lints and editor integrations point at source text without searching for it.
type Project struct {
	Name    string
	Tasks   []string
	Runbook Section
	Turn    Section
	Vars    map[string]*Var
	Consts  map[string]*Const
	Blocks  []*Block
	ByID    map[string]*Block
	Targets []*Target
	// Tools are the [[tool]] tables of blocks/ files, in definition order (by file path, then position); ToolsFor
	// gives a task's tools in the order requests list them.
	Tools []*Tool
	// Volatile lists the field names removed from tool results when a conversation history is serialized
	// canonically ([history] volatile); nil when not set.
	Volatile []string
	// Models are the [[model]] rows of promptc.toml, in the order written: provider model data that overrides or
	// adds to promptc's own table.
	Models []*ModelRow
	// Traffic is promptc.toml's [traffic]: each task's requests a day and model, sorted by task, that change
	// reports are priced at (docs/reference.md#traffic).
	Traffic []*Traffic
	// Allow lists the lint findings the project silences deliberately, each with its reason ([[lint.allow]]).
	Allow []*Allow
	// Templates holds the files under templates/, by slash path relative to that directory, normalised (docs/reference.md#a-project).
	Templates map[string]string
	Fixtures  []*Fixture
	// Files holds every source file read, by slash path relative to the project root, with its normalised text.
	Files map[string]*source.File
	// Manifest is where the keys of promptc.toml's root table are written (nil when it could not be parsed).
	Manifest *Table
	// Incomplete is set when a blocks/ file could not be read or parsed: the blocks and constants it defines are
	// missing, so later stages do not report uses of them as unknown.
	Incomplete bool

	taskRanges []source.Range // where each of Tasks is written
}

// TaskRange returns where the manifest's tasks list names task, or the manifest's start when it cannot say.
func (p *Project) TaskRange(task string) source.Range {
	if i := slices.Index(p.Tasks, task); i >= 0 && i < len(p.taskRanges) {
		return p.taskRanges[i]
	}
	return source.FileRange(ManifestFile)
}

// Table is where one TOML table is written: its header ([name] or [[name]]; the start of the file for the root
// table) and each of its keys.
type Table struct {
	Header source.Range
	Keys   map[string]Entry
	// ValueKeys is set for a fixture's [session] table and each of its [[turn]] tables: every key naming a
	// declared variable or, at any depth, a declared field of a record or records value the table gives, wherever
	// TOML lets it be written (the table's own keys, the headers of its arrays of tables and sub-tables, dotted
	// keys, inline tables), in the order written. The keys of a field's value given as a JSON text (decode =
	// "json") are not TOML keys and are not in it.
	ValueKeys []ValueKey
}

// Key returns where key is written, or the table's header when it is not.
func (t *Table) Key(key string) source.Range {
	if t == nil {
		return source.Range{}
	}
	if e, ok := t.Keys[key]; ok {
		return e.Key
	}
	return t.Header
}

// Value returns where key's value is written, or the table's header when it is not.
func (t *Table) Value(key string) source.Range {
	if t == nil {
		return source.Range{}
	}
	if e, ok := t.Keys[key]; ok {
		return e.Value
	}
	return t.Header
}

// Item returns where item i of key's array value is written, or the key's value (else the header) when it is not.
func (t *Table) Item(key string, i int) source.Range {
	if t == nil {
		return source.Range{}
	}
	if e, ok := t.Keys[key]; ok {
		return e.Item(i)
	}
	return t.Header
}

// Section is the assembly order of the runbook or of the per-turn message.
type Section struct {
	Kind      Kind
	Order     []string
	Separator string
	// MaxTokens is the token budget of the turn message ([turn] max_tokens, o200k_base counts); 0 for none.
	MaxTokens int
	// OmitFinalNewline ends the artifact with its last block's last byte instead of the one "\n" that follows the
	// joined blocks (final_newline = false in this table, or at the top of promptc.toml; docs/reference.md#top-level).
	// The zero value keeps the newline.
	OmitFinalNewline bool
	// Table is where the [runbook] or [turn] table is written; nil when the manifest has none.
	Table *Table

	// finalSet is set when the table itself sets final_newline, which then wins over the manifest's.
	finalSet bool
}

// EntryRange returns where entry i of the order list is written.
func (s Section) EntryRange(i int) source.Range { return s.Table.Item("order", i) }

// Const is a shared text constant, or a lookup table: a constant whose value is a table of strings, read with the
// lookup function (docs/reference.md#blockstoml).
type Const struct {
	Name  string
	Value string
	// Lookup holds a lookup table's entries (nil for a text constant); LookupTable is where they are written.
	Lookup      map[string]string
	LookupTable *Table
	// List holds a list constant's items, in order: non-nil for a constant whose value is an array of strings,
	// walked with {{range const "name"}} (docs/reference.md, "[const]").
	List []string
	// Range is the whole `name = "value"` entry; ValueRange the value's content, quotes excluded.
	Range, ValueRange source.Range

	src *origin
}

// Block is one prompt block.
type Block struct {
	ID     string
	Title  string
	Level  int      // 1..6
	Tasks  []string // gate; ["*"] when not set
	Except []string
	// When is the when condition as written ("" when not set), Cond what it means: nil when when is not set or
	// does not parse (docs/reference.md#gates-and-when).
	When     string
	Cond     *Cond
	Body     string // the body source: from body, or the template file's text
	Template string // file under templates/, when the body comes from one
	Raw      bool
	Replaces string
	Reason   string
	// Priority orders the turn budget's cuts (docs/reference.md, "Turn budget"): when the turn message is over
	// [turn] max_tokens, blocks of lower priority shrink and are omitted first. 0 when not set.
	Priority int

	// Section says where the block renders: Runbook or Turn (for a replacing block, its target's section).
	Section Kind
	// Slot is the id of the order-list entry the block fills: its own id, or the id it replaces.
	Slot string
	// ReplacedBy lists the blocks that replace this one, in project order.
	ReplacedBy []*Block

	// Range is the block's id entry (its [[block]] header when id is missing): where diagnostics about the block
	// point.
	Range source.Range
	// BodyRange is where the body's text is written: the content of the TOML string, or the whole template file.
	BodyRange source.Range
	// WhenRange is the content of the when string.
	WhenRange source.Range
	whenSrc   *origin
	// Table is where the block's [[block]] table and its keys are written.
	Table *Table

	src *origin
}

// WhenSourceRange returns where the bytes [start, end) of the when string are written, exact through TOML escapes,
// as SourceRange does for the body.
func (b *Block) WhenSourceRange(start, end int) source.Range {
	return b.whenSrc.of(b.When).span(b.When, b.WhenRange, start, end)
}

// WhenHolds reports whether the block's when condition holds, given whether each variable is truthy: always when
// it has none.
func (b *Block) WhenHolds(truthy func(name string) bool) bool {
	return b.Cond == nil || b.Cond.Holds(truthy)
}

// Heading returns the block's heading line ("## Title"), or "" when it has no title.
func (b *Block) Heading() string {
	if b.Title == "" {
		return ""
	}
	h := make([]byte, 0, b.Level+1+len(b.Title))
	for i := 0; i < b.Level; i++ {
		h = append(h, '#')
	}
	h = append(h, ' ')
	h = append(h, b.Title...)
	return string(h)
}

// AdmitsTask reports whether the block's static gate (tasks and except, not when) admits task.
func (b *Block) AdmitsTask(task string) bool {
	if slices.Contains(b.Except, task) {
		return false
	}
	return slices.Contains(b.Tasks, "*") || slices.Contains(b.Tasks, task)
}

// Target returns the target called name, or nil.
func (p *Project) Target(name string) *Target {
	for _, t := range p.Targets {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// TargetNames lists the targets' names in the order promptc.toml declares them.
func (p *Project) TargetNames() []string {
	names := make([]string, len(p.Targets))
	for i, t := range p.Targets {
		names[i] = t.Name
	}
	return names
}

// Target is a context file that a runbook can be installed into (docs/workspaces.md). File is a slash-separated path relative to
// the directory installed into, checked when the manifest loads: never absolute, never climbing out with "..".
type Target struct {
	Name  string
	File  string
	Begin string
	End   string
	// Range is the target's name entry (its [[target]] header when name is missing).
	Range source.Range
	Table *Table
}

// Fixture holds sample session and turn values used to render golden files. Session, Tasks and Turns include what
// the fixture inherits through extends.
type Fixture struct {
	Name string
	// Extends names the fixture this one starts from ("" for none).
	Extends string
	Tasks   []string // ["*"] when not set
	// Session and Turns are the fixture's checked values: those of its [session] with what it extends, and those
	// of each turn. Load leaves them unset, with the values as read in RawSession and RawTurns: package values
	// checks those and sets these (values.Load; docs/values.md), so a front end loads a project through it.
	Session Values
	Turns   []Values
	// SessionFrom holds, for each session value, the [session] table it is written in: this fixture's, or that of
	// a fixture it extends (set with Session).
	SessionFrom map[string]*Table
	// RawSession and RawTurns are the values of the fixture's own [session] (nil when it has none) and [[turn]]
	// tables (nil when it has none) as Load reads them, to be checked by package values, which then sets them to
	// nil.
	RawSession *TableValues
	RawTurns   []*TableValues
	// Base is the fixture that Extends names, once its chain of extends resolves (nil when Extends is "" or the
	// chain is broken, which Load reports).
	Base *Fixture
	// Replies holds, for each turn, the assistant's reply to it (the [[turn]] key assistant, "" when not set), which
	// a session simulator replays. With extends, replies go with the turns they come from.
	Replies []string
	// After holds, for each turn, the time since the previous turn (the [[turn]] key after, 0 when not set).
	After []time.Duration
	// Range names the fixture's file, at its first line.
	Range source.Range
	// Table, SessionTable and TurnTables are where the file's root table, its [session] table and each [[turn]]
	// table are written (nil for the implicit fixture, and SessionTable for a fixture with no [session]).
	Table, SessionTable *Table
	TurnTables          []*Table
	// Implicit marks the fixture "default" that stands in when fixtures/ holds no file.
	Implicit bool

	tasksSet bool // tasks is set in the fixture's own file
	// file is the fixture's file; place is what PlaceValue reads of it, shared by its tables as they are read.
	file  *source.File
	place *placer
	// keys holds every key of the fixture's file with its path, while the file is read (walkKeys).
	keys *docKeys
}

// ValueRange returns where the value of variable name is written for turn k of the fixture (0 for the session
// values): the key in the fixture's file, or in the file of the fixture it inherits the value from; the fixture's
// own file when the value is not written anywhere.
func (f *Fixture) ValueRange(k int, name string) source.Range {
	var t *Table
	if k == 0 {
		t = f.SessionFrom[name]
	} else if k <= len(f.TurnTables) {
		t = f.TurnTables[k-1]
	}
	if t != nil {
		if e, ok := t.Keys[name]; ok {
			return e.Key
		}
		return t.Header
	}
	return f.Range
}

// AdmitsTask reports whether the fixture renders task.
func (f *Fixture) AdmitsTask(task string) bool {
	return slices.Contains(f.Tasks, "*") || slices.Contains(f.Tasks, task)
}

// Which fixture a command takes when none is named is one policy with two entry points, by what the command does
// with it (docs/reference.md#default-and-sample-fixtures):
//
//   - DefaultFixture, for commands whose output bytes depend on the choice (render, install): the only fixture
//     rendering the task; with several it refuses to guess, and the caller asks for one by name.
//   - SampleFixture, for commands that measure or explain a task (stats, lint, explain, the preview, the editor):
//     the first by name of the fixtures rendering the task, and the caller says it chose.
//
// Both choose among FixturesFor(task); a project without fixture files has one implicit fixture rendering every task.

// FixturesFor returns the fixtures that render task (their tasks admit it), sorted by name as p.Fixtures is.
func (p *Project) FixturesFor(task string) []*Fixture {
	var out []*Fixture
	for _, f := range p.Fixtures {
		if f.AdmitsTask(task) {
			out = append(out, f)
		}
	}
	return out
}

// DefaultFixture returns the fixture that renders task when none is named, for a command whose bytes depend on it:
// the only fixture whose tasks admit it. With none or several, it returns nil and the names of the fixtures that
// render the task (none, or several to choose from), by name.
func (p *Project) DefaultFixture(task string) (*Fixture, []string) {
	found := p.FixturesFor(task)
	if len(found) == 1 {
		return found[0], nil
	}
	names := make([]string, len(found))
	for i, f := range found {
		names[i] = f.Name
	}
	return nil, names
}

// SampleFixture returns the fixture that measuring or explaining task samples when none is named: the first by
// name of those rendering it (FixturesFor), or nil when none does. Unlike DefaultFixture it never refuses, so a
// caller that took it from several should say so.
func (p *Project) SampleFixture(task string) *Fixture {
	if fs := p.FixturesFor(task); len(fs) > 0 {
		return fs[0]
	}
	return nil
}

// FixtureFor returns the fixture to render task with: the one named name, which must render the task, or with name
// "" the task's DefaultFixture. Every refusal is a *FixtureError saying which of the four it is.
func (p *Project) FixtureFor(task, name string) (*Fixture, error) {
	if name != "" {
		f := p.Fixture(name)
		if f == nil {
			all := make([]string, len(p.Fixtures))
			for i, f := range p.Fixtures {
				all[i] = f.Name
			}
			return nil, &FixtureError{Problem: UnknownFixture, Task: task, Name: name, Names: all}
		}
		if !f.AdmitsTask(task) {
			return nil, &FixtureError{Problem: FixtureExcludesTask, Task: task, Name: name}
		}
		return f, nil
	}
	f, names := p.DefaultFixture(task)
	switch {
	case f != nil:
		return f, nil
	case len(names) == 0:
		return nil, &FixtureError{Problem: NoFixtureForTask, Task: task}
	}
	return nil, &FixtureError{Problem: SeveralFixturesForTask, Task: task, Names: names}
}

// FixtureProblem says why FixtureFor found no fixture.
type FixtureProblem uint8

const (
	// UnknownFixture: no fixture has the name asked for.
	UnknownFixture FixtureProblem = iota
	// FixtureExcludesTask: the fixture named does not render the task (its tasks do not admit it).
	FixtureExcludesTask
	// NoFixtureForTask: no name was given and no fixture renders the task.
	NoFixtureForTask
	// SeveralFixturesForTask: no name was given and several fixtures render the task.
	SeveralFixturesForTask
)

// FixtureError is FixtureFor's refusal. Its message names the fixture and the task, with a did-you-mean for an
// unknown name and the choices when several fixtures would do; a command adds how to choose (a flag, a file).
type FixtureError struct {
	Problem FixtureProblem
	// Task is the task asked for; Name the fixture named (UnknownFixture, FixtureExcludesTask).
	Task, Name string
	// Names are the project's fixtures (UnknownFixture) or those rendering the task (SeveralFixturesForTask), by
	// name.
	Names []string
}

func (e *FixtureError) Error() string {
	switch e.Problem {
	case UnknownFixture:
		return fmt.Sprintf("no fixture %q%s", e.Name, suggest.DidYouMean(e.Name, e.Names))
	case FixtureExcludesTask:
		return fmt.Sprintf("fixture %q does not render task %q (see its tasks)", e.Name, e.Task)
	case NoFixtureForTask:
		return fmt.Sprintf("no fixture renders task %q", e.Task)
	}
	return fmt.Sprintf("%d fixtures render task %q (%s): choose one", len(e.Names), e.Task, strings.Join(e.Names, ", "))
}

// Fixture returns the fixture named name, or nil.
func (p *Project) Fixture(name string) *Fixture {
	for _, f := range p.Fixtures {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Values holds variable values by name, as a fixture, a values file or a Go program gives them. values.TypeCheck
// (and so Program.NewSession and Session.Turn) accepts, for each type of variable:
//
//   - string, text: a string, or a value of a named string type (a code value, trust = "code", is one too: a diff
//     or a log as its text, fenced by promptc);
//   - bool: a bool;
//   - int: any Go integer type that fits an int64, a whole float64, a json.Number;
//   - list: a []string, a []any of strings, or a slice of a named string type;
//   - record: a map[string]any, a map[string]string, a Values, a struct or a pointer to one;
//   - records: a []map[string]any, a []map[string]string, a []Values, a []any of maps, or a slice or array of
//     structs or of pointers to structs;
//   - keyed records (key = "NAME"): a map with string keys of records (map[string]map[string]any, map[string]T or
//     map[string]*T of a struct T, a map[string]any of maps), each record's name being its key; or records as
//     above, each holding its name in field NAME, no name twice. TypeCheck gives them back as records in the byte
//     order of their names, each holding its name;
//
// and, inside a record, each field as its declared type says, nested record and records fields included (maps and
// slices of any depth up to MaxRecordDepth). A struct's fields are named as encoding/json names them: by their
// `json` tag, else by the Go field name; a field tagged "-" or unexported is left out, an embedded struct's fields
// are promoted, and a nil pointer, interface or slice field is absent (so it takes its zero value, or is missing
// when required). A record or records variable or field with decode = "json" also takes a string holding a JSON text
// of its shape. A value of any other shape is refused with a message in Go's words: `variable "repos" is records,
// so its value must be a slice of maps or structs (…), not a main.Repo`.
//
// Values read from fixtures and values files hold the decoded forms: string, bool, int64, []string, and for records
// []map[string]any (after values.TypeCheck, every declared field present).
type Values map[string]any

// Allow silences the findings of one lint, optionally only for one block, with the reason written down.
type Allow struct {
	Lint   string // lint id
	Block  string // "" for every block
	Reason string
	// Range is the [[lint.allow]] header; Table where its keys are written.
	Range source.Range
	Table *Table
}
