package templates

import (
	"slices"
	"sort"
	"strings"
	"text/template/parse"
)

// UseKind says how a body uses a variable or field, for the rules that depend on where its value can go (the code
// rule of docs/reference.md#trust-levels: a fenced value must be printed by an action that stands alone on its line).
type UseKind uint8

const (
	// UseOther is any use not listed below: an argument to a function, a value assigned to a template variable,
	// the pipeline of a with, a part of a longer pipeline, a field read from it ({{.x.y}}), …
	UseOther UseKind = iota
	// UsePrinted is the whole pipeline of an action that prints the value as it is: {{.x}}, {{$.x}}, {{$d.x}} with
	// $d bound to the data, and inside a range over records {{.f}} or {{$r.f}}.
	UsePrinted
	// UseCondition is the whole pipeline of an if or else if, which prints nothing: {{if .x}}.
	UseCondition
	// UseRange is the whole pipeline of a range, with or without variables: {{range .x}}, {{range $i, $r := .x}}.
	// Its items are printed (or not) by the uses inside the range, which Uses.Fields and Uses.Items list. A rule
	// that knows only printed and condition uses treats it as UseOther.
	UseRange
	// UsePart is a read of a field from the value, {{.ref.url}} for ref: the field read is a use of its own (a
	// FieldUse), judged by its own kind. A rule that does not know it treats it as UseOther.
	UsePart
	// UseTest is an argument of a function that reads only whether it is empty, or its length, and prints nothing
	// of it: not, len and empty anywhere ({{len .repos}}), and and or where their result is only tested
	// ({{if or .repos .others}}, {{if not (and .a .b)}}). No field of a record is read through it. A rule that does
	// not know it treats it as UseOther.
	UseTest
)

func (k UseKind) String() string {
	switch k {
	case UsePrinted:
		return "printed"
	case UseCondition:
		return "condition"
	case UseRange:
		return "range"
	case UsePart:
		return "part"
	case UseTest:
		return "test"
	}
	return "other"
}

// Use is one use of a name in a body: the name, and the bytes [Off, End) of the body text that name it.
type Use struct {
	Name     string
	Off, End int
	// Kind says how a variable is used; it is set for Uses.Vars, Uses.Items and (printed or ranged over) Uses.Consts
	// only (UseOther elsewhere).
	Kind UseKind
	// Alone is set for a printed use whose action stands alone on its line in the body's source: between it and
	// the previous newline (or the start of the body), and between it and the next newline (or the end of the
	// body), there are only spaces, tabs and actions that print nothing (if, else, end, range, with, break,
	// continue, comments, variable declarations and assignments). It is false, conservatively, when a trim marker
	// ({{- or -}}) is on that line or could remove one of the two newlines, and for every use that is not printed.
	Alone bool
}

// FieldUse is a field read from an item of a variable a body ranges over: in {{range .repos}}{{.url}}{{end}} and
// {{range $i, $r := .repos}}{{$r.url}}{{end}}, field url of variable repos; or from a record: {{.ref.url}}, field
// url of variable ref. Path names the nested field the field is read from, when it is one ("owner" in
// {{range .repos}}{{.owner.login}}{{end}}, "ref" for {{range .resources}}{{range .ref.tags}}{{.name}}…). Whether
// repos is a records variable, and url one of its fields, is for the compiler to judge.
type FieldUse struct {
	Var, Name string
	Path      string
	// Item is set when the field is read from an item of a records value (inside a range over it), and clear when
	// it is read from a record value itself.
	Item bool
	// Off and End are the bytes of the body text that name the field: ".url" in {{.url}} and {{$r.url}}.
	Off, End int
	Kind     UseKind
	Alone    bool // as for Use
}

