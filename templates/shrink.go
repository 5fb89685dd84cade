package templates

import (
	"iter"
	"strconv"
	"strings"
	"sync"
	"text/template/parse"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// OmittedLine is the final item of list variable v when n of its items were dropped, as Prepare writes it (its
// omitted text with "{n}" replaced by n, escaped and neutralised like every item), or "" when v has no omitted
// text or n is 0 (ok false). The turn budget, which drops more items after the limits, writes the line again with
// its count. The line is an item as Prepare makes it: a string for a trusted list, else a value of v's trust.
func OmittedLine(v *blocks.Var, n int, markers []string) (line any, ok bool) {
	if v.Omitted == "" || n <= 0 {
		return nil, false
	}
	return finish(v, strings.ReplaceAll(v.Omitted, "{n}", strconv.Itoa(n)), markers), true
}

// The turn budget (docs/reference.md#turn-budget) drops a block's items from the end one at a time and renders the
// block again after each drop: thousands of executions, each as long as the items it keeps, and quadratic in all.
// A Shrink makes each execution after the first as long as the rest of the body: it records one execution, and a
// later one with fewer items splices in what the recorded one wrote for the items they share instead of executing
// them again.
//
// That is exact when the body reads the variable at one place, the splice point: a range over it ({{range .x}},
// with or without variables), or an action printing bullets or join of it ({{bullets .x}}, {{join .x ", "}}), and
// when what comes before the splice point cannot tell the two executions apart. The items an execution keeps are
// the recorded execution's first ones, so the output for each of them is the same bytes if everything it depends
// on is the same: the item and its index, the data but for the variable, and what was executed before it. So the
// body must meet these conditions (splicePointOf checks them on the parse tree, as written, every branch included):
//
//   - nowhere does the body read the data as a whole ({{.}}, $, which could reach any variable) or call dropped
//     with a computed name;
//   - before the splice point, the variable is read only as the whole condition of an if ({{if .x}}: both
//     executions hold at least one item, so both take the same branch), and dropped is not called for it;
//   - the splice point is in no loop (it runs once at most);
//   - a range's body does not read the variable again ($.x), call dropped for it, assign a variable (= rather than
//     :=, which could carry an item's effect into the next), or break (a break makes where a loop stops, and how
//     it draws on the range budget, depend on more than the item);
//   - bullets or join is the only place besides conditions that reads the variable, its separator a literal or a
//     variable, and the action prints its result as it is.
//
// After the splice point anything goes: it is executed, not spliced. The budgets of an execution (MaxOutput, the
// range's MaxSteps and MaxWork) are charged for the spliced items as their execution would have charged them, so
// that an execution that splices fails exactly when the full execution would.

// spliceKind says where a body reads the variable a Shrink splices.
type spliceKind uint8

const (
	spliceRange spliceKind = iota + 1 // a range over it
	spliceList                        // bullets or join of it, printed
)

// splicePoint is where a body reads the variable.
type splicePoint struct {
	kind spliceKind
	off  int // spliceRange: the range action's offset, which the range budget's command passes to rangeOver
}

// splicePoints caches splicePointOf per variable name for a body.
type splicePoints struct {
	mu sync.Mutex
	m  map[string]*splicePoint
}

// splicePoint returns where b reads variable name so that a Shrink can splice there, or nil.
func (b *Body) splicePoint(name string) *splicePoint {
	b.splices.mu.Lock()
	defer b.splices.mu.Unlock()
	if pt, ok := b.splices.m[name]; ok {
		return pt
	}
	var pt *splicePoint
	if !b.Static && b.tmpl != nil && !b.Uses.Data && !b.Uses.DynamicDropped && !b.whole {
		pt = splicePointOf(b.tmpl.Tree.Root, name)
	}
	if b.splices.m == nil {
		b.splices.m = map[string]*splicePoint{}
	}
	b.splices.m[name] = pt
	return pt
}

// splicePointOf finds the splice point of variable name in a body's tree (after Parse's rewrites), checking the
// conditions above, or returns nil.
func splicePointOf(root *parse.ListNode, name string) *splicePoint {
	f := &spliceFinder{name: name}
	f.walk(root, true, false)
	if f.fail {
		return nil
	}
	return f.pt
}

type spliceFinder struct {
	name string
	pt   *splicePoint // found so far
	fail bool
}

// walk visits n in document order, the order in which a body without loops runs; top is set where dot is the
// data, loop inside a range's body.
func (f *spliceFinder) walk(n parse.Node, top, loop bool) {
	if f.fail {
		return
	}
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			f.walk(c, top, loop)
		}
	case *parse.ActionNode:
		f.pipe(n, n.Pipe, top, loop)
	case *parse.IfNode:
		if !f.condition(n.Pipe, top) {
			f.pipe(n, n.Pipe, top, loop)
		}
		f.walk(n.List, top, loop)
		f.walk(n.ElseList, top, loop)
	case *parse.WithNode:
		f.pipe(n, n.Pipe, top, loop)
		f.walk(n.List, false, loop)
		f.walk(n.ElseList, top, loop)
	case *parse.RangeNode:
		f.pipe(n, n.Pipe, top, loop)
		if f.pt != nil && f.pt.kind == spliceRange && f.pt.off == rangeOff(n) {
			f.rangeBody(n.List)
		}
		f.walk(n.List, false, true)
		f.walk(n.ElseList, top, loop)
	}
}

