package blocks

// Scopes, from most to least stable. A variable has scope Session or Turn; a block has any of the four (§3.11).
const (
	ScopeGlobal  = "global"
	ScopeTask    = "task"
	ScopeSession = "session"
	ScopeTurn    = "turn"
)

// ScopeRank orders scopes from most to least stable: global 0, task 1, session 2, turn 3 (and anything else).
func ScopeRank(scope string) int {
	switch scope {
	case ScopeGlobal:
		return 0
	case ScopeTask:
		return 1
	case ScopeSession:
		return 2
	}
	return 3
}

// Variable types.
const (
	TypeString = "string"
	TypeText   = "text"
	TypeBool   = "bool"
	TypeInt    = "int"
	TypeList   = "list"
)

// Trust levels of a string, text or list variable: how its value is escaped before a template sees it.
const (
	Trusted    = "trusted"
	Untrusted  = "untrusted"
	Background = "background"
)

// Section kinds: which order list places a block.
const (
	Runbook = "runbook"
	Turn    = "turn"
)

// DefaultSeparator joins the rendered blocks of a runbook or turn message unless the manifest says otherwise.
const DefaultSeparator = "\n\n"

// Project is a loaded and checked prompt project. Every slice is in a deterministic order: tasks and order lists
// as written in the manifest, blocks by file path then position, fixtures by name, variables and constants by name.
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
	// Allow lists the lint findings the project silences deliberately, each with its reason ([[lint.allow]]).
	Allow []*Allow
	// Templates holds the files under templates/, by slash path relative to that directory, normalised (§3.1).
	Templates map[string]string
	Fixtures  []*Fixture
	// Files holds the normalised text of every source file read, by slash path relative to the project root.
	Files map[string]string
	// Incomplete is set when a blocks/ file could not be read or parsed: the blocks and constants it defines are
	// missing, so later stages do not report uses of them as unknown.
	Incomplete bool
}

// Section is the assembly order of the runbook or of the per-turn message.
type Section struct {
	Order     []string
	Separator string
	Pos       Pos
}

// Var is a declared variable.
type Var struct {
	Name     string
	Scope    string // ScopeSession or ScopeTurn
	Type     string
	Trust    string // Trusted, Untrusted or Background; Trusted for bool and int
	Required bool

	// Limits of string and text values.
	MaxRunes int
	Overflow string // "" (cut) or "notice"
	Notice   string

	// Limits of list values, applied in this order.
	ItemMaxRunes int
	MaxItems     int
	MaxBytes     int
	PinFirst     bool
	Omitted      string

	Pos Pos
}

// Const is a shared text constant.
type Const struct {
	Name     string
	Value    string
	Pos      Pos // the key's position
	ValuePos Pos // where the value's content starts, after the opening quotes

	src *source
}

// Block is one prompt block.
type Block struct {
	ID       string
	Title    string
	Level    int      // 1..6
	Tasks    []string // gate; ["*"] when not set
	Except   []string
	When     string // variable name, "!" prefix negates; "" when not set
	Body     string // the body source: from body, or the template file's text
	Template string // file under templates/, when the body comes from one
	Raw      bool
	Replaces string
	Reason   string

	// Section is Runbook or Turn: where the block renders (for a replacing block, its target's section).
	Section string
	// Slot is the id of the order-list entry the block fills: its own id, or the id it replaces.
	Slot string
	// ReplacedBy lists the blocks that replace this one, in project order.
	ReplacedBy []*Block

	Pos     Pos // the block's id key (or its [[block]] header when id is missing)
	BodyPos Pos // where the body text starts: inside the TOML value, or line 1 col 1 of the template file
	WhenPos Pos

	src *source
}

// WhenVar returns the variable named by When and whether the condition is negated.
func (b *Block) WhenVar() (name string, negated bool) {
	if len(b.When) > 0 && b.When[0] == '!' {
		return b.When[1:], true
	}
	return b.When, false
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
	for _, t := range b.Except {
		if t == task {
			return false
		}
	}
	for _, t := range b.Tasks {
		if t == "*" || t == task {
			return true
		}
	}
	return false
}

// Target is a context file that a runbook can be installed into (§6).
type Target struct {
	Name  string
	File  string
	Begin string
	End   string
	Pos   Pos
}

// Fixture holds sample session and turn values used to render golden files.
type Fixture struct {
	Name    string
	Tasks   []string // ["*"] when not set
	Session Values
	Turns   []Values
	Pos     Pos
	// Implicit marks the fixture "default" that stands in when fixtures/ holds no file.
	Implicit bool
}

// AdmitsTask reports whether the fixture renders task.
func (f *Fixture) AdmitsTask(task string) bool {
	for _, t := range f.Tasks {
		if t == "*" || t == task {
			return true
		}
	}
	return false
}

// Values holds variable values by name. A value is a string (string and text variables), bool, int64, or []string
// (list variables).
type Values map[string]any

// Allow silences the findings of one lint, optionally only for one block, with the reason written down.
type Allow struct {
	Lint   string // lint id
	Block  string // "" for every block
	Reason string
	Pos    Pos
}
