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

// notTruth is text/template's not with promptc's truth.
func notTruth(v any) bool { return !truth(v) }

// withTruth adds the functions of this file to a function map: not, and the function rewriteTruth calls.
func withTruth(m map[string]any) map[string]any {
	m["not"] = notTruth
	m[truthFunc] = truthValue
	return m
}

// mayGiveRecord lists the functions whose result may be a record: the collection functions that pick one, and those
// that give one of their arguments back.
var mayGiveRecord = map[string]bool{"first": true, "last": true, "index": true, "default": true, "and": true, "or": true,
	"call": true, truthFunc: false}

// rewriteTruth makes text/template's truth promptc's: the pipeline of every if and with that may give a record ends
// with truthFunc, and so does every argument of and and or that may be one (they test each argument, and give one
// back). plain names the variables whose values print as they are (Consts.Plain): none of them is a record.
func rewriteTruth(n parse.Node, plain map[string]bool) {
	var walk func(n parse.Node, at dotAt)
	var pipe func(p *parse.PipeNode, at dotAt)
	pipe = func(p *parse.PipeNode, at dotAt) {
		if p == nil {
			return
		}
		for _, c := range p.Cmds {
			for i, a := range c.Args {
				switch a := a.(type) {
				case *parse.PipeNode:
					pipe(a, at)
				case *parse.ChainNode:
					if sub, ok := a.Node.(*parse.PipeNode); ok {
						pipe(sub, at)
					}
				}
				if i > 0 && (isIdent(c.Args[0], "and") || isIdent(c.Args[0], "or")) && mayBeRecord(a, at, plain) {
					c.Args[i] = &parse.PipeNode{NodeType: parse.NodePipe, Pos: a.Position(), Cmds: []*parse.CommandNode{
						{NodeType: parse.NodeCommand, Pos: a.Position(), Args: []parse.Node{a}},
						truthCommand(a.Position()),
					}}
				}
			}
		}
	}
	test := func(p *parse.PipeNode, at dotAt) {
		pipe(p, at)
		if p != nil && len(p.Cmds) > 0 && mayGiveRecordPipe(p, at, plain) {
			p.Cmds = append(p.Cmds, truthCommand(p.Position()))
		}
	}
	walk = func(n parse.Node, at dotAt) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				walk(c, at)
			}
		case *parse.ActionNode:
			pipe(n.Pipe, at)
		case *parse.IfNode:
			test(n.Pipe, at)
			walk(n.List, at)
			walk(n.ElseList, at)
		case *parse.WithNode:
			test(n.Pipe, at)
			walk(n.List, dotAt{plain: plainSource(n.Pipe, at, plain)})
			walk(n.ElseList, at)
		case *parse.RangeNode:
			pipe(n.Pipe, at)
			walk(n.List, dotAt{plain: plainSource(n.Pipe, at, plain)})
			walk(n.ElseList, at)
		}
	}
	walk(n, dotAt{top: true})
}

func truthCommand(pos parse.Pos) *parse.CommandNode {
	return &parse.CommandNode{NodeType: parse.NodeCommand, Pos: pos, Args: []parse.Node{parse.NewIdentifier(truthFunc).SetPos(pos)}}
}

// mayGiveRecordPipe reports whether a pipeline's value may be a record: its last command is not a literal, a plain
// variable or a call of a function that never gives one.
func mayGiveRecordPipe(p *parse.PipeNode, at dotAt, plain map[string]bool) bool {
	last := p.Cmds[len(p.Cmds)-1]
	if len(last.Args) == 0 {
		return false
	}
	if id, ok := last.Args[0].(*parse.IdentifierNode); ok {
		return mayGiveRecord[id.Ident]
	}
	return len(last.Args) == 1 && mayBeRecord(last.Args[0], at, plain)
}

// mayBeRecord reports whether an argument may be a record.
func mayBeRecord(n parse.Node, at dotAt, plain map[string]bool) bool {
	switch n := n.(type) {
	case *parse.StringNode, *parse.NumberNode, *parse.BoolNode, *parse.NilNode:
		return false
	case *parse.IdentifierNode:
		return mayGiveRecord[n.Ident]
	case *parse.PipeNode:
		return len(n.Cmds) > 0 && mayGiveRecordPipe(n, at, plain)
	}
	return !authorArg(n, at, plain)
}