// condition reports whether p is the whole condition of an if reading the variable: {{if .x}}.
func (f *spliceFinder) condition(p *parse.PipeNode, top bool) bool {
	if p != nil && len(p.Cmds) == 2 && len(p.Cmds[1].Args) == 1 && isIdent(p.Cmds[1].Args[0], truthFunc) {
		p = &parse.PipeNode{Decl: p.Decl, Cmds: p.Cmds[:1]} // the test Parse added (rewriteTruth), which prints nothing
	}
	return p != nil && len(p.Decl) == 0 && whole(p) && f.ref(p.Cmds[0].Args[0], top)
}

// pipe looks at the pipeline of node n: a read of the variable there is the splice point if it is the first, a
// dropped call for it before the splice point spoils the body.
func (f *spliceFinder) pipe(n parse.Node, p *parse.PipeNode, top, loop bool) {
	if p == nil {
		return
	}
	refs, dropped := f.reads(p, top)
	if f.pt == nil && dropped {
		f.fail = true
		return
	}
	if refs == 0 {
		return
	}
	if f.pt != nil {
		if f.pt.kind == spliceList {
			f.fail = true // bullets and join are recognised by their list: it must be the only read
		}
		return // after the splice point: executed, not spliced
	}
	if loop || refs != 1 {
		f.fail = true
		return
	}
	switch n := n.(type) {
	case *parse.RangeNode:
		// Parse appended the range budget's command: the pipeline as written is the rest.
		cmds := p.Cmds[:len(p.Cmds)-1]
		if rangeOff(n) < 0 || p.IsAssign || len(cmds) != 1 || len(cmds[0].Args) != 1 || !f.ref(cmds[0].Args[0], top) {
			f.fail = true
			return
		}
		f.pt = &splicePoint{kind: spliceRange, off: rangeOff(n)}
	case *parse.ActionNode:
		if !f.listAction(p, top) {
			f.fail = true
			return
		}
		f.pt = &splicePoint{kind: spliceList}
	default:
		f.fail = true
	}
}

// listAction reports whether p prints bullets or join of the variable as the function gives it.
func (f *spliceFinder) listAction(p *parse.PipeNode, top bool) bool {
	if len(p.Decl) > 0 || p.IsAssign || len(p.Cmds) == 0 {
		return false
	}
	c := p.Cmds[0]
	if len(c.Args) < 2 || !f.ref(c.Args[1], top) {
		return false
	}
	switch {
	case len(c.Args) == 2 && (isIdent(c.Args[0], "bullets") || isIdent(c.Args[0], printingName("bullets"))):
	case len(c.Args) == 3 && (isIdent(c.Args[0], "join") || isIdent(c.Args[0], printingName("join"))):
		switch sep := c.Args[2].(type) {
		case *parse.StringNode:
		case *parse.FieldNode:
			if !top {
				return false
			}
		case *parse.VariableNode:
			if len(sep.Ident) < 2 || sep.Ident[0] != "$" {
				return false
			}
		default:
			return false
		}
	default:
		return false
	}
	for _, c := range p.Cmds[1:] {
		if len(c.Args) != 1 || !isIdent(c.Args[0], printFunc) {
			return false
		}
	}
	return true
}

