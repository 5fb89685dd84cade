package templates

import (
	"text/template/parse"
)

// Use is one use of a name in a body: the name, and the bytes [Off, End) of the body text that name it.
type Use struct {
	Name     string
	Off, End int
}

// Uses is what a body depends on, read from its parse tree rather than from any one rendering (§3.7): every
// variable, constant and reference it names, in source order, whether or not the branch holding it runs.
type Uses struct {
	Vars   []Use // .name and $.name
	Consts []Use // const "name" with a literal name
	Refs   []Use // ref "id" with a literal id
	// Task is set when the body reads .task.
	Task bool
	// Data is set when the body uses the data as a whole (. or $ outside range and with), which exposes every
	// variable in scope.
	Data bool
	// DynamicConst and DynamicRef are set when const or ref is called with a computed argument: checked when it runs.
	DynamicConst, DynamicRef bool
}

type analyzer struct {
	uses Uses
	lits []Literal
	// templates holds the offsets of template actions, which promptc refuses.
	templates []int
	text      string
	// aliases holds the template variables bound to the data ({{$d := .}}): $d.x reads variable x. Template
	// variables are scoped, but treating a name as an alias everywhere only finds more uses, never fewer.
	aliases map[string]bool
}

func analyze(tree *parse.Tree, text string) (Uses, []Literal, []int) {
	a := &analyzer{text: text, aliases: map[string]bool{}}
	a.node(tree.Root, false)
	return a.uses, a.lits, a.templates
}

// isData reports whether a pipeline evaluates to the data itself: ., $ or an alias of it, with nothing applied.
func (a *analyzer) isData(p *parse.PipeNode, rebound bool) bool {
	if p == nil || len(p.Cmds) != 1 || len(p.Cmds[0].Args) != 1 {
		return false
	}
	return a.isDataNode(p.Cmds[0].Args[0], rebound)
}

// isDataNode reports whether an argument is the data itself: ., $, an alias of it, or such a pipeline in parentheses.
func (a *analyzer) isDataNode(n parse.Node, rebound bool) bool {
	switch n := n.(type) {
	case *parse.DotNode:
		return !rebound
	case *parse.VariableNode:
		return len(n.Ident) == 1 && (n.Ident[0] == "$" || a.aliases[n.Ident[0]])
	case *parse.PipeNode:
		return a.isData(n, rebound)
	}
	return false
}

// bind records the variables a pipeline declares when it evaluates to the data.
func (a *analyzer) bind(p *parse.PipeNode, rebound bool) {
	if p != nil && len(p.Decl) == 1 && a.isData(p, rebound) {
		a.aliases[p.Decl[0].Ident[0]] = true
	}
}

// node walks a node. rebound is set inside range and with, where dot is no longer the data: there, .x reads a
// field of the current item, not a variable. {{with .}} keeps dot the data.
func (a *analyzer) node(n parse.Node, rebound bool) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			a.node(c, rebound)
		}
	case *parse.TextNode:
		// Trim markers ({{- -}}) shorten a text node: keep it only where it is the source as written.
		off, s := int(n.Pos), string(n.Text)
		if off >= 0 && off+len(s) <= len(a.text) && a.text[off:off+len(s)] == s {
			a.lits = append(a.lits, Literal{off, s})
		}
	case *parse.ActionNode:
		a.bind(n.Pipe, rebound)
		a.pipe(n.Pipe, rebound)
	case *parse.IfNode:
		a.bind(n.Pipe, rebound)
		a.pipe(n.Pipe, rebound)
		a.node(n.List, rebound)
		a.node(n.ElseList, rebound)
	case *parse.RangeNode:
		a.pipe(n.Pipe, rebound)
		a.node(n.List, true)
		a.node(n.ElseList, rebound)
	case *parse.WithNode:
		a.bind(n.Pipe, rebound)
		a.pipe(n.Pipe, rebound)
		a.node(n.List, !a.isData(n.Pipe, rebound))
		a.node(n.ElseList, rebound)
	case *parse.TemplateNode:
		a.templates = append(a.templates, int(n.Pos))
	}
}

func (a *analyzer) pipe(p *parse.PipeNode, rebound bool) {
	if p == nil {
		return
	}
	for _, cmd := range p.Cmds {
		a.command(cmd, rebound)
	}
}

func (a *analyzer) command(cmd *parse.CommandNode, rebound bool) {
	// index . "name" reads variable name, as .name does; with a computed key it may read any of them.
	if len(cmd.Args) >= 3 && isIdent(cmd.Args[0], "index") && a.isDataNode(cmd.Args[1], rebound) {
		if key, ok := cmd.Args[2].(*parse.StringNode); ok {
			a.field(key.Text, int(key.Pos), int(key.Pos)+len(key.Quoted))
		} else {
			a.uses.Data = true
			a.arg(cmd.Args[2], rebound)
		}
		for _, arg := range cmd.Args[3:] {
			a.arg(arg, rebound)
		}
		return
	}
	if len(cmd.Args) > 0 {
		if id, ok := cmd.Args[0].(*parse.IdentifierNode); ok && (id.Ident == "const" || id.Ident == "ref") {
			var lit *parse.StringNode
			if len(cmd.Args) == 2 {
				lit, _ = cmd.Args[1].(*parse.StringNode)
			}
			switch {
			case lit != nil && id.Ident == "const":
				a.uses.Consts = append(a.uses.Consts, Use{lit.Text, int(lit.Pos), int(lit.Pos) + len(lit.Quoted)})
			case lit != nil:
				a.uses.Refs = append(a.uses.Refs, Use{lit.Text, int(lit.Pos), int(lit.Pos) + len(lit.Quoted)})
			case id.Ident == "const":
				a.uses.DynamicConst = true
			default:
				a.uses.DynamicRef = true
			}
		}
	}
	for _, arg := range cmd.Args {
		a.arg(arg, rebound)
	}
}

func (a *analyzer) arg(n parse.Node, rebound bool) {
	switch n := n.(type) {
	case *parse.FieldNode:
		if !rebound {
			a.field(n.Ident[0], int(n.Pos), int(n.Pos)+1+len(n.Ident[0]))
		}
	case *parse.VariableNode:
		if n.Ident[0] == "$" || a.aliases[n.Ident[0]] {
			if len(n.Ident) > 1 {
				a.field(n.Ident[1], int(n.Pos), int(n.Pos)+len(n.Ident[0])+1+len(n.Ident[1]))
			} else {
				a.uses.Data = true
			}
		}
	case *parse.DotNode:
		if !rebound {
			a.uses.Data = true
		}
	case *parse.ChainNode:
		// (.).name reads variable name, as .name does.
		if len(n.Field) > 0 && a.isDataNode(n.Node, rebound) {
			a.field(n.Field[0], int(n.Pos), int(n.Pos)+1+len(n.Field[0]))
			return
		}
		a.arg(n.Node, rebound)
	case *parse.PipeNode:
		a.pipe(n, rebound)
	}
}

func (a *analyzer) field(name string, off, end int) {
	if name == "task" {
		a.uses.Task = true
		return
	}
	end = min(end, len(a.text))
	a.uses.Vars = append(a.uses.Vars, Use{name, off, max(off, end)})
}

func isIdent(n parse.Node, name string) bool {
	id, ok := n.(*parse.IdentifierNode)
	return ok && id.Ident == name
}