// Uses is what a body depends on, read from its parse tree rather than from any one rendering (docs/reference.md#the-static-scope-rule): every
// variable, field, constant, table, reference and title it names, in source order, whether or not the branch
// holding it runs.
type Uses struct {
	Vars []Use // .name and $.name, anywhere (ranges do not hide $.name)
	// Fields are the fields read from the items of ranged-over variables.
	Fields []FieldUse
	// Items are uses of an item of a ranged-over variable as a whole, or with a computed field name: {{.}},
	// {{json .}}, {{$r}}, {{$x := .}} or {{index . .k}} inside {{range .repos}} (Name is "repos"). Every field of
	// the item, whatever its trust, may reach the output through such a use.
	Items []Use
	// Consts, Refs, Titles and Dropped are the literal arguments of const, ref, title and dropped; Lookups the
	// literal table names of lookup and lookup_table. A const use has Kind UsePrinted when its result is what an
	// action prints ({{const "x"}}), UseRange when it is what a range walks ({{range const "x"}}).
	Consts, Refs, Titles, Lookups, Dropped []Use
	// Tools are the calls of the function tools, which prints the task's tools: a body that calls it depends on the
	// task (unless no tool is gated). Name is "tools".
	Tools []Use
	// Task is set when the body reads .task.
	Task bool
	// TaskUses are where the body reads .task ($.task, index . "task", …), in source order: what makes a body
	// depend on the task, for tools that explain a block's scope. Name is "task".
	TaskUses []Use
	// Data is set when the body uses the data as a whole (. or $ where it is the data), which exposes every
	// variable in scope.
	Data bool
	// The Dynamic flags are set when const, ref, title, lookup or dropped is called with a computed name: it is
	// checked only when it runs.
	DynamicConst, DynamicRef, DynamicTitle, DynamicLookup, DynamicDropped bool
	// Prints are the values that actions print whole, or hand whole to print, printf, …, where the analysis can
	// tell what they are (see PrintUse), in source order.
	Prints []PrintUse
}

// What dot (or a template variable) holds, as far as the analysis can tell.
type dotKind uint8

const (
	dotData dotKind = iota + 1 // the data: variables by name
	dotVar                     // the value of variable name
	dotItem                    // an item of variable name, inside a range over it
)

type dot struct {
	kind dotKind
	name string
	// path is the nested field of variable name that the value (dotVar) or the ranged-over records (dotItem) is,
	// "" for the variable itself: "ref", "owner.repos".
	path string
}

func (d dot) at(field string) string {
	if d.path == "" {
		return field
	}
	return d.path + "." + field
}

// dots is the set of things a value may be; empty when unknown.
type dots []dot

