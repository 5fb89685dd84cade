package analysis

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/tokens"
)

// Hover is what an editor shows over a name: Markdown text about the symbol, and the range of the name.
type Hover struct {
	Text  string
	Range source.Range
}

// counter counts tokens for hovers and lints: one o200k_base vocabulary for the whole process.
var counter = sync.OnceValue(func() *tokens.Counter {
	c := tokens.New(tokens.O200k)
	return c
})

// Hover describes the symbol at byte off of file name: a block's title, tasks, scope and the reasons for it, its
// bytes and tokens and its rendered text for a fixture; a constant's text and users; a variable's declaration; a
// field's; a template's or fixture's users; or, inside an action, a function's signature. ok is false when there
// is nothing to say.
func (s *Snapshot) Hover(name string, off int) (Hover, bool) {
	if o, ok := s.At(name, off); ok {
		var text string
		switch o.Symbol.Kind {
		case KindBlock:
			text = s.hoverBlock(o.Symbol.Name)
		case KindConst:
			text = s.hoverConst(o.Symbol)
		case KindVar:
			text = s.hoverVar(o.Symbol)
		case KindField:
			text = s.hoverField(o.Symbol)
		case KindTemplate, KindFixture:
			text = s.hoverFile(o.Symbol)
		case KindTask:
			text = s.hoverTask(o.Symbol.Name)
		}
		if text != "" {
			return Hover{Text: text, Range: o.Range}, true
		}
		return Hover{}, false
	}
	f := s.Files[name]
	if f == nil {
		return Hover{}, false
	}
	if _, ok := actionAt(f.Text, off); !ok {
		return Hover{}, false
	}
	a, b := wordAt(f.Text, off)
	if fn, ok := function(f.Text[a:b]); ok && (a == 0 || f.Text[a-1] != '.' && f.Text[a-1] != '$') {
		return Hover{Text: "```\n" + fn.Signature + "\n```\n" + fn.Doc, Range: f.Range(a, b)}, true
	}
	return Hover{}, false
}

func (s *Snapshot) hoverBlock(id string) string {
	p := s.Project
	b := p.ByID[id]
	if b == nil {
		return fmt.Sprintf("unknown block %q%s", id, suggest.DidYouMean(id, sortedKeys(p.ByID)))
	}
	var w strings.Builder
	fmt.Fprintf(&w, "**block %q**", b.ID)
	if b.Title != "" {
		fmt.Fprintf(&w, ": `%s`", b.Heading())
	}
	fmt.Fprintf(&w, " (%s, %s)\n\n", b.Section, b.Range)
	if scope, ok := s.Program.Scope(id); ok {
		fmt.Fprintf(&w, "scope: **%s**, because\n", scope)
		for _, r := range s.Program.ScopeReasons(id) {
			fmt.Fprintf(&w, "- %s", r.Text)
			if r.At.Known() {
				fmt.Fprintf(&w, " (%s)", r.At)
			}
			w.WriteByte('\n')
		}
		w.WriteByte('\n')
	}
	fmt.Fprintf(&w, "tasks: %s", quoteList(b.Tasks))
	if len(b.Except) > 0 {
		fmt.Fprintf(&w, ", except %s", quoteList(b.Except))
	}
	if b.When != "" {
		fmt.Fprintf(&w, ", when %q", b.When)
	}
	if b.Replaces != "" {
		fmt.Fprintf(&w, "; replaces %q: %s", b.Replaces, b.Reason)
	}
	for _, r := range b.ReplacedBy {
		fmt.Fprintf(&w, "; replaced by %q in %s", r.ID, quoteList(r.Tasks))
	}
	w.WriteString("\n\n")
	if task, fx, text, ok := s.rendered(b); ok {
		n := len(text)
		tokens := ""
		if c := counter(); c != nil {
			tokens = fmt.Sprintf(", %d tokens (%s)", c.Count(text), c.Encoding())
		}
		fmt.Fprintf(&w, "%d bytes%s in task %q, fixture %q:\n\n", n, tokens, task, fx)
		w.WriteString(fence(text))
	}
	return w.String()
}

