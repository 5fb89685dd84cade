package templates

import (
	"fmt"
	"text/template/parse"
)

// printFunc is the name of the function Parse appends to every printing action's pipeline: it escapes the action's
// value by its trust (printer.printAny). It is in no parse-time function map, so a body cannot call it.
const printFunc = "promptcPrint"

// blockTitleFunc is what Parse renames title to in a call whose one argument is a string literal: title "id", the
// title of block id. Every other call of title is the text function title S.
const blockTitleFunc = "promptcBlockTitle"

// dictPrintFunc is what printFunc becomes in a body that calls dict or set (funcs.printDict): it prints as
// printFunc does, and refuses a dict, which only such a body can hold. It is in no parse-time function map.
const dictPrintFunc = "promptcPrintDict"

// renamePrints makes every printFunc command under n call dictPrintFunc instead.
func renamePrints(n parse.Node) {
	var pipe func(p *parse.PipeNode)
	var walk func(n parse.Node)
	pipe = func(p *parse.PipeNode) {
		if p == nil {
			return
		}
		for _, c := range p.Cmds {
			if len(c.Args) == 1 && isIdent(c.Args[0], printFunc) {
				c.Args[0] = parse.NewIdentifier(dictPrintFunc).SetPos(c.Args[0].Position())
			}
		}
	}
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			pipe(n.Pipe)
		case *parse.IfNode:
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walk(n.List)
			walk(n.ElseList)
		}
	}
	walk(n)
}

// rewritePrints appends printFunc to the pipeline of every action that prints a value that may need escaping, and
// renames title "id" to blockTitleFunc. plain names the variables whose values print as they are (trusted strings
// and lists, bools, ints): an action that prints only those, literals and the author's text (const, ref, …) needs
// no printer, which costs a function call.
func rewritePrints(n parse.Node, plain map[string]bool) {
	// top is set where dot is the data; plainDot where dot is a plain value: inside a with or range of a plain
	// variable or a list constant (see plainSource).
	var walk func(n parse.Node, top, plainDot bool)
	var command func(c *parse.CommandNode)
	pipe := func(p *parse.PipeNode) {
		if p == nil {
			return
		}
		for _, c := range p.Cmds {
			command(c)
		}
	}
	command = func(c *parse.CommandNode) {
		if len(c.Args) == 2 && isIdent(c.Args[0], "title") {
			if _, lit := c.Args[1].(*parse.StringNode); lit {
				c.Args[0] = parse.NewIdentifier(blockTitleFunc).SetPos(c.Args[0].Position())
			}
		}
		for _, a := range c.Args {
			switch a := a.(type) {
			case *parse.PipeNode:
				pipe(a)
			case *parse.ChainNode:
				if p, ok := a.Node.(*parse.PipeNode); ok {
					pipe(p)
				}
			}
		}
	}
	walk = func(n parse.Node, top, plainDot bool) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				walk(c, top, plainDot)
			}
		case *parse.ActionNode:
			pipe(n.Pipe)
			if len(n.Pipe.Decl) > 0 || n.Pipe.IsAssign {
				return // declarations and assignments print nothing
			}
			if authorPipe(n.Pipe, dotAt{top, plainDot}, plain) {
				return // nothing to escape: text/template prints it as it is
			}
			if fusePrint(n.Pipe) {
				return // the function prints its result
			}
			n.Pipe.Cmds = append(n.Pipe.Cmds, &parse.CommandNode{NodeType: parse.NodeCommand, Pos: n.Pos, Args: []parse.Node{
				parse.NewIdentifier(printFunc).SetPos(n.Pos),
			}})
		case *parse.IfNode:
			pipe(n.Pipe)
			walk(n.List, top, plainDot)
			walk(n.ElseList, top, plainDot)
		case *parse.WithNode:
			pipe(n.Pipe)
			walk(n.List, false, plainSource(n.Pipe, dotAt{top, plainDot}, plain)) // dot is what the pipeline gave
			walk(n.ElseList, top, plainDot)
		case *parse.RangeNode:
			pipe(n.Pipe)
			walk(n.List, false, plainSource(n.Pipe, dotAt{top, plainDot}, plain)) // dot is each item
			walk(n.ElseList, top, plainDot)
		}
	}
	walk(n, true, false)
}

// dotAt says what dot is where a pipeline is: the data (top), a plain value (plain), or neither.
type dotAt struct{ top, plain bool }