func (d dots) union(e dots) dots {
	out := slices.Clone(d)
	for _, x := range e {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

var dataDot = dots{{kind: dotData}}

type analyzer struct {
	uses Uses
	lits []Literal
	// templates holds the offsets of template actions, which promptc refuses.
	templates []int
	text      string
	// aliases holds what each template variable in scope may hold ($ is always the data). Variables are scoped as
	// text/template scopes them: a control structure's declarations end with it, but an assignment to an outer
	// variable outlives it, so the outer variable may then hold either value.
	aliases map[string]dots
	// actions are the body's actions as written; printing marks those that print (an action node without
	// declarations), the others being control actions, comments and declarations.
	actions  []action
	printing []bool
	hasRange bool
	nest     []control // the actions' control structures, made when first needed
	// dicts is set when the body calls dict or set: its executions keep what they know of the dicts they make
	// (see Dict), and print with a printer that refuses one.
	dicts bool
}

func analyze(tree *parse.Tree, text string, actions []action) *analyzer {
	a := &analyzer{text: text, aliases: map[string]dots{}, actions: actions, printing: make([]bool, len(actions))}
	a.node(tree.Root, dataDot)
	a.alone()
	return a
}

// enter starts a control structure's scope; leave ends it.
func (a *analyzer) enter() map[string]dots {
	saved := make(map[string]dots, len(a.aliases))
	for k, v := range a.aliases {
		saved[k] = v
	}
	return saved
}

func (a *analyzer) leave(saved map[string]dots) {
	for name, v := range a.aliases {
		if old, ok := saved[name]; ok {
			saved[name] = old.union(v)
		}
	}
	a.aliases = saved
}

// bind records what the variables a pipeline declares or assigns hold.
func (a *analyzer) bind(p *parse.PipeNode, vals dots) {
	if p == nil {
		return
	}
	for _, v := range p.Decl {
		name := v.Ident[0]
		if p.IsAssign {
			a.aliases[name] = a.aliases[name].union(vals)
		} else {
			a.aliases[name] = vals
		}
	}
}

// whole reports whether a pipeline is a single argument, such as .x, so that it is the value itself that is
// printed, tested or ranged over.
func whole(p *parse.PipeNode) bool {
	return p != nil && len(p.Cmds) == 1 && len(p.Cmds[0].Args) == 1
}

// node walks a node with dot holding cur.
func (a *analyzer) node(n parse.Node, cur dots) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			a.node(c, cur)
		}
	case *parse.TextNode:
		// Trim markers ({{- -}}) shorten a text node: keep it only where it is the source as written.
		off, s := int(n.Pos), string(n.Text)
		if off >= 0 && off+len(s) <= len(a.text) && a.text[off:off+len(s)] == s {
			a.lits = append(a.lits, Literal{off, s})
		}
	case *parse.ActionNode:
		kind := UseOther
		if len(n.Pipe.Decl) == 0 {
			a.markPrinting(int(n.Pos))
			if whole(n.Pipe) {
				kind = UsePrinted
			}
		}
		a.pipe(n.Pipe, cur, kind)
		a.bind(n.Pipe, a.eval(n.Pipe, cur))
		if len(n.Pipe.Decl) == 0 {
			a.constKind(n.Pipe, UsePrinted)
			a.printedAction(n, cur)
		}
	case *parse.IfNode:
		saved := a.enter()
		kind := UseOther
		if len(n.Pipe.Decl) == 0 {
			kind = UseCondition // a lone argument's use, or a call whose result is only tested: {{if or .a .b}}
		}
		a.pipe(n.Pipe, cur, kind)
		a.bind(n.Pipe, a.eval(n.Pipe, cur))
		a.node(n.List, cur)
		a.node(n.ElseList, cur)
		a.leave(saved)
	case *parse.RangeNode:
		a.hasRange = true
		saved := a.enter()
		kind := UseOther
		if whole(n.Pipe) {
			kind = UseRange
		}
		a.pipe(n.Pipe, cur, kind)
		a.constKind(n.Pipe, UseRange)
		var items dots
		for _, d := range a.eval(n.Pipe, cur) {
			if d.kind == dotVar {
				items = append(items, dot{kind: dotItem, name: d.name, path: d.path})
			}
		}
		switch len(n.Pipe.Decl) {
		case 1:
			a.bind(&parse.PipeNode{Decl: n.Pipe.Decl, IsAssign: n.Pipe.IsAssign}, items)
		case 2:
			a.bind(&parse.PipeNode{Decl: n.Pipe.Decl[:1], IsAssign: n.Pipe.IsAssign}, nil)
			a.bind(&parse.PipeNode{Decl: n.Pipe.Decl[1:], IsAssign: n.Pipe.IsAssign}, items)
		}
		a.node(n.List, items)
		a.node(n.ElseList, cur)
		a.leave(saved)
	case *parse.WithNode:
		saved := a.enter()
		a.pipe(n.Pipe, cur, UseOther)
		inner := a.eval(n.Pipe, cur)
		a.bind(n.Pipe, inner)
		a.node(n.List, inner)
		a.node(n.ElseList, cur)
		a.leave(saved)
	case *parse.TemplateNode:
		a.templates = append(a.templates, int(n.Pos))
	}
}

// eval returns what a pipeline evaluates to, when it is a single argument the analysis follows, or a chain of the
// collection functions over one: where and sortBy give records of the variable they filter or sort, first and last
// one of its items.
func (a *analyzer) eval(p *parse.PipeNode, cur dots) dots {
	if whole(p) {
		return a.evalNode(p.Cmds[0].Args[0], cur)
	}
	if p == nil || len(p.Cmds) == 0 {
		return nil
	}
	var v dots
	for i, c := range p.Cmds {
		if i == 0 && len(c.Args) == 1 {
			v = a.evalNode(c.Args[0], cur)
			continue
		}
		if id, ok := firstIdent(c); !ok || collectionArity[id.Ident] == 0 {
			v = a.evalCall(c, cur, v, i > 0)
			continue
		}
		v = a.collection(c, cur, v, i > 0)
	}
	return v
}

