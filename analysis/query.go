package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// Definition returns where the symbol at byte off of file name is defined: a block's id, a constant's or
// variable's name in its declaration, a field's table, a template file, a fixture file. It returns nil when there is
// no symbol there, or the symbol is defined nowhere (a misspelt name).
func (s *Snapshot) Definition(name string, off int) []source.Range {
	o, ok := s.At(name, off)
	if !ok {
		return nil
	}
	var out []source.Range
	for _, d := range s.index().bySym[o.Symbol] {
		if d.Def {
			out = append(out, d.Range)
		}
	}
	return out
}

// References returns every place the symbol at byte off of file name is written, in TOML files and templates
// alike, in file and position order; the definition is included when decl is set.
func (s *Snapshot) References(name string, off int, decl bool) []source.Range {
	o, ok := s.At(name, off)
	if !ok {
		return nil
	}
	var out []source.Range
	for _, r := range s.index().bySym[o.Symbol] {
		if (decl || !r.Def) && r.Range.End.Byte > r.Range.Start.Byte {
			out = append(out, r.Range)
		}
	}
	return out
}

// Edit replaces the text at Range by NewText.
type Edit struct {
	Range   source.Range
	NewText string
}

// RenameError is why a rename is refused.
type RenameError struct{ Msg string }

func (e *RenameError) Error() string { return e.Msg }

// PrepareRename returns the occurrence a rename at byte off of file name would rename, or an error saying why
// there is nothing to rename there.
func (s *Snapshot) PrepareRename(name string, off int) (Occurrence, error) {
	o, ok := s.At(name, off)
	if !ok {
		return Occurrence{}, &RenameError{"nothing to rename here: place the cursor on a block id, a constant, a variable or a field"}
	}
	switch o.Symbol.Kind {
	case KindTemplate, KindFixture:
		return Occurrence{}, &RenameError{fmt.Sprintf("a %s is named by its file: rename the file instead", o.Symbol.Kind)}
	case KindTask:
		return Occurrence{}, &RenameError{"a task names the artifacts in golden/ and in every install: rename it by hand, then run promptc check --update"}
	}
	if !slices.ContainsFunc(s.index().bySym[o.Symbol], func(x Occurrence) bool { return x.Def }) {
		return Occurrence{}, &RenameError{fmt.Sprintf("%s %q is not defined: there is nothing to rename", o.Symbol.Kind, shortName(o.Symbol))}
	}
	if s.Project.Incomplete {
		return Occurrence{}, &RenameError{"a file under blocks/ does not load: fix it first, or the rename would miss what it holds"}
	}
	for _, b := range s.Project.Blocks {
		if b.BodyRange.Known() && s.Program.Body(b.ID) == nil {
			return Occurrence{}, &RenameError{fmt.Sprintf("the body of block %q does not compile (%s): fix it first, or the rename would miss the names it uses", b.ID, b.Range)}
		}
	}
	return o, nil
}

// Rename returns the edits that rename the symbol at byte off of file name to newName in every file of the project:
// its definition and every use, in TOML files and templates. It refuses (a *RenameError) a name that is not valid
// for the symbol's kind or that another symbol of that kind already has, and a project that does not load or
// compile, where some uses could not be found.
func (s *Snapshot) Rename(name string, off int, newName string) (map[string][]Edit, error) {
	o, err := s.PrepareRename(name, off)
	if err != nil {
		return nil, err
	}
	sym := o.Symbol
	old := shortName(sym)
	if newName == old {
		return map[string][]Edit{}, nil
	}
	if msg := s.checkNewName(sym, newName); msg != "" {
		return nil, &RenameError{msg}
	}
	out := map[string][]Edit{}
	for _, x := range s.index().bySym[sym] {
		if x.Range.End.Byte > x.Range.Start.Byte {
			out[x.Range.Filename] = append(out[x.Range.Filename], Edit{Range: x.Range, NewText: newName})
		}
	}
	return out, nil
}

// shortName is the name as written: a field's own name for a field (the last part of its path).
func shortName(sym Symbol) string {
	if sym.Kind == KindField {
		return sym.Name[strings.LastIndexByte(sym.Name, '.')+1:]
	}
	return sym.Name
}

// fieldDecl returns the declaration of the field named by path ("var.field.sub"), or nil, with its parent: the
// variable or field that declares it.
func (s *Snapshot) fieldDecl(path string) (f, parent *blocks.Var) {
	name, rest, _ := strings.Cut(path, ".")
	parent = s.Project.Vars[name]
	for parent != nil {
		name, rest, _ = strings.Cut(rest, ".")
		if f = parent.Field(name); f == nil || rest == "" {
			return f, parent
		}
		parent = f
	}
	return nil, nil
}

func (s *Snapshot) checkNewName(sym Symbol, n string) string {
	p := s.Project
	switch sym.Kind {
	case KindBlock:
		if !isBlockID(n) {
			return fmt.Sprintf("%q is not a valid block id: ids match [a-z0-9][a-z0-9_-]*", n)
		}
		if _, ok := p.ByID[n]; ok {
			return fmt.Sprintf("block id %q is taken (%s)", n, p.ByID[n].Range)
		}
	case KindConst:
		if !isBareKey(n) {
			return fmt.Sprintf("%q is not a valid constant name here: use letters, digits, '_' and '-'", n)
		}
		if c, ok := p.Consts[n]; ok {
			return fmt.Sprintf("constant %q is taken (%s)", n, c.Range)
		}
	case KindVar:
		if !isName(n) || n == "task" || n == "assistant" {
			return fmt.Sprintf("%q is not a valid variable name: names match [a-z][a-z0-9_]*, and task and assistant are reserved", n)
		}
		if v, ok := p.Vars[n]; ok {
			return fmt.Sprintf("variable %q is taken (%s)", n, v.Range)
		}
	case KindField:
		if !isName(n) {
			return fmt.Sprintf("%q is not a valid field name: names match [a-z][a-z0-9_]*", n)
		}
		if _, parent := s.fieldDecl(sym.Name); parent != nil && parent.Field(n) != nil {
			what := "variable"
			if i := strings.LastIndexByte(sym.Name, '.'); strings.IndexByte(sym.Name[:i], '.') >= 0 {
				what = "field"
			}
			return fmt.Sprintf("%s %q already has a field %q", what, parent.Name, n)
		}
	}
	return ""
}

// isName reports whether s matches [a-z][a-z0-9_]*.
func isName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	return strings.Trim(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == ""
}

// isBlockID reports whether s matches [a-z0-9][a-z0-9_-]*.
func isBlockID(s string) bool {
	if s == "" || s[0] == '_' || s[0] == '-' {
		return false
	}
	return strings.Trim(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == ""
}

// isBareKey reports whether s can be written as a bare TOML key: letters, digits, '_' and '-'.
func isBareKey(s string) bool {
	return s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == ""
}