// rangeBody checks the body of the range that is the splice point.
func (f *spliceFinder) rangeBody(n parse.Node) {
	eachNode(n, func(n parse.Node) {
		switch n := n.(type) {
		case *parse.BreakNode:
			f.fail = true
		case *parse.PipeNode:
			if n.IsAssign {
				f.fail = true
			}
		case *parse.VariableNode:
			if len(n.Ident) >= 2 && n.Ident[0] == "$" && n.Ident[1] == f.name {
				f.fail = true
			}
		case *parse.CommandNode:
			if f.droppedCall(n) {
				f.fail = true
			}
		}
	})
}

// reads counts the reads of the variable in a pipeline, and reports whether it calls dropped for it.
func (f *spliceFinder) reads(p *parse.PipeNode, top bool) (refs int, dropped bool) {
	for _, c := range p.Cmds {
		if f.droppedCall(c) {
			dropped = true
		}
		for _, a := range c.Args {
			switch a := a.(type) {
			case *parse.PipeNode:
				r, d := f.reads(a, top)
				refs, dropped = refs+r, dropped || d
			case *parse.ChainNode:
				if q, ok := a.Node.(*parse.PipeNode); ok {
					r, d := f.reads(q, top)
					refs, dropped = refs+r, dropped || d
				}
			default:
				if f.ref(a, top) {
					refs++
				}
			}
		}
	}
	return refs, dropped
}

// ref reports whether n reads the variable: .x where dot is the data, or $.x.
func (f *spliceFinder) ref(n parse.Node, top bool) bool {
	switch n := n.(type) {
	case *parse.FieldNode:
		return top && n.Ident[0] == f.name
	case *parse.VariableNode:
		return len(n.Ident) >= 2 && n.Ident[0] == "$" && n.Ident[1] == f.name
	}
	return false
}

func (f *spliceFinder) droppedCall(c *parse.CommandNode) bool {
	if len(c.Args) != 2 || !isIdent(c.Args[0], "dropped") {
		return false
	}
	s, ok := c.Args[1].(*parse.StringNode)
	return !ok || s.Text == f.name
}

// rangeOff is the action offset Parse gave a range's budget command, or -1.
func rangeOff(n *parse.RangeNode) int {
	if n.Pipe == nil || len(n.Pipe.Cmds) == 0 {
		return -1
	}
	c := n.Pipe.Cmds[len(n.Pipe.Cmds)-1]
	if len(c.Args) < 2 || !isIdent(c.Args[0], rangeFunc) {
		return -1
	}
	num, ok := c.Args[1].(*parse.NumberNode)
	if !ok || !num.IsInt {
		return -1
	}
	return int(num.Int64)
}

// eachNode calls fn with n and every node under it, pipelines, commands and arguments included.
func eachNode(n parse.Node, fn func(parse.Node)) {
	var under []parse.Node
	switch n := n.(type) {
	case nil:
		return
	case *parse.ListNode:
		if n == nil {
			return
		}
		under = n.Nodes
	case *parse.PipeNode:
		if n == nil {
			return
		}
		for _, c := range n.Cmds {
			under = append(under, c)
		}
	case *parse.CommandNode:
		under = n.Args
	case *parse.ChainNode:
		under = []parse.Node{n.Node}
	case *parse.ActionNode:
		under = []parse.Node{n.Pipe}
	case *parse.IfNode:
		under = []parse.Node{n.Pipe, n.List, n.ElseList}
	case *parse.WithNode:
		under = []parse.Node{n.Pipe, n.List, n.ElseList}
	case *parse.RangeNode:
		under = []parse.Node{n.Pipe, n.List, n.ElseList}
	}
	fn(n)
	for _, u := range under {
		eachNode(u, fn)
	}
}