// collectionArity is how many arguments each collection function takes, the list last.
var collectionArity = map[string]int{"where": 3, "whereNot": 3, "whereNotEmpty": 2, "sortBy": 2, "first": 1, "last": 1}

// fieldFirst lists the collection functions whose first argument names a field of the records they are given.
var fieldFirst = map[string]bool{"where": true, "whereNot": true, "whereNotEmpty": true, "sortBy": true}

// collection returns what a call of a collection function gives, from the variable its list holds (the piped value,
// or its last argument).
func (a *analyzer) collection(c *parse.CommandNode, cur, piped dots, hasPiped bool) dots {
	if len(c.Args) == 0 {
		return nil
	}
	id, ok := c.Args[0].(*parse.IdentifierNode)
	if !ok {
		return nil // a field, a variable or a literal first: no function call to follow
	}
	n, known := collectionArity[id.Ident]
	if !known {
		return nil
	}
	var list dots
	switch {
	case len(c.Args)-1 == n:
		list = a.evalNode(c.Args[n], cur)
	case len(c.Args) == n && hasPiped:
		list = piped
	default:
		return nil
	}
	var out dots
	for _, d := range list {
		if d.kind != dotVar {
			continue
		}
		if id.Ident == "first" || id.Ident == "last" {
			d.kind = dotItem
		}
		out = append(out, d)
	}
	return out
}

func (a *analyzer) evalNode(n parse.Node, cur dots) dots {
	switch n := n.(type) {
	case *parse.DotNode:
		return cur
	case *parse.PipeNode:
		return a.eval(n, cur)
	case *parse.VariableNode:
		return a.fieldsOf(a.variable(n.Ident[0]), n.Ident[1:])
	case *parse.FieldNode:
		return a.fieldsOf(cur, n.Ident)
	case *parse.ChainNode:
		return a.fieldsOf(a.evalNode(n.Node, cur), n.Field)
	}
	return nil
}

// variable returns what template variable name holds.
func (a *analyzer) variable(name string) dots {
	if name == "$" {
		return dataDot
	}
	return a.aliases[name]
}

// fieldsOf returns what reading the fields idents from base gives: the variables of the data, and the nested
// fields of their values and items.
func (a *analyzer) fieldsOf(base dots, idents []string) dots {
	out := base
	for _, id := range idents {
		var next dots
		for _, d := range out {
			switch d.kind {
			case dotData:
				next = append(next, dot{kind: dotVar, name: id})
			case dotVar, dotItem:
				next = append(next, dot{kind: dotVar, name: d.name, path: d.at(id)})
			}
		}
		out = next
	}
	return out
}

// chain records reading the fields idents, one after the other, from base: each read but the last is a UsePart of
// what it reads from, the last one has kind. off is where the first field (".x") is written.
func (a *analyzer) chain(base dots, idents []string, off int, kind UseKind) {
	cur := base
	for i, id := range idents {
		k := kind
		if i < len(idents)-1 {
			k = UsePart
		}
		for _, d := range cur {
			a.read(d, id, off, off+1+len(id), k)
		}
		if i == len(idents)-1 {
			break // what the last field holds is not needed
		}
		cur = a.fieldsOf(cur, idents[i:i+1])
		off += 1 + len(id)
	}
}

// pipe walks a pipeline; kind is how a lone argument is used, or for a pipeline of one call, how its result is:
// UseCondition or UseTest when only whether it is empty, or its length, is read (see testFuncs).
func (a *analyzer) pipe(p *parse.PipeNode, cur dots, kind UseKind) {
	if p == nil {
		return
	}
	if len(p.Cmds) != 1 {
		kind = UseOther
	}
	var piped dots // what the commands before this one give, as far as eval follows it
	for i, cmd := range p.Cmds {
		a.command(cmd, cur, kind, piped, i > 0)
		switch {
		case i == len(p.Cmds)-1:
			// nothing is piped on
		case i == 0 && len(cmd.Args) == 1:
			piped = a.evalNode(cmd.Args[0], cur)
		default:
			piped = a.collection(cmd, cur, piped, i > 0)
		}
	}
}

