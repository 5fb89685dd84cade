package templates

import (
	"strings"
	"text/template"
	"text/template/parse"
)

// An action printing a value calls the printer, a function call that text/template makes by reflection: three
// allocations, and more time than printing the value (docs/values.md, "No function can undo escaping"). The most
// common printing action, {{.x}} (or {{$.x}}) of an untrusted or background text or a code value, prints the same
// bytes in every block and under every heading level: its escaped text. SetPrinted records that text once per set
// of values, beside the value, and each body that prints such an action has a second tree in which the action
// prints the record instead of calling the printer. An execution takes that tree when every record it reads is
// there and nobody asks which bytes came from values (Env.Mark); any other execution takes the body's own tree.
//
// The records are keys no body can name: a field name is an identifier, and a body that reads the data whole ({{.}},
// $, range or json of it) sees it without them (withoutPrinted) and has no second tree.

// printedPrefix starts every record's key: a NUL, which no identifier holds.
const printedPrefix = "\x00printed "

func printedKey(name string) string { return printedPrefix + name }

// SetPrinted records in data what an action printing variable name alone writes, when that is the same wherever
// the action is (an untrusted or background text, a code value), and removes the record of an earlier value of
// name otherwise. val is the value data[name] holds (Prepare's result); markers are the ones the bodies' Consts
// hold, which printing breaks.
func SetPrinted(data map[string]any, name string, val any, markers []string) {
	switch val.(type) {
	case Untrusted: // a background or code value lays out lines, which the printer places (place)
		p := printer{markers: markers}
		s := p.printAny(val)
		if raw, _, _ := textOf(val); s == raw {
			// Escaping left it as it was (most values): fmt prints val's bytes, and keeping it boxes nothing.
			data[printedKey(name)] = val
		} else {
			data[printedKey(name)] = s
		}
	default:
		delete(data, printedKey(name))
	}
}

// withoutPrinted returns data without SetPrinted's records, for a body that sees the data whole.
func withoutPrinted(data map[string]any) map[string]any {
	n := 0
	for k := range data {
		if strings.HasPrefix(k, printedPrefix) {
			n++
		}
	}
	if n == 0 {
		return data
	}
	out := make(map[string]any, len(data)-n)
	for k, v := range data {
		if !strings.HasPrefix(k, printedPrefix) {
			out[k] = v
		}
	}
	return out
}

// printedTree returns a copy of a body's tree (after rewritePrints) in which every action printing a variable
// alone prints its record, and the records it reads; nil when no action does or when the body reads the data
// whole (wholeData).
func printedTree(t *parse.Tree) (*parse.Tree, []string) {
	if readsWhole(t.Root) || !printsVars(t.Root) {
		return nil, nil // most bodies: no copy made
	}
	c := t.Copy()
	var keys []string
	eachPrint(c.Root, func(n *parse.ActionNode, name string) {
		switch a := n.Pipe.Cmds[0].Args[0].(type) {
		case *parse.FieldNode:
			a.Ident = []string{printedKey(name)}
		case *parse.VariableNode:
			a.Ident = []string{"$", printedKey(name)}
		}
		n.Pipe.Cmds = n.Pipe.Cmds[:1] // the record is printed as it is
		if !containsString(keys, printedKey(name)) {
			keys = append(keys, printedKey(name))
		}
	})
	return c, keys
}

// printsVars reports whether any action of a tree prints a variable alone (printsVar).
func printsVars(root *parse.ListNode) bool {
	found := false
	eachPrint(root, func(*parse.ActionNode, string) { found = true })
	return found
}

// eachPrint calls f with every action of a tree that prints a variable alone, and the variable's name.
func eachPrint(root *parse.ListNode, f func(n *parse.ActionNode, name string)) {
	var walk func(n parse.Node, top bool)
	walk = func(n parse.Node, top bool) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, e := range n.Nodes {
				walk(e, top)
			}
		case *parse.ActionNode:
			if name, ok := printsVar(n.Pipe, top); ok {
				f(n, name)
			}
		case *parse.IfNode:
			walk(n.List, top)
			walk(n.ElseList, top)
		case *parse.WithNode:
			walk(n.List, false)
			walk(n.ElseList, top)
		case *parse.RangeNode:
			walk(n.List, false)
			walk(n.ElseList, top)
		}
	}
	walk(root, true)
}