// Shrink is one recorded execution of a body, which executions with fewer items of one list or records variable
// reuse (see above).
type Shrink struct {
	b    *Body
	name string
	pt   *splicePoint
	out  string // the recorded execution's output
	n    int    // the items it executed
	// spliceRange: pos[i] is where iteration i began in out, steps[i] and work[i] what the range budget had left
	// then (the range's own steps already drawn); index n is the loop's end.
	pos, steps, work []int
	// spliceList: the function's result starts at out[at]; plen[j] is the length of its part for the first j items,
	// raw[j] the sum of the lengths of their text before escaping; sep is what it writes between two items.
	at   int
	plen []int
	raw  []int
	sep  string
}

// Spliced is the output of an execution that spliced: Head, then Mid, which is bytes [MidAt, MidAt+len(Mid)) of the
// recorded execution's output (Shrink.Output), not a copy, then Tail.
type Spliced struct {
	Head, Mid, Tail string
	MidAt           int
}

// String returns the whole output.
func (s Spliced) String() string { return s.Head + s.Mid + s.Tail }

// splice is the state of one execution that a Shrink records (record) or replays: held by the execution's funcs,
// which consult it where the body reaches the splice point.
type splice struct {
	s      *Shrink
	record bool
	list   any  // the variable's value in this execution, which bullets and join recognise
	done   bool // the splice point was reached
	ok     bool // record: the splice point ran to its end, once; replay: the output was spliced
	midAt  int
}

// Shrink executes the body with data, as Execute does, recording for list or records variable name (data[name]) what
// executions with fewer of its items can reuse (Shrink.Execute). It returns nil, having executed nothing, when the
// body's shape does not allow this (see above), and nil when the execution fails or does not reach the variable:
// then such executions are plain ones.
func (b *Body) Shrink(name string, data map[string]any, env Env) *Shrink {
	if b.Static || b.tmpl == nil || env.Mark != nil || env.Lines {
		return nil // a value laying out lines is placed by what stands around it, which a splice does not keep
	}
	pt := b.splicePoint(name)
	if pt == nil {
		return nil
	}
	s := &Shrink{b: b, name: name, pt: pt}
	sp := &splice{s: s, record: true, list: data[name]}
	out, d := b.execute(data, env, false, nil, sp)
	if d != nil || !sp.ok || out.placed {
		return nil // a value laying out lines is placed by what stands around it, which a splice does not keep
	}
	s.out = out.String()
	if mayAssemble(s.out, b.consts.Tags) {
		return nil // structure values may assemble is broken by Run, on the whole output (docs/values.md#markdown-and-structure)
	}
	return s
}

// Output returns the recorded execution's output, untrimmed.
func (s *Shrink) Output() string { return s.out }

// Execute executes the body with data as Execute does, reusing the recorded execution's output for the items
// data[name] shares with it: data must equal the recorded execution's data but for data[name] and what dropped
// says of it, and data[name] must hold the recorded list's first items, the same values in the same order, followed
// by one item of any value (the list may also be empty). It gives the bytes Execute would, and fails when Execute
// would (not necessarily with the same message).
func (s *Shrink) Execute(data map[string]any, env Env) (Spliced, *source.Diagnostic) {
	sp := &splice{s: s, list: data[s.name]}
	out, d := s.b.execute(data, env, false, nil, sp)
	if d != nil {
		return Spliced{}, d
	}
	if !sp.ok {
		return s.whole(out.String(), data, env)
	}
	// The recorded output held no structure to break; its lines are the replay's but where the kept items meet the
	// rest, which is all that needs looking at.
	head := out.pre + out.mid
	seam := head[strings.LastIndexByte(head, '\n')+1:]
	if tail := out.Builder.String(); strings.IndexByte(tail, '\n') >= 0 {
		seam += tail[:strings.IndexByte(tail, '\n')]
	} else {
		seam += tail
	}
	if mayAssemble(seam, s.b.consts.Tags) {
		return s.whole(out.String(), data, env)
	}
	return Spliced{Head: out.pre, Mid: out.mid, MidAt: sp.midAt, Tail: out.Builder.String()}, nil
}