// testFuncs are the functions that read only whether their arguments are empty, or how long they are: an
// argument of theirs is a UseTest, which exposes no field of a record ({{if not .repos}}, {{len .repos}}). and
// and or pass an argument on as their result, so theirs are tests only where that result is one:
// {{if or .repos .others}}, but not {{range or .repos .others}}.
var testFuncs = map[string]bool{"not": true, "len": true, "empty": true}

// named lists the functions whose first argument names something the compiler checks.
func (a *analyzer) named(fn string) (uses *[]Use, dynamic *bool) {
	u := &a.uses
	switch fn {
	case "const":
		return &u.Consts, &u.DynamicConst
	case "ref":
		return &u.Refs, &u.DynamicRef
	case "title":
		return &u.Titles, &u.DynamicTitle
	case "dropped":
		return &u.Dropped, &u.DynamicDropped
	case "lookup", "lookup_table":
		return &u.Lookups, &u.DynamicLookup
	}
	return nil, nil
}

func (a *analyzer) command(cmd *parse.CommandNode, cur dots, kind UseKind, piped dots, hasPiped bool) {
	argKind := kind
	if len(cmd.Args) != 1 {
		argKind = UseOther
	}
	if id, ok := firstIdent(cmd); ok && len(cmd.Args) > 1 {
		test := kind == UseCondition || kind == UseTest
		if testFuncs[id.Ident] || (test && (id.Ident == "and" || id.Ident == "or")) {
			argKind = UseTest
		}
	}
	kind = argKind
	a.formatArgs(cmd, cur)
	// index X "name" reads variable or field name, as .name does; with a computed key it may read any of them.
	if len(cmd.Args) >= 3 && isIdent(cmd.Args[0], "index") {
		if base := a.evalNode(cmd.Args[1], cur); slices.ContainsFunc(base, func(d dot) bool { return d.kind != dotVar }) {
			key, literal := cmd.Args[2].(*parse.StringNode)
			for _, d := range base {
				switch {
				case literal:
					a.read(d, key.Text, int(key.Pos), int(key.Pos)+len(key.Quoted), UseOther)
				case d.kind == dotData:
					a.uses.Data = true
				case d.kind == dotItem:
					a.item(d.name, int(cmd.Args[0].Position()), int(cmd.Args[2].Position()), UseOther)
				}
			}
			if !literal {
				a.arg(cmd.Args[2], cur, UseOther)
			}
			for _, arg := range cmd.Args[3:] {
				a.arg(arg, cur, UseOther)
			}
			return
		}
	}
	if len(cmd.Args) > 0 {
		if id, ok := cmd.Args[0].(*parse.IdentifierNode); ok {
			if uses, dynamic := a.named(id.Ident); uses != nil {
				var lit *parse.StringNode
				if len(cmd.Args) == 2 || (id.Ident == "lookup" && len(cmd.Args) >= 2) {
					lit, _ = cmd.Args[1].(*parse.StringNode)
				}
				switch {
				case id.Ident == "title" && lit == nil:
					// title with any argument but one string literal is the text function title S, which names
					// nothing (docs/reference.md, title).
				case lit != nil:
					*uses = append(*uses, Use{Name: lit.Text, Off: int(lit.Pos), End: int(lit.Pos) + len(lit.Quoted)})
				default:
					*dynamic = true
				}
			}
		}
	}
	// where "FIELD" … (whereNot, whereNotEmpty) and sortBy "FIELD" … read FIELD of the records they are given, as
	// {{.FIELD}} in a range over them does: the compiler checks it is declared.
	if id, ok := firstIdent(cmd); ok && len(cmd.Args) >= 2 && fieldFirst[id.Ident] {
		if lit, ok := cmd.Args[1].(*parse.StringNode); ok {
			var list dots
			switch n := collectionArity[id.Ident]; {
			case len(cmd.Args)-1 == n:
				list = a.evalNode(cmd.Args[n], cur)
			case len(cmd.Args) == n && hasPiped:
				list = piped // {{.issues | sortBy "prio"}}
			}
			for _, d := range list {
				if d.kind == dotVar {
					a.read(dot{kind: dotItem, name: d.name, path: d.path}, lit.Text, int(lit.Pos), int(lit.Pos)+len(lit.Quoted), UseOther)
				}
			}
		}
	}
	for _, arg := range cmd.Args {
		a.arg(arg, cur, kind)
	}
}