// rendered renders block b for the first task whose gate admits it and the first fixture (by name) rendering that
// task, as Project.SampleFixture takes it, going on to the next (Project.FixturesFor) where that one's values fail
// or, for a turn block, it has no turns: the block's own text (heading and body) as the artifact holds it. ok is
// false when the project has errors, or the block renders nowhere.
func (s *Snapshot) rendered(b *blocks.Block) (task, fixture, text string, ok bool) {
	if len(s.diags) > 0 {
		return "", "", "", false
	}
	p := s.Project
	for _, t := range p.Tasks {
		if !b.AdmitsTask(t) {
			continue
		}
		for _, f := range p.FixturesFor(t) {
			sess, err := s.Program.NewSession(t, f.Session)
			if err != nil {
				continue
			}
			art := sess.Runbook()
			if b.Section == blocks.Turn {
				if len(f.Turns) == 0 {
					continue
				}
				if art, err = sess.Turn(f.Turns[0]); err != nil {
					continue
				}
			}
			for _, sp := range art.Spans {
				if sp.Block == b {
					return t, f.Name, strings.TrimRight(art.Text[sp.TextStart:sp.End], "\n"), true
				}
			}
		}
	}
	return "", "", "", false
}

func (s *Snapshot) hoverConst(sym Symbol) string {
	c := s.Project.Consts[sym.Name]
	var w strings.Builder
	if c == nil {
		fmt.Fprintf(&w, "unknown constant %q%s\n", sym.Name, suggest.DidYouMean(sym.Name, sortedKeys(s.Project.Consts)))
		return w.String()
	}
	if c.Lookup != nil {
		fmt.Fprintf(&w, "**lookup table %q** (%s)\n\n", c.Name, c.Range)
		for _, k := range sortedKeys(c.Lookup) {
			fmt.Fprintf(&w, "- `%s` = %s\n", k, strconv.Quote(c.Lookup[k]))
		}
	} else {
		fmt.Fprintf(&w, "**constant %q** (%s), %d bytes\n\n%s", c.Name, c.Range, len(c.Value), fence(c.Value))
	}
	s.users(&w, sym)
	return w.String()
}

// users lists where sym is used, by the block (or file) holding each use.
func (s *Snapshot) users(w *strings.Builder, sym Symbol) {
	var lines []string
	for _, o := range s.index().bySym[sym] {
		if !o.Def {
			lines = append(lines, "- "+o.Range.String())
		}
	}
	if len(lines) == 0 {
		w.WriteString("\nused nowhere\n")
		return
	}
	fmt.Fprintf(w, "\nused %s:\n%s\n", plural.Count(len(lines), "time"), strings.Join(lines, "\n"))
}

func (s *Snapshot) hoverVar(sym Symbol) string {
	v := s.Project.Vars[sym.Name]
	var w strings.Builder
	if v == nil {
		fmt.Fprintf(&w, "unknown variable %q%s\n", sym.Name, suggest.DidYouMean(sym.Name, sortedKeys(s.Project.Vars)))
		return w.String()
	}
	fmt.Fprintf(&w, "**variable %q** (%s)\n\n", v.Name, v.Range)
	describeVar(&w, v, true)
	s.users(&w, sym)
	return w.String()
}

func (s *Snapshot) hoverField(sym Symbol) string {
	i := strings.IndexByte(sym.Name, '.')
	v := s.Project.Vars[sym.Name[:i]]
	f, _ := s.fieldDecl(sym.Name)
	var w strings.Builder
	if v == nil || f == nil {
		fmt.Fprintf(&w, "unknown field %q of variable %q\n", sym.Name[i+1:], sym.Name[:i])
		return w.String()
	}
	// A nested field is named by its path below the variable: field "ref.url" of records variable "resources".
	fmt.Fprintf(&w, "**field %q of %s variable %q** (%s)\n\n", sym.Name[i+1:], v.Type, v.Name, f.Range)
	describeVar(&w, f, false)
	s.users(&w, sym)
	return w.String()
}