// whole is an execution's output as Run gives it: text, unless structure values assembled in it must be broken.
func (s *Shrink) whole(text string, data map[string]any, env Env) (Spliced, *source.Diagnostic) {
	if !mayAssemble(text, s.b.consts.Tags) {
		return Spliced{Tail: text}, nil
	}
	out, d := s.b.Run(data, env)
	if d != nil {
		return Spliced{}, d
	}
	return Spliced{Tail: out.Text}, nil
}

// listLen returns the length of a list or records value as data holds it.
func listLen(v any) (int, bool) {
	switch l := v.(type) {
	case []string:
		return len(l), true
	case []any:
		return len(l), true
	case []map[string]any:
		return len(l), true
	}
	return 0, false
}

// rangeOver is rangeOver at the splice point: the range's steps are drawn as rangeBudget draws them, then the items
// are iterated as text/template iterates a list, through a sequence that records where each iteration begins, or
// that splices the items shared with the recording and iterates the last item only.
func (sp *splice) rangeOver(f *funcs, off, decls, breaks, weight int, v any) (any, error) {
	n, isList := listLen(v)
	st := f.st
	if !isList || sp.done || st == nil {
		sp.ok = false
		return f.rangeBudget(off, decls, breaks, weight, v)
	}
	sp.done = true
	if n > st.steps/weight {
		return nil, &rangeError{off: off}
	}
	st.steps -= n * weight
	s, out := sp.s, f.p.out
	if sp.record {
		s.n = n
		s.pos, s.steps, s.work = make([]int, n+1), make([]int, n+1), make([]int, n+1)
		return sequence(v, decls, 0, func(i int) {
			s.pos[i], s.steps[i], s.work[i] = out.Len(), st.steps, st.bytes
			sp.ok = i == n
		}), nil
	}
	j := n - 1 // the items to splice: all but the last
	if j <= 0 || j > s.n {
		return v, nil // nothing to reuse (or data that breaks the contract): iterated as it is
	}
	// What iterations 0 to j-1 drew of the budgets when recorded, they draw again: errors come where they would.
	if nested := s.steps[0] - s.steps[j]; nested > st.steps {
		return nil, &rangeError{off: off}
	} else {
		st.steps -= nested
	}
	if err := st.work(s.work[0] - s.work[j]); err != nil {
		return nil, err
	}
	// The output so far and mid are part of the recorded output, which fit in MaxOutput: what is written after
	// them is checked as it is written.
	mid := s.out[s.pos[0]:s.pos[j]]
	return sequence(v, decls, j, func(i int) {
		if i == j {
			out.splice(mid)
			sp.ok, sp.midAt = true, s.pos[0]
		}
	}), nil
}

// sequence returns a sequence of the items of list v from index from on, which text/template ranges over as it
// ranges over the list itself (each item of the list's own type, with its index when the range declares two
// variables), calling before(i) before item i and before(len) at the end.
func sequence(v any, decls, from int, before func(i int)) any {
	switch l := v.(type) {
	case []string:
		return sequenceOf(l, decls, from, before)
	case []any:
		return sequenceOf(l, decls, from, before)
	case []map[string]any:
		return sequenceOf(l, decls, from, before)
	}
	return v
}

func sequenceOf[E any](items []E, decls, from int, before func(i int)) any {
	if decls > 1 {
		return iter.Seq2[int, E](func(yield func(int, E) bool) {
			for i := from; i < len(items); i++ {
				before(i)
				if !yield(i, items[i]) {
					return
				}
			}
			before(len(items))
		})
	}
	return iter.Seq[E](func(yield func(E) bool) {
		for i := from; i < len(items); i++ {
			before(i)
			if !yield(items[i]) {
				return
			}
		}
		before(len(items))
	})
}

// takes reports whether a call of bullets or join with list is the splice point: the first with the variable's
// value, at a body whose splice point is such a call.
func (sp *splice) takes(list any) bool {
	if sp == nil || sp.done || sp.s.pt.kind != spliceList {
		return false
	}
	switch l := list.(type) {
	case []string:
		m, ok := sp.list.([]string)
		return ok && len(l) > 0 && len(l) == len(m) && &l[0] == &m[0]
	case []any:
		m, ok := sp.list.([]any)
		return ok && len(l) > 0 && len(l) == len(m) && &l[0] == &m[0]
	}
	return false
}