// read records reading name from what d holds: a variable of the data, or a field of an item.
func (a *analyzer) read(d dot, name string, off, end int, kind UseKind) {
	off, end = a.clamp(off, end)
	switch d.kind {
	case dotData:
		if name == "task" {
			a.uses.Task = true
			a.uses.TaskUses = append(a.uses.TaskUses, Use{Name: name, Off: off, End: end, Kind: kind})
			return
		}
		a.uses.Vars = append(a.uses.Vars, Use{Name: name, Off: off, End: end, Kind: kind})
	case dotItem, dotVar:
		a.uses.Fields = append(a.uses.Fields, FieldUse{Var: d.name, Path: d.path, Name: name, Item: d.kind == dotItem, Off: off, End: end, Kind: kind})
	}
}

// clamp keeps a span within the body: 0 <= off <= end <= len(text).
func (a *analyzer) clamp(off, end int) (int, int) {
	off = min(max(off, 0), len(a.text))
	return off, min(max(end, off), len(a.text))
}

// item records a use of an item of variable name as a whole.
func (a *analyzer) item(name string, off, end int, kind UseKind) {
	off, end = a.clamp(off, end)
	a.uses.Items = append(a.uses.Items, Use{Name: name, Off: off, End: end, Kind: kind})
}

// wholeUse records a use of what base holds as a whole.
func (a *analyzer) wholeUse(base dots, off, end int, kind UseKind) {
	for _, d := range base {
		switch d.kind {
		case dotData:
			a.uses.Data = true
		case dotItem:
			a.item(d.name, off, end, kind)
		}
	}
}

func (a *analyzer) arg(n parse.Node, cur dots, kind UseKind) {
	switch n := n.(type) {
	case *parse.FieldNode:
		// text/template places a field chain (.x.y) at its second field.
		off := int(n.Pos)
		if len(n.Ident) > 1 {
			off -= 1 + len(n.Ident[0])
		}
		a.chain(cur, n.Ident, off, kind)
	case *parse.VariableNode:
		base := a.variable(n.Ident[0])
		if len(n.Ident) == 1 {
			a.wholeUse(base, int(n.Pos), int(n.Pos)+len(n.Ident[0]), kind)
			return
		}
		// text/template places $v.x at its first field, where the use is: .x, as for {{.x}}.
		a.chain(base, n.Ident[1:], int(n.Pos), kind)
	case *parse.DotNode:
		a.wholeUse(cur, int(n.Pos), int(n.Pos)+1, kind)
	case *parse.ChainNode:
		// (.).name reads variable name, as .name does; inside a range, a field.
		if base := a.evalNode(n.Node, cur); len(n.Field) > 0 && len(base) > 0 {
			for _, d := range base {
				a.read(d, n.Field[0], int(n.Pos), int(n.Pos)+1+len(n.Field[0]), UseOther)
			}
			return
		}
		a.arg(n.Node, cur, UseOther)
	case *parse.PipeNode:
		if kind != UseTest {
			kind = UseOther
		}
		a.pipe(n, cur, kind) // (or .a .b) under not is a test too
	case *parse.IdentifierNode:
		// A function named anywhere in a pipeline is called, first word or not: {{tools}}, {{printf "%s" tools}}.
		switch n.Ident {
		case "tools":
			off, end := a.clamp(int(n.Pos), int(n.Pos)+len(n.Ident))
			a.uses.Tools = append(a.uses.Tools, Use{Name: n.Ident, Off: off, End: end})
		case "dict", "set":
			a.dicts = true
		}
	}
}