// describeVar writes a declaration's settings: scope (for a variable), type, trust, requirement and limits.
func describeVar(w *strings.Builder, v *blocks.Var, scope bool) {
	var parts []string
	if scope {
		parts = append(parts, "scope "+v.Scope.String())
	}
	parts = append(parts, "type "+v.Type.String())
	if v.Type.IsText() || v.Type == blocks.TypeList {
		parts = append(parts, "trust "+v.Trust.String())
	}
	switch {
	case v.RequiredFor != nil:
		parts = append(parts, "required in "+quoteList(v.RequiredFor))
	case v.Required:
		parts = append(parts, "required")
	default:
		parts = append(parts, "optional")
	}
	add := func(name string, n int) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", name, n))
		}
	}
	add("max_runes", v.MaxRunes)
	add("item_max_runes", v.ItemMaxRunes)
	add("max_items", v.MaxItems)
	add("max_bytes", v.MaxBytes)
	if v.Trim {
		parts = append(parts, "trim")
	}
	if v.Pattern != nil {
		// The pattern as written: the loader compiles it wrapped in ^(?:…)$.
		parts = append(parts, fmt.Sprintf("pattern %q", strings.TrimSuffix(strings.TrimPrefix(v.Pattern.String(), "^(?:"), ")$")))
	}
	w.WriteString(strings.Join(parts, ", "))
	w.WriteString("\n")
	if len(v.Fields) > 0 {
		w.WriteString("\nfields:\n")
		for _, f := range v.Fields {
			fmt.Fprintf(w, "- `%s` %s\n", f.Name, f.Type)
		}
	}
}

func (s *Snapshot) hoverFile(sym Symbol) string {
	var w strings.Builder
	if sym.Kind == KindTemplate {
		if _, ok := s.Project.Templates[sym.Name]; !ok {
			return fmt.Sprintf("no file %s%s\n", source.QuoteName("templates/"+sym.Name), suggest.DidYouMean(sym.Name, sortedKeys(s.Project.Templates)))
		}
		fmt.Fprintf(&w, "**template** `templates/%s`\n", sym.Name)
	} else {
		f := s.Project.Fixture(sym.Name)
		if f == nil {
			return fmt.Sprintf("unknown fixture %q\n", sym.Name)
		}
		fmt.Fprintf(&w, "**fixture %q** (%s): tasks %s, %s\n", f.Name, f.Range.Filename, quoteList(f.Tasks), plural.Count(len(f.Turns), "turn"))
	}
	s.users(&w, sym)
	return w.String()
}

// hoverTask lists what renders in a task: the fixtures that render it and its runbook's blocks, by the gates alone.
func (s *Snapshot) hoverTask(task string) string {
	p := s.Project
	if !slices.Contains(p.Tasks, task) {
		return fmt.Sprintf("unknown task %q%s\n", task, suggest.DidYouMean(task, p.Tasks))
	}
	var w strings.Builder
	fmt.Fprintf(&w, "**task %q** (%s)\n\n", task, p.TaskRange(task))
	var fixtures []string
	for _, f := range p.FixturesFor(task) {
		fixtures = append(fixtures, f.Name)
	}
	if len(fixtures) == 0 {
		w.WriteString("no fixture renders it: it is unguarded\n")
	} else {
		noun := "fixtures"
		if len(fixtures) == 1 {
			noun = "fixture"
		}
		fmt.Fprintf(&w, "rendered by %s %s\n", noun, quoteList(fixtures))
	}
	var ids []string
	for _, sl := range s.Program.Slots(blocks.Runbook) {
		if b := sl.Pick(task, nil); b != nil {
			ids = append(ids, b.ID)
		}
	}
	fmt.Fprintf(&w, "\nrunbook blocks (by the gates, when conditions aside): %s\n", quoteList(ids))
	return w.String()
}

func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// fence puts text in a Markdown code fence it cannot close.
func fence(text string) string {
	n := 3
	for run, i := 0, 0; i < len(text); i++ {
		if text[i] == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", n)
	return f + "markdown\n" + text + "\n" + f + "\n"
}

// actionAt returns where the template action holding byte off of text starts ("{{"), when off is inside one.
func actionAt(text string, off int) (int, bool) {
	off = max(0, min(off, len(text)))
	open := strings.LastIndex(text[:off], "{{")
	if open < 0 {
		return 0, false
	}
	if strings.Contains(text[open:off], "}}") {
		return 0, false
	}
	return open, true
}

// wordAt returns the identifier around byte off of text: letters, digits and '_'.
func wordAt(text string, off int) (int, int) {
	word := func(c byte) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	a, b := max(0, min(off, len(text))), max(0, min(off, len(text)))
	for a > 0 && word(text[a-1]) {
		a--
	}
	for b < len(text) && word(text[b]) {
		b++
	}
	return a, b
}
