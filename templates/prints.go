package templates

import "text/template/parse"

// What actions print, for the compiler's check that nothing prints a list or a record whole (docs/reference.md,
// "Bodies: the template language"): fmt would write it as Go syntax ([a b], map[n:x]), each value in it escaped. The
// printer refuses one when it runs (printChecked); the analysis finds those it can tell from the source, so that
// they are compile errors at their place.

// PrintUse is a value that an action prints whole, or that is handed whole to a function that formats its
// arguments (print, printf, println, html, js, urlquery), where the analysis can tell what it is: variable Var, or
// its nested field Path; an item of it (Item: inside a range over it, or from first, last or index); or the data
// as a whole (Data: {{.}} where dot is the data). Whether that is a list or a record is for the compiler to judge.
type PrintUse struct {
	Var, Path  string
	Item, Data bool
	// Func is the formatting function the value is handed to, "" when the action prints it.
	Func string
	// Off and End are the bytes of the body text of the action's pipeline, or of the argument handed to Func.
	Off, End int
}

// formatFuncs are the functions that format their arguments with fmt.
var formatFuncs = map[string]bool{"print": true, "printf": true, "println": true, "html": true, "js": true, "urlquery": true}

// printedAction records what a printing action prints, when the analysis follows its pipeline.
func (a *analyzer) printedAction(n *parse.ActionNode, cur dots) {
	i := actionAt(a.actions, int(n.Pos))
	if i < 0 {
		return
	}
	off, end := a.actions[i].start+2, a.actions[i].end-2 // inside {{ and }}
	if end-off >= 2 && a.text[off] == '-' && isSpaceByte(a.text[off+1]) {
		off++
	}
	for off < end && isSpaceByte(a.text[off]) {
		off++
	}
	if end-off >= 2 && a.text[end-1] == '-' && isSpaceByte(a.text[end-2]) {
		end--
	}
	for end > off && isSpaceByte(a.text[end-1]) {
		end--
	}
	a.printUses(a.eval(n.Pipe, cur), "", off, end)
}

// formatArgs records the arguments of a call of a formatting function that the analysis follows.
func (a *analyzer) formatArgs(cmd *parse.CommandNode, cur dots) {
	if len(cmd.Args) < 2 {
		return
	}
	id, ok := cmd.Args[0].(*parse.IdentifierNode)
	if !ok || !formatFuncs[id.Ident] {
		return
	}
	for _, arg := range cmd.Args[1:] {
		off := int(arg.Position())
		if f, isField := arg.(*parse.FieldNode); isField && len(f.Ident) > 1 {
			off -= 1 + len(f.Ident[0]) // text/template places .x.y at its second field
		}
		off, end := a.clamp(off, off+len(arg.String()))
		a.printUses(a.evalNode(arg, cur), id.Ident, off, end)
	}
}

func (a *analyzer) printUses(vals dots, fn string, off, end int) {
	for _, d := range vals {
		u := PrintUse{Var: d.name, Path: d.path, Func: fn, Off: off, End: end}
		switch d.kind {
		case dotData:
			u.Data = true
		case dotItem:
			u.Item = true
		}
		a.uses.Prints = append(a.uses.Prints, u)
	}
}

// evalCall returns what a call of a function that gives one of its arguments back, or a part of one, gives: the
// union of default's and or's arguments, and's last; for slice, its list; for index with a number, an item of a
// variable; nil for any other. piped is the value piped into the call, when hasPiped.
func (a *analyzer) evalCall(c *parse.CommandNode, cur, piped dots, hasPiped bool) dots {
	id, ok := c.Args[0].(*parse.IdentifierNode)
	if !ok {
		return nil
	}
	args := c.Args[1:]
	switch id.Ident {
	case "and":
		// The last argument, when it gives one that holds: the others only when they do not.
		if hasPiped {
			return piped
		}
		if len(args) > 0 {
			return a.evalNode(args[len(args)-1], cur)
		}
	case "default", "or":
		var out dots
		for _, arg := range args {
			out = out.union(a.evalNode(arg, cur))
		}
		if hasPiped {
			out = out.union(piped)
		}
		return out
	case "slice":
		if len(args) > 0 {
			return a.evalNode(args[0], cur)
		}
		if hasPiped {
			return piped
		}
	case "index":
		if len(args) != 2 {
			return nil
		}
		if _, number := args[1].(*parse.NumberNode); !number {
			return nil
		}
		var out dots
		for _, d := range a.evalNode(args[0], cur) {
			if d.kind == dotVar {
				out = append(out, dot{kind: dotItem, name: d.name, path: d.path})
			}
		}
		return out
	}
	return nil
}