// firstIdent returns the function a command calls: its first word, when that is an identifier.
func firstIdent(cmd *parse.CommandNode) (*parse.IdentifierNode, bool) {
	if len(cmd.Args) == 0 {
		return nil, false
	}
	id, ok := cmd.Args[0].(*parse.IdentifierNode)
	return id, ok
}

func isIdent(n parse.Node, name string) bool {
	id, ok := n.(*parse.IdentifierNode)
	return ok && id.Ident == name
}

// actionAt returns the index of the action holding byte pos, or -1.
func actionAt(actions []action, pos int) int {
	i := sort.Search(len(actions), func(i int) bool { return actions[i].start > pos }) - 1
	if i >= 0 && pos < actions[i].end {
		return i
	}
	return -1
}

func (a *analyzer) markPrinting(pos int) {
	if i := actionAt(a.actions, pos); i >= 0 {
		a.printing[i] = true
	}
}

// alone sets Alone on every printed use.
func (a *analyzer) alone() {
	for i := range a.uses.Vars {
		if u := &a.uses.Vars[i]; u.Kind == UsePrinted {
			u.Alone = a.aloneAt(u.Off)
		}
	}
	for i := range a.uses.Items {
		if u := &a.uses.Items[i]; u.Kind == UsePrinted {
			u.Alone = a.aloneAt(u.Off)
		}
	}
	for i := range a.uses.Fields {
		if u := &a.uses.Fields[i]; u.Kind == UsePrinted {
			u.Alone = a.aloneAt(u.Off)
		}
	}
}

// aloneAt reports whether the action holding byte pos stands alone on its line (see Use.Alone).
func (a *analyzer) aloneAt(pos int) bool {
	i := actionAt(a.actions, pos)
	if i < 0 || a.actions[i].ltrim || a.actions[i].rtrim {
		return false
	}
	if a.nest == nil {
		a.nest = nesting(a.actions)
	}
	return a.lineClear(i, -1) && a.lineClear(i, +1)
}

// control is where an action stands in the body's control structures: for an if, range or with, its else actions
// and its end; for an else or an end, the opener it belongs to. Actions that open or close nothing have opener and
// end -1.
type control struct {
	opener, end int
	elses       []int // of an opener
	isRange     bool  // of an opener
}

// nesting pairs the body's control actions.
func nesting(acts []action) []control {
	out := make([]control, len(acts))
	for i := range out {
		out[i] = control{opener: -1, end: -1}
	}
	var stack []int
	for i, act := range acts {
		switch act.keyword {
		case "if", "range", "with", "block", "define":
			out[i].isRange = act.keyword == "range"
			stack = append(stack, i)
		case "else":
			if len(stack) > 0 {
				r := stack[len(stack)-1]
				out[r].elses = append(out[r].elses, i)
				out[i].opener = r
			}
		case "end":
			if len(stack) > 0 {
				r := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				out[r].end, out[i].opener = i, r
			}
		}
	}
	return out
}

// encloses reports whether action i lies inside the structure opened by action r (between r and its end).
func (a *analyzer) encloses(r, i int) bool {
	n := a.nest[r]
	return r < i && n.end > i
}

// branchEnd returns the action that ends the branch of structure r that action i lies in: the next else of r
// after i, else r's end.
func (a *analyzer) branchEnd(r, i int) int {
	for _, x := range a.nest[r].elses {
		if x > i {
			return x
		}
	}
	return a.nest[r].end
}

// branchStart returns the action that starts the branch of structure r that action i lies in: the last else of r
// before i, else r itself.
func (a *analyzer) branchStart(r, i int) int {
	start := r
	for _, x := range a.nest[r].elses {
		if x < i {
			start = x
		}
	}
	return start
}

// lineClear walks from action i in direction dir (-1: back, +1: forward) to the nearest newline of the source
// text that is sure to be written, and reports whether only spaces, tabs and unmarked non-printing actions lie on
// the way, and no trim marker can remove that newline. The walk reads the body as it runs: it leaves the
// structures holding action i through their openers and ends (skipping the branches that do not run with i's),
// and steps over other structures whole, which must then hold only white space and no printing action, their
// newlines not counting (a branch may not run). Leaving a range's body, it also checks the line the body's other
// iterations put the action on: the body's text after its last newline (going back) or before its first (going
// forward) must be clear too, and exist, or one iteration's output runs into the next's on one line.
func (a *analyzer) lineClear(i, dir int) bool {
	return a.walkClear(i, i, dir, false)
}

