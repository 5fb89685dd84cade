package lint

import (
	"fmt"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/templates"
)

// unusedFields reports the declared fields of record or records variable v, at any depth, that no block reads
// (unused-variable): a value given for them changes no output. A use that hands the variable, one of its records or
// a nested field to a function or a template variable whole ({{json .repos}}, {{$r := .}}, {{where "x" "y" .repos}})
// may read any field below it, so nothing below it is reported. A test reads none ({{if or .repos .x}},
// {{len .repos}}, {{if not .}} in a range over it): what is read is what the other uses read.
func (l *linter) unusedFields(v *blocks.Var) {
	if !v.Type.HasFields() {
		return
	}
	read := map[string]bool{}  // field paths below v that are read: "url", "ref.url"
	whole := map[string]bool{} // paths ("" for v itself) below which every field may be read
	for _, bd := range l.bodies {
		u := bd.uses
		if u.Data {
			return
		}
		for _, vu := range u.Vars {
			if vu.Name == v.Name && !partial(vu.Kind) {
				whole[""] = true
			}
		}
		for _, it := range u.Items {
			if it.Name == v.Name && !partial(it.Kind) {
				whole[""] = true
			}
		}
		for _, f := range u.Fields {
			if f.Var != v.Name {
				continue
			}
			p := f.Name
			if f.Path != "" {
				p = f.Path + "." + f.Name
			}
			read[p] = true
			if !partial(f.Kind) {
				whole[p] = true
			}
		}
	}
	if whole[""] {
		return
	}
	l.fieldsUnread(v, v.Name, "", read, whole)
}

// partial reports whether a use of a value reads only what the uses inside or after it read: a field read from
// it, a range over it, or a test of whether it is empty or how long it is.
func partial(k templates.UseKind) bool {
	return k == templates.UsePart || k == templates.UseRange || k == templates.UseCondition || k == templates.UseTest
}

func (l *linter) fieldsUnread(v *blocks.Var, top, prefix string, read, whole map[string]bool) {
	for _, f := range v.Fields {
		p := f.Name
		if prefix != "" {
			p = prefix + "." + f.Name
		}
		switch {
		case whole[p]:
		case read[p]:
			if f.Type.HasFields() {
				l.fieldsUnread(f, top, p, read, whole)
			}
		default:
			path := top + "." + p
			owner := top
			if i := strings.LastIndexByte(path, '.'); i > 0 {
				owner = path[:i]
			}
			l.add(UnusedVariable, f.Range, path,
				fmt.Sprintf("read it in a block, or delete [vars.%s.fields.%s] and its values in fixtures/", top, strings.ReplaceAll(p, ".", ".fields.")),
				"field %q of %q is declared but no block reads it: a value given for it changes no output", f.Name, owner)
		}
	}
}
