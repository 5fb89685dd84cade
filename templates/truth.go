package templates

import (
	"reflect"
	"text/template/parse"
)

// Truth (docs/reference.md, "Nested data"): a record is true when one of its fields is, so that a missing record
// (every field at its zero value) and one whose fields are all empty are false, nested records included. text/template
// holds a map true when it has entries, and a record always has every declared field, so on its own it would hold
// every record true. promptc's functions (default, when) ask truth; for text/template's own control structures and
// functions Parse rewrites the body (rewriteTruth) and the function set replaces not.

// truthFunc is the name of the function rewriteTruth calls where text/template tests a value: it gives the value
// itself when it is true, and noRecord (false to text/template) when it is a record that is not. No body needs to call
// it by name.
const truthFunc = "promptcTruth"

// truth is whether a value as a body sees it is true: text/template's truth (a non-empty text, list or map, a
// non-zero number, true, a non-nil pointer; a struct, which a Mixed is, always), but for a record
// (map[string]any), which is true when one of its fields is.
func truth(v any) bool {
	if v == nil {
		return false
	}
	if s, _, ok := textOf(v); ok {
		return s != ""
	}
	switch x := v.(type) {
	case bool:
		return x
	case int:
		return x != 0
	case map[string]any:
		return recordTruth(x)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return rv.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int() != 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return rv.Uint() != 0
	case reflect.Float32, reflect.Float64:
		return rv.Float() != 0
	case reflect.Complex64, reflect.Complex128:
		return rv.Complex() != 0
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return rv.Len() > 0
	case reflect.Chan, reflect.Func, reflect.Pointer, reflect.UnsafePointer, reflect.Interface:
		return !rv.IsNil()
	}
	return true // a struct
}

// recordTruth is whether a record is true: whether one of its fields is, at any depth.
func recordTruth(r map[string]any) bool {
	for _, v := range r {
		if truth(v) {
			return true
		}
	}
	return false
}

// truthValue is truthFunc: v where text/template's test of it should hold, and a false record where v is a record
// that is not true.
func truthValue(v any) any {
	if r, ok := v.(map[string]any); ok && !recordTruth(r) {
		return noRecord
	}
	return v
}

// falseRecord is what a record that is not true becomes where text/template tests it: a nil pointer, which
// text/template holds false, and which prints, compares and describes as a record would (an error).
type falseRecord struct{}

var noRecord = (*falseRecord)(nil)

// notTruth is text/template's not with promptc's truth. It takes the reflect.Value text/template holds, as its own
// builtin does, so that the call boxes nothing.
func notTruth(v reflect.Value) bool {
	if v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	return !truth(valueOf(v))
}

// withTruth adds the functions of this file to a function map: not, and the function rewriteTruth calls.
func withTruth(m map[string]any) map[string]any {
	m["not"] = notTruth
	m[truthFunc] = truthValue
	return m
}

// givesPart lists the functions whose result is one of their arguments or a part of one (an item, some records):
// it may be, or hold, a record when an argument may.
var givesPart = map[string]bool{"first": true, "last": true, "index": true, "default": true, "and": true, "or": true,
	"slice": true, "where": true, "whereNot": true, "whereNotEmpty": true, "sortBy": true, "uniq": true}

// rewriteTruth makes text/template's truth promptc's: the pipeline of every if and with that may give a record ends
// with truthFunc, and so does every argument of and and or that may be one (they test each argument, and give one
// back). scalars names the variables whose values hold no record (Consts.Scalars), plain those that print as they
// are (Consts.Plain, none of them a record either): a test of one of them, the most common kind, costs no call.
func rewriteTruth(n parse.Node, scalars, plain map[string]bool) {
	r := truthRewriter{scalars: scalars, plain: plain, vars: map[string]bool{}}
	// Which template variables may hold a record: none, at first, then every one that a declaration or an
	// assignment may give one to, until nothing changes ({{$y := $x}} before {{$x = .rec}} takes two rounds).
	for changed := true; changed; {
		changed = r.scanVars(n, truthDot{dotAt: dotAt{top: true}})
	}
	r.walk(n, truthDot{dotAt: dotAt{top: true}})
}

// scanVars marks the template variables that a declaration or an assignment in n may give a record, and reports
// whether it marked any that was not marked yet.
func (r truthRewriter) scanVars(n parse.Node, at truthDot) bool {
	changed := false
	mark := func(v *parse.VariableNode, may bool) {
		if may && !r.vars[v.Ident[0]] {
			r.vars[v.Ident[0]], changed = true, true
		}
	}
	decl := func(p *parse.PipeNode) {
		if p != nil && len(p.Cmds) > 0 {
			for _, v := range p.Decl {
				mark(v, r.mayGiveRecord(p, at))
			}
		}
	}
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return false
		}
		for _, c := range n.Nodes {
			changed = r.scanVars(c, at) || changed
		}
	case *parse.ActionNode:
		decl(n.Pipe)
	case *parse.IfNode:
		decl(n.Pipe)
		changed = r.scanVars(n.List, at) || changed
		changed = r.scanVars(n.ElseList, at) || changed
	case *parse.WithNode:
		decl(n.Pipe)
		changed = r.scanVars(n.List, r.inner(n.Pipe, at)) || changed
		changed = r.scanVars(n.ElseList, at) || changed
	case *parse.RangeNode:
		in := r.inner(n.Pipe, at)
		if d := n.Pipe.Decl; len(d) > 0 {
			mark(d[len(d)-1], !in.scalar && !in.plain) // the item; with two, the first is an index or a key
		}
		changed = r.scanVars(n.List, in) || changed
		changed = r.scanVars(n.ElseList, at) || changed
	}
	return changed
}