// walkClear walks from action j (not included) in direction dir on behalf of action origin; inner is set for the
// wrap-around walk inside a range's body, which stops, unclear, at the range's opener or end.
func (a *analyzer) walkClear(origin, j, dir int, inner bool) bool {
	text, acts := a.text, a.actions
	for {
		next := j + dir
		var seg string // the text between action j and action next (or the body's edge)
		switch {
		case dir < 0 && next < 0:
			seg = text[:acts[j].start]
		case dir < 0:
			seg = text[acts[next].end:acts[j].start]
		case next >= len(acts):
			seg = text[acts[j].end:]
		default:
			seg = text[acts[j].end:acts[next].start]
		}
		edge := next < 0 || next >= len(acts)
		if dir < 0 {
			if nl := strings.LastIndexByte(seg, '\n'); nl >= 0 {
				// The newline is removed when action next's -}} trims everything up to it.
				return blank(seg[nl+1:]) && (edge || !acts[next].rtrim || !space(seg[:nl]))
			}
		} else if nl := strings.IndexByte(seg, '\n'); nl >= 0 {
			return blank(seg[:nl]) && (edge || !acts[next].ltrim || !space(seg[nl+1:]))
		}
		if !blank(seg) {
			return false
		}
		if edge {
			return !inner
		}
		if a.printing[next] || acts[next].ltrim || acts[next].rtrim {
			return false
		}
		n, kw := a.nest[next], acts[next].keyword
		switch {
		case (kw == "else" || kw == "end") && n.opener >= 0 && a.encloses(n.opener, origin):
			// Leaving a structure that holds origin: forward past the rest of it (its other branches do not run
			// with origin's), or back over an else to its opener (the branches before do not run either).
			if inner || !a.exitRange(origin, n.opener, dir) {
				return false
			}
			if dir > 0 {
				next = a.nest[n.opener].end
			} else {
				next = n.opener
			}
		case n.end >= 0 && a.encloses(next, origin):
			// The opener of a structure that holds origin, going back.
			if inner || !a.exitRange(origin, next, dir) {
				return false
			}
		case n.end >= 0:
			// A structure beside origin, going forward: stepped over whole.
			if !a.skippable(next, n.end) {
				return false
			}
			next = n.end
		case kw == "end" && n.opener >= 0:
			// A structure beside origin, going back: stepped over whole.
			if !a.skippable(n.opener, next) {
				return false
			}
			next = n.opener
		}
		j = next
	}
}

// exitRange is called as a walk on behalf of origin leaves structure r, which holds it: when origin is in a
// range's body, the body's other iterations must leave origin's line clear too.
func (a *analyzer) exitRange(origin, r, dir int) bool {
	if !a.nest[r].isRange || a.branchStart(r, origin) != r {
		return true // not a range's body: it runs at most once
	}
	if dir < 0 {
		// Before origin, in every iteration but the first: the end of the body.
		return a.walkClear(origin, a.branchEnd(r, origin), -1, true)
	}
	return a.walkClear(origin, r, +1, true)
}

// skippable reports whether the structure from action open to action end holds only white space and actions that
// print nothing, with no trim marker.
func (a *analyzer) skippable(open, end int) bool {
	for k := open; k <= end; k++ {
		if k > open && !isSpaceOnly(a.text[a.actions[k-1].end:a.actions[k].start]) {
			return false
		}
		if a.printing[k] || a.actions[k].ltrim || a.actions[k].rtrim {
			return false
		}
	}
	return true
}

func isSpaceOnly(s string) bool { return strings.Trim(s, " \t\n") == "" }

// blank reports whether s holds only spaces and tabs.
func blank(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '\t' {
			return false
		}
	}
	return true
}

// space reports whether s holds only the white space a trim marker removes.
func space(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isSpaceByte(s[i]) {
			return false
		}
	}
	return true
}