// printsVar reports whether an action's pipeline, as rewritePrints left it, prints one variable alone: .x where dot
// is the data, or $.x, then the printer.
func printsVar(p *parse.PipeNode, top bool) (string, bool) {
	if p == nil || len(p.Decl) > 0 || p.IsAssign || len(p.Cmds) != 2 || len(p.Cmds[0].Args) != 1 ||
		len(p.Cmds[1].Args) != 1 || !isIdent(p.Cmds[1].Args[0], printFunc) {
		return "", false
	}
	switch a := p.Cmds[0].Args[0].(type) {
	case *parse.FieldNode:
		if top && len(a.Ident) == 1 {
			return a.Ident[0], true
		}
	case *parse.VariableNode:
		if len(a.Ident) == 2 && a.Ident[0] == "$" {
			return a.Ident[1], true
		}
	}
	return "", false
}

// readsWhole reports whether a body reads the data whole: dot where it is the data, or $ alone.
func readsWhole(root *parse.ListNode) bool {
	found := false
	var node func(n parse.Node, top bool)
	var pipe func(p *parse.PipeNode, top bool)
	pipe = func(p *parse.PipeNode, top bool) {
		if p == nil {
			return
		}
		for _, v := range p.Decl {
			node(v, top)
		}
		for _, c := range p.Cmds {
			for _, a := range c.Args {
				node(a, top)
			}
		}
	}
	node = func(n parse.Node, top bool) {
		switch n := n.(type) {
		case *parse.DotNode:
			found = found || top
		case *parse.VariableNode:
			found = found || len(n.Ident) == 1 && n.Ident[0] == "$"
		case *parse.ChainNode:
			node(n.Node, top)
		case *parse.PipeNode:
			pipe(n, top)
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, e := range n.Nodes {
				node(e, top)
			}
		case *parse.ActionNode:
			pipe(n.Pipe, top)
		case *parse.IfNode:
			pipe(n.Pipe, top)
			node(n.List, top)
			node(n.ElseList, top)
		case *parse.WithNode:
			pipe(n.Pipe, top)
			node(n.List, false)
			node(n.ElseList, top)
		case *parse.RangeNode:
			pipe(n.Pipe, top)
			node(n.List, false)
			node(n.ElseList, top)
		case *parse.TemplateNode:
			found = true // refused by Parse; never reached
		}
	}
	node(root, true)
	return found
}

func containsString(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// hasPrinted reports whether data holds every record keys names.
func hasPrinted(data map[string]any, keys []string) bool {
	for _, k := range keys {
		if _, ok := data[k]; !ok {
			return false
		}
	}
	return true
}

// addPrinted adds the printed tree to the template set of t, under a name no block id takes.
func addPrinted(t *template.Template, id string, tree *parse.Tree) (*template.Template, error) {
	name := id + printedPrefix
	return t.New(name).AddParseTree(name, tree)
}

// printingArity lists the functions whose result, when an action prints it, the printer's call is fused with: the
// action calls printingName(fn), which prints what fn gives, one reflected call instead of two. Each takes its
// arguments as fn does; an action fuses a call only with as many arguments as fn takes, so that text/template's
// own diagnostics (which name the function) are never about the fused name.
var printingArity = map[string]int{"bullets": 1, "quote": 1, "json": 1, "join": 2}

// printingNames are the fused forms' names: letters only, as the diagnostics of a function's error expect.
var printingNames = func() map[string]string {
	m := map[string]string{}
	for fn := range printingArity {
		m[fn] = "promptcPrinting" + strings.ToUpper(fn[:1]) + fn[1:]
	}
	return m
}()

func printingName(fn string) string { return printingNames[fn] }

// fusePrint renames the last command of a printing action to its fused form when it can (printingArity), and
// reports whether it did.
func fusePrint(p *parse.PipeNode) bool {
	last := p.Cmds[len(p.Cmds)-1]
	id, ok := last.Args[0].(*parse.IdentifierNode)
	if !ok {
		return false
	}
	n, known := printingArity[id.Ident]
	args := len(last.Args) - 1
	if len(p.Cmds) > 1 {
		args++ // the piped value
	}
	if !known || args != n {
		return false
	}
	last.Args[0] = parse.NewIdentifier(printingName(id.Ident)).SetPos(id.Pos)
	return true
}

// addPrinting adds the fused forms of f's functions to a function map.
func (f *funcs) addPrinting(m template.FuncMap) {
	print := func(v any, err error) (string, error) {
		if err != nil {
			return "", err
		}
		return f.p.printAny(v), nil
	}
	m[printingName("bullets")] = func(list any) (string, error) { return print(f.bullets(list)) }
	m[printingName("quote")] = func(text any) (string, error) { return print(f.quote(text)) }
	m[printingName("json")] = func(v any) (string, error) { return print(f.json(v)) }
	m[printingName("join")] = func(list, sep any) (string, error) { return print(f.join(list, sep)) }
}