// plainSource reports whether the pipeline of a with or range gives a plain value whose items (for range) are plain
// too: a plain variable, dot where it is plain, or a list constant. Other author results are left out: tools gives
// pointers, which text/template prints otherwise than fmt does.
func plainSource(p *parse.PipeNode, at dotAt, plain map[string]bool) bool {
	if p == nil {
		return false
	}
	cmds := p.Cmds
	if n := len(cmds); n > 1 && len(cmds[n-1].Args) > 0 && isIdent(cmds[n-1].Args[0], rangeFunc) {
		cmds = cmds[:n-1] // the range budget (rewriteRanges), which gives the items as they are
	}
	if len(cmds) != 1 || len(cmds[0].Args) == 0 {
		return false
	}
	args := cmds[0].Args
	switch a := args[0].(type) {
	case *parse.FieldNode, *parse.VariableNode, *parse.DotNode:
		return len(args) == 1 && authorArg(a, at, plain)
	case *parse.IdentifierNode:
		if len(args) == 2 && a.Ident == "const" {
			_, lit := args[1].(*parse.StringNode)
			return lit
		}
	}
	return false
}

// authorPipe reports whether a pipeline gives only the author's text, plain values or literals; top is set where
// dot is the data.
func authorPipe(p *parse.PipeNode, top dotAt, plain map[string]bool) bool {
	if p == nil || len(p.Cmds) == 0 {
		return false
	}
	for _, c := range p.Cmds {
		if !authorCommand(c, top, plain) {
			return false
		}
	}
	return true
}

// authorFuncs are the functions whose result is the author's text whatever their arguments, or a bool or an int,
// which print as text/template prints them (printer.printAny writes them with strconv, the same bytes): a
// comparison, len, not, and the tests of docs/reference.md's text functions.
var authorFuncs = map[string]bool{"const": true, "ref": true, blockTitleFunc: true, "tools": true, "dropped": true,
	"len": true, "eq": true, "ne": true, "lt": true, "le": true, "gt": true, "ge": true, "not": true,
	"hasPrefix": true, "hasSuffix": true, "contains": true, "matches": true,
	"add": true, "sub": true, "mul": true, "div": true, "mod": true, "max": true, "min": true,
	"has": true, "hasKey": true, "empty": true}

// givesArgument lists the functions whose result may be a list or a record made of the author's own arguments (a
// trusted list, a lookup table): an action printing one goes through the printer, which refuses it.
var givesArgument = map[string]bool{"slice": true, "default": true, "and": true, "or": true, "lookup_table": true}

func authorCommand(c *parse.CommandNode, top dotAt, plain map[string]bool) bool {
	if len(c.Args) == 0 {
		return false
	}
	if id, ok := c.Args[0].(*parse.IdentifierNode); ok {
		switch {
		case authorFuncs[id.Ident]:
			return true
		case id.Ident == "dict" || id.Ident == "set":
			return false // a dict printed whole is an error, even of the author's text (see Dict)
		case id.Ident == "lookup":
			return len(c.Args) == 3 // an entry; a default may be a value
		case givesArgument[id.Ident]:
			return false // a list or a record is the printer's error (printChecked), even a trusted one
		}
		for _, a := range c.Args[1:] {
			if !authorArg(a, top, plain) {
				return false
			}
		}
		return true // a function of author-only arguments (and piped author-only text)
	}
	return len(c.Args) == 1 && authorArg(c.Args[0], top, plain)
}

func authorArg(n parse.Node, at dotAt, plain map[string]bool) bool {
	switch n := n.(type) {
	case *parse.StringNode, *parse.NumberNode, *parse.BoolNode:
		return true
	case *parse.DotNode:
		return at.plain
	case *parse.FieldNode:
		return at.top && len(n.Ident) == 1 && (n.Ident[0] == "task" || plain[n.Ident[0]])
	case *parse.VariableNode:
		return n.Ident[0] == "$" && len(n.Ident) == 2 && (n.Ident[1] == "task" || plain[n.Ident[1]])
	case *parse.PipeNode:
		return authorPipe(n, at, plain)
	}
	return false
}

// subjectLast lists the functions that take their text (or list) last, sprig's order, with how many arguments
// they take: a call with all of them written out whose last one is a literal while an earlier one is not has them
// in the wrong order ({{replace .x "a" "b"}} for {{.x | replace "a" "b"}}), a compile error.
var subjectLast = map[string]int{
	"replace": 3, "trimPrefix": 2, "trimSuffix": 2, "hasPrefix": 2, "hasSuffix": 2, "contains": 2,
	"regexReplaceAll": 3, "default": 2,
}

