package templates

import (
	"fmt"
	"slices"
	"text/template"
	"text/template/parse"

	"github.com/promptc/promptc/internal/suggest"
)

// List constants and whole lookup tables (docs/reference.md, "[const]"): what a body walks with range.

// constOrList implements const "name": a text constant's text, or a list constant's items, which a body walks with
// {{range const "name"}} (printing one whole is a compile error, see Uses.Consts).
func (f *funcs) constOrList(name string) (any, error) {
	v, ok := f.consts.values[name]
	if !ok {
		return f.constant(name) // an error, or a Consts not made by NewParser
	}
	if s, isText := v.(string); isText {
		if _, err := f.result("const", s); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// boxed returns c with the values const returns, converted to any once: converting a string on every call would
// allocate, and const is the most called function.
func (c Consts) boxed() Consts {
	c.values = make(map[string]any, len(c.Text)+len(c.Lists))
	for name, s := range c.Text {
		c.values[name] = s
	}
	for name, items := range c.Lists {
		c.values[name] = items
	}
	return c
}

// lookupTable implements lookup_table "table": the whole lookup table, which {{range $k, $v := lookup_table "t"}}
// walks in key order (text/template ranges over a map by sorted key).
func (f *funcs) lookupTable(table string) (map[string]string, error) {
	t, ok := f.consts.Tables[table]
	if !ok {
		if _, isText := f.consts.Text[table]; isText {
			return nil, fmt.Errorf("lookup_table %q: %q is a text constant, not a lookup table; read it with const %q", table, table, table)
		}
		if _, isList := f.consts.Lists[table]; isList {
			return nil, fmt.Errorf("lookup_table %q: %q is a list constant, not a lookup table; walk it with range const %q", table, table, table)
		}
		return nil, fmt.Errorf("lookup_table %q: no such lookup table%s", table, suggest.DidYouMean(table, sortedKeys(f.consts.Tables)))
	}
	return t, nil
}

// listFuncs are the functions of this file, added to FuncNames.
var listFuncs = []string{"lookup_table"}

func init() {
	FuncNames = append(FuncNames, listFuncs...)
	slices.Sort(FuncNames)
}

// withLists adds the functions of this file to a function map: const that also reads list constants, and
// lookup_table.
func (f *funcs) withLists(m template.FuncMap) template.FuncMap {
	m["const"] = f.constOrList
	m["lookup_table"] = f.lookupTable
	return m
}

// constKind sets the kind of a literal const call whose result is the result of pipeline p: the last command.
func (a *analyzer) constKind(p *parse.PipeNode, kind UseKind) {
	if p == nil || len(p.Cmds) == 0 {
		return
	}
	cmd := p.Cmds[len(p.Cmds)-1]
	if len(cmd.Args) != 2 || !isIdent(cmd.Args[0], "const") {
		return
	}
	lit, ok := cmd.Args[1].(*parse.StringNode)
	if !ok {
		return
	}
	for i := range a.uses.Consts {
		if u := &a.uses.Consts[i]; u.Off == int(lit.Pos) {
			u.Kind = kind
		}
	}
}
