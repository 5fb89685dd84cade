package templates

import (
	"sort"
	"strconv"
	"text/template"
	"text/template/parse"
	"unsafe"

	"github.com/promptc/promptc/source"
)

// Piece is a part of a body's output and the part of the body's source that wrote it: literal text, written as it
// stands in the source, or the output of one printing action.
type Piece struct {
	Start, End int // the output bytes [Start, End)
	// Src and SrcEnd are bytes of the body's source: for text, where the piece's own bytes are written (Src+i
	// wrote output byte Start+i); for an action, the whole action, "{{" to "}}".
	Src, SrcEnd int
	Action      bool
}

// traceMark is the name of the function Trace appends to every printing action's pipeline: it passes the value on
// and notes which action is about to print it. It is in no other function map, so no body can call it.
const traceMark = "promptcTraceMark"

// Trace executes the body as Execute does and also returns its source map: the pieces of the untrimmed output, in
// order, each with the source that wrote it. Output written by neither (none today) is in no piece. Execute stays
// free of this bookkeeping: Trace costs a copy of the parse tree and a template of its own per call, and is meant
// for the few bytes a report or an explanation asks about, not for every rendering.
func (b *Body) Trace(data map[string]any, env Env) (string, []Piece, *source.Diagnostic) {
	if b.Static || b.tmpl == nil {
		// The output is the body's literal text, as its literals spell it.
		var pieces []Piece
		n := 0
		for _, l := range b.Literals {
			if l.Text == "" {
				continue
			}
			pieces = append(pieces, Piece{Start: n, End: n + len(l.Text), Src: l.Off, SrcEnd: l.Off + len(l.Text)})
			n += len(l.Text)
		}
		if n != len(b.output) {
			pieces = nil
		}
		return b.output, pieces, nil
	}
	if b.whole {
		data = withoutPrinted(data)
	}
	tree := b.tmpl.Tree.Copy()
	actions := scanActions(b.Block.Body)
	w := &traceWriter{texts: map[*byte]int{}, pending: -1}
	var acts [][2]int // by mark number: the action's source bytes
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				walk(c)
			}
		case *parse.TextNode:
			if len(n.Text) > 0 {
				w.texts[unsafe.SliceData(n.Text)] = int(n.Pos)
			}
		case *parse.ActionNode:
			if len(n.Pipe.Decl) > 0 || n.Pipe.IsAssign {
				return // declarations and assignments print nothing
			}
			span := [2]int{int(n.Pos), int(n.Pos)}
			if i := actionAt(actions, int(n.Pos)); i >= 0 {
				span = [2]int{actions[i].start, actions[i].end}
			}
			num := len(acts)
			acts = append(acts, span)
			n.Pipe.Cmds = append(n.Pipe.Cmds, &parse.CommandNode{NodeType: parse.NodeCommand, Pos: n.Pos, Args: []parse.Node{
				parse.NewIdentifier(traceMark).SetPos(n.Pos),
				&parse.NumberNode{NodeType: parse.NodeNumber, Pos: n.Pos, IsInt: true, Int64: int64(num), Text: strconv.Itoa(num)},
			}})
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
	walk(tree.Root)

	f := &funcs{name: b.Block.ID, consts: b.consts}
	var marks []valueMark
	f.bind(env, &w.out, &marks)
	fm := f.execMap()
	fm[traceMark] = func(num int, v any) any {
		w.pending = num
		return v
	}
	t, err := template.New(b.Block.ID).Option("missingkey=error").Funcs(fm).AddParseTree(b.Block.ID, tree)
	if err != nil {
		d := b.diag(0, 0, err.Error())
		return "", nil, &d
	}
	if err := t.Execute(w, data); err != nil {
		d := b.execError(err)
		return "", nil, &d
	}
	for i := range w.pieces {
		if p := &w.pieces[i]; p.Action {
			p.Src, p.SrcEnd = acts[p.Src][0], acts[p.Src][1]
		}
	}
	text := w.out.String()
	if mayAssemble(text, b.consts.Tags) {
		// As Run breaks it: each backslash joins the piece holding the byte it stands before.
		var at []int
		if text, at = breakStructure(text, marks, b.consts.Tags); at != nil {
			for i := range w.pieces {
				p := &w.pieces[i]
				p.Start += sort.SearchInts(at, p.Start)
				p.End += sort.SearchInts(at, p.End)
			}
		}
	}
	return text, w.pieces, nil
}

// traceWriter collects a traced execution's output. text/template writes a text node as the node's own byte slice,
// which identifies it, and an action's value in one write right after the action's pipeline (and so its trace mark)
// has run.
type traceWriter struct {
	out     limitedBuilder
	texts   map[*byte]int // a text node's first byte → its offset in the body
	pending int           // the mark of the action whose value is written next; -1 for none
	pieces  []Piece
}

func (w *traceWriter) Write(p []byte) (int, error) {
	start := w.out.Len()
	n, err := w.out.Write(p)
	if err != nil || len(p) == 0 {
		w.pending = -1
		return n, err
	}
	// The builder may have put line feeds before p's text, to keep it from a value above (place).
	piece := Piece{Start: start, End: w.out.Len()}
	if off, ok := w.texts[unsafe.SliceData(p)]; ok {
		piece.Src, piece.SrcEnd = off, off+len(p)
	} else if w.pending >= 0 {
		piece.Src, piece.Action = w.pending, true
	} else {
		w.pending = -1
		return n, nil
	}
	w.pending = -1
	w.pieces = append(w.pieces, piece)
	return n, nil
}

// UsesIn returns the constants, lookup tables and variables a body names between source bytes start and end (an
// action, say), each list in source order: what an action's output can come from.
func (b *Body) UsesIn(start, end int) (consts, tables, vars []string) {
	in := func(off int) bool { return off >= start && off < end }
	u := b.Uses
	for _, c := range u.Consts {
		if in(c.Off) {
			consts = append(consts, c.Name)
		}
	}
	for _, c := range u.Lookups {
		if in(c.Off) {
			tables = append(tables, c.Name)
		}
	}
	seen := map[string]bool{}
	add := func(name string, off int) {
		if in(off) && !seen[name] {
			seen[name] = true
			vars = append(vars, name)
		}
	}
	// Source order across the three lists: a field or an item is a use of the variable ranged over.
	type at struct {
		name string
		off  int
	}
	var all []at
	for _, v := range u.Vars {
		all = append(all, at{v.Name, v.Off})
	}
	for _, v := range u.Fields {
		all = append(all, at{v.Var, v.Off})
	}
	for _, v := range u.Items {
		all = append(all, at{v.Name, v.Off})
	}
	for i := 1; i < len(all); i++ {
		for j := i; j > 0 && all[j].off < all[j-1].off; j-- {
			all[j], all[j-1] = all[j-1], all[j]
		}
	}
	for _, a := range all {
		if a.name != "task" {
			add(a.name, a.off)
		}
	}
	return consts, tables, vars
}