// checkCalls checks the calls of the text and collection functions that can be checked from the source alone:
// each regular expression of matches and regexReplaceAll is a string literal that compiles; where and sortBy name
// their field with a string literal; no call has its text before its pattern. It reports the diagnostics in
// source order.
func checkCalls(n parse.Node) []callError {
	var errs []callError
	var pipe func(p *parse.PipeNode)
	var walk func(n parse.Node)
	cmd := func(c *parse.CommandNode) {
		if len(c.Args) == 0 {
			return
		}
		id, ok := c.Args[0].(*parse.IdentifierNode)
		args := c.Args[1:]
		if ok {
			switch id.Ident {
			case "matches", "regexReplaceAll":
				lit, isLit := nthString(args, 0)
				switch {
				case !isLit:
					errs = append(errs, callError{int(id.Pos), int(id.Pos) + len(id.Ident), fmt.Sprintf("%s takes its regular expression first, as a string literal: {{%s \"RE\" %s}}", id.Ident, id.Ident, map[string]string{"matches": "S", "regexReplaceAll": "REPL S"}[id.Ident])})
				default:
					if _, err := compileRegexp(lit.Text); err != nil {
						errs = append(errs, callError{int(lit.Pos), int(lit.Pos) + len(lit.Quoted), fmt.Sprintf("%s: invalid regular expression %s: %v", id.Ident, lit.Quoted, err)})
					}
				}
			case "where", "whereNot", "whereNotEmpty", "sortBy":
				if _, isLit := nthString(args, 0); !isLit {
					form := map[string]string{"where": `where "FIELD" VALUE LIST`, "whereNot": `whereNot "FIELD" VALUE LIST`, "whereNotEmpty": `whereNotEmpty "FIELD" LIST`, "sortBy": `sortBy "FIELD" LIST`}[id.Ident]
					errs = append(errs, callError{int(id.Pos), int(id.Pos) + len(id.Ident), fmt.Sprintf("%s takes the field's name first, as a string literal: {{%s}}", id.Ident, form)})
				}
			}
			if n, ok := subjectLast[id.Ident]; ok && len(args) == n && isLiteral(args[n-1]) {
				for _, a := range args[:n-1] {
					if !isLiteral(a) {
						errs = append(errs, callError{int(id.Pos), int(id.Pos) + len(id.Ident), fmt.Sprintf("%s takes its arguments in sprig's order, the text last (%s): here a literal comes last and a value before it; write {{.x | %s …}}", id.Ident, signatures[id.Ident], id.Ident)})
						break
					}
				}
			}
		}
		for _, a := range args {
			switch a := a.(type) {
			case *parse.PipeNode:
				pipe(a)
			case *parse.ChainNode:
				if p, ok := a.Node.(*parse.PipeNode); ok {
					pipe(p)
				}
			}
		}
	}
	pipe = func(p *parse.PipeNode) {
		if p == nil {
			return
		}
		for _, c := range p.Cmds {
			cmd(c)
		}
	}
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			pipe(n.Pipe)
		case *parse.IfNode:
			pipe(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			pipe(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			pipe(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		}
	}
	walk(n)
	return errs
}

// signatures are the forms the wrong-order diagnostic shows.
var signatures = map[string]string{
	"replace": "replace OLD NEW S", "trimPrefix": "trimPrefix PREFIX S", "trimSuffix": "trimSuffix SUFFIX S",
	"hasPrefix": "hasPrefix PREFIX S", "hasSuffix": "hasSuffix SUFFIX S", "contains": "contains SUB S",
	"regexReplaceAll": "regexReplaceAll RE REPL S", "default": "default D V",
}

// callError is a problem with a call, at bytes [off, end) of the body.
type callError struct {
	off, end int
	msg      string
}

func nthString(args []parse.Node, i int) (*parse.StringNode, bool) {
	if i >= len(args) {
		return nil, false
	}
	s, ok := args[i].(*parse.StringNode)
	return s, ok
}

func isLiteral(n parse.Node) bool {
	switch n.(type) {
	case *parse.StringNode, *parse.NumberNode, *parse.BoolNode:
		return true
	}
	return false
}