// listFunc is bullets or join at the splice point. fn is the function as it is outside splicing, sep what join
// separates with (nil for bullets). Recording, it returns what fn returns and notes the length of each item's part
// of it; replaying, it writes the part for all items but the last as spliced output and returns the rest, which
// the action prints after it.
func (sp *splice) listFunc(f *funcs, name string, fn func(list, sep any) (any, error), list, sep any) (any, error) {
	sp.done = true
	s := sp.s
	// part is what fn gives for its items on their own, computed on the side: it draws nothing (the whole
	// result is charged as the function charges it).
	part := func(its ...any) (string, error) {
		st := f.st
		f.st = nil
		defer func() { f.st = st }()
		var l any = its
		if _, ok := list.([]string); ok {
			strs := make([]string, len(its))
			for i, it := range its {
				strs[i] = it.(string)
			}
			l = strs
		}
		v, err := fn(l, sep)
		if err != nil {
			return "", err
		}
		text, _ := resultTexts(v)
		return text, nil
	}
	rawItem := func(it any) int {
		raw, _, _ := textOf(it)
		if name == "bullets" {
			return len("- ") + len(raw)
		}
		return len(raw)
	}
	rawSep := 1 // bullets: "\n"
	if name == "join" {
		raw, _, _ := textOf(sep)
		rawSep = len(raw)
	}
	if sp.record {
		v, err := fn(list, sep)
		if err != nil {
			return v, err
		}
		items, _ := textList(list) // a []string or a []any of texts (takes)
		text, raw := resultTexts(v)
		parts := make([]string, len(items))
		for i, it := range items {
			if parts[i], err = part(it); err != nil {
				return v, nil // not recorded: the result stands
			}
		}
		between := "\n"
		if name == "join" {
			// What join writes between two items: its separator as escaped.
			two, err := part(items[0], items[0])
			if err != nil || len(two) < 2*len(parts[0]) {
				return v, nil
			}
			between = two[len(parts[0]) : len(two)-len(parts[0])]
		}
		s.n, s.sep, s.at = len(items), between, f.p.out.Len()
		s.plen, s.raw = make([]int, len(items)+1), make([]int, len(items)+1)
		for i, part := range parts {
			s.plen[i+1], s.raw[i+1] = s.plen[i]+len(part), s.raw[i]+rawItem(items[i])
			if i > 0 {
				s.plen[i+1] += len(between)
				s.raw[i+1] += rawSep
			}
		}
		// The parts must make up the result, and their raw lengths its raw text: else nothing is spliced.
		sp.ok = strings.Join(parts, between) == text && (raw < 0 || s.raw[len(items)] == raw)
		return v, nil
	}
	n, _ := listLen(list)
	j := n - 1 // the items to splice: all but the last
	if j <= 0 || j > s.n {
		return fn(list, sep)
	}
	final := itemAt(list, j)
	last, err := part(final)
	if err != nil {
		return fn(list, sep)
	}
	// The result's size, as the function charges it: its text, or the larger of its text and its raw text.
	t := s.plen[j] + len(s.sep) + len(last)
	r := s.raw[j] + rawSep + rawItem(final)
	size := max(t, r)
	if t == 0 {
		size = 0
	}
	if r > MaxOutput || size > MaxOutput {
		return "", f.room(name, max(r, size))
	}
	if f.st != nil {
		if err := f.st.work(size); err != nil {
			return "", err
		}
	}
	// As for a range, the output so far and mid fit; the rest is checked as the action writes it.
	f.p.out.splice(s.out[s.at : s.at+s.plen[j]])
	sp.ok, sp.midAt = true, s.at
	return s.sep + last, nil
}

// itemAt returns item i of a []string or []any.
func itemAt(list any, i int) any {
	if strs, ok := list.([]string); ok {
		return strs[i]
	}
	return list.([]any)[i]
}

// resultTexts returns what a function's result prints and the length of its raw text (-1 when it is not a text).
func resultTexts(v any) (text string, raw int) {
	switch x := v.(type) {
	case string:
		return x, len(x)
	case Mixed:
		return x.text, len(x.raw)
	}
	return "", -1
}