// truthDot says what dot is where a pipeline is: as for the printer (dotAt), and whether it holds no record.
type truthDot struct {
	dotAt
	scalar bool
}

type truthRewriter struct {
	scalars, plain map[string]bool
	// vars holds the template variables that may hold a record (see rewriteTruth); one not in it holds none.
	vars map[string]bool
}

func (r truthRewriter) walk(n parse.Node, at truthDot) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			r.walk(c, at)
		}
	case *parse.ActionNode:
		r.pipe(n.Pipe, at)
	case *parse.IfNode:
		r.test(n.Pipe, at)
		r.walk(n.List, at)
		r.walk(n.ElseList, at)
	case *parse.WithNode:
		r.test(n.Pipe, at)
		r.walk(n.List, r.inner(n.Pipe, at))
		r.walk(n.ElseList, at)
	case *parse.RangeNode:
		r.pipe(n.Pipe, at)
		r.walk(n.List, r.inner(n.Pipe, at))
		r.walk(n.ElseList, at)
	}
}

// inner is what dot is inside a with or range of pipeline p: its value, or each of its items.
func (r truthRewriter) inner(p *parse.PipeNode, at truthDot) truthDot {
	in := truthDot{dotAt: dotAt{plain: plainSource(p, at.dotAt, r.plain)}}
	if p == nil {
		return in
	}
	cmds := p.Cmds
	if n := len(cmds); n > 1 && len(cmds[n-1].Args) > 0 && isIdent(cmds[n-1].Args[0], rangeFunc) {
		cmds = cmds[:n-1] // the range budget (rewriteRanges), which gives the items as they are
	}
	in.scalar = len(cmds) == 1 && len(cmds[0].Args) == 1 && !r.mayBeRecord(cmds[0].Args[0], at)
	return in
}

// test rewrites the pipeline of an if or a with.
func (r truthRewriter) test(p *parse.PipeNode, at truthDot) {
	r.pipe(p, at)
	if p != nil && len(p.Cmds) > 0 && r.mayGiveRecord(p, at) {
		p.Cmds = append(p.Cmds, truthCommand(p.Position()))
	}
}

// pipe rewrites the arguments of and and or in a pipeline, and in the pipelines inside it.
func (r truthRewriter) pipe(p *parse.PipeNode, at truthDot) {
	if p == nil {
		return
	}
	for _, c := range p.Cmds {
		for i, a := range c.Args {
			switch a := a.(type) {
			case *parse.PipeNode:
				r.pipe(a, at)
			case *parse.ChainNode:
				if sub, ok := a.Node.(*parse.PipeNode); ok {
					r.pipe(sub, at)
				}
			}
			if i > 0 && (isIdent(c.Args[0], "and") || isIdent(c.Args[0], "or")) && r.mayBeRecord(a, at) {
				c.Args[i] = &parse.PipeNode{NodeType: parse.NodePipe, Pos: a.Position(), Cmds: []*parse.CommandNode{
					{NodeType: parse.NodeCommand, Pos: a.Position(), Args: []parse.Node{a}},
					truthCommand(a.Position()),
				}}
			}
		}
	}
}

func truthCommand(pos parse.Pos) *parse.CommandNode {
	return &parse.CommandNode{NodeType: parse.NodeCommand, Pos: pos, Args: []parse.Node{parse.NewIdentifier(truthFunc).SetPos(pos)}}
}

// mayGiveRecord reports whether a pipeline's value may be, or hold, a record: what its last command gives.
func (r truthRewriter) mayGiveRecord(p *parse.PipeNode, at truthDot) bool {
	piped := false // whether the value the previous command gives may be, or hold, a record
	for _, c := range p.Cmds {
		piped = r.commandGivesRecord(c, at, piped)
	}
	return piped
}

// commandGivesRecord reports whether a command's value may be, or hold, a record; piped is whether the value
// piped into it may.
func (r truthRewriter) commandGivesRecord(c *parse.CommandNode, at truthDot, piped bool) bool {
	if len(c.Args) == 0 {
		return false
	}
	id, ok := c.Args[0].(*parse.IdentifierNode)
	switch {
	case !ok:
		return len(c.Args) == 1 && r.mayBeRecord(c.Args[0], at)
	case id.Ident == "call":
		return true
	case !givesPart[id.Ident]:
		return false // a text, a bool, an int, a list of texts
	}
	for _, a := range c.Args[1:] {
		if r.mayBeRecord(a, at) {
			return true
		}
	}
	return piped
}

// mayBeRecord reports whether an argument may be, or hold, a record: it is not a literal, a variable whose value
// holds none, or dot where it holds none.
func (r truthRewriter) mayBeRecord(n parse.Node, at truthDot) bool {
	switch n := n.(type) {
	case *parse.StringNode, *parse.NumberNode, *parse.BoolNode, *parse.NilNode:
		return false
	case *parse.IdentifierNode:
		return n.Ident == "call" // a function called with no argument: of the others, none gives a record
	case *parse.PipeNode:
		return len(n.Cmds) > 0 && r.mayGiveRecord(n, at)
	case *parse.DotNode:
		return !at.scalar && !at.plain
	case *parse.FieldNode:
		return !(at.top && len(n.Ident) == 1 && r.holdsNone(n.Ident[0]))
	case *parse.VariableNode:
		switch {
		case n.Ident[0] == "$" && len(n.Ident) == 2:
			return !r.holdsNone(n.Ident[1]) // $.name
		case n.Ident[0] != "$" && len(n.Ident) == 1:
			return r.vars[n.Ident[0]] // $x
		}
	}
	return true
}

// holdsNone reports whether variable name's value holds no record.
func (r truthRewriter) holdsNone(name string) bool {
	return name == "task" || r.scalars[name] || r.plain[name]
}
