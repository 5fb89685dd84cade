package templates

import (
	"fmt"
	"iter"
	"math"
	"net/url"
	"reflect"
	"strconv"
	"text/template"
	"text/template/parse"
)

// A body with a range is bounded in work, not only in output: {{range 100000}}{{range 100000}}{{end}}{{end}}
// writes nothing and {{range 9223372036854775807}}{{end}} would run for centuries. text/template has no hook to
// count iterations, so Parse rewrites every range pipeline P into P | rangeFunc OFF DECLS BREAKS WEIGHT: a function
// bound per execution (see Execute) that draws the range's work from the execution's budget of MaxSteps. Each
// iteration costs the range's weight, 1 plus the number of nodes its body walks (not counting the bodies of the
// ranges inside it, which draw their own), so that the budget bounds time however large a loop's body is.
//
// A range's work is drawn before the loop starts wherever that is exact, and the value goes on to the range as it
// was, so text/template iterates it as before (order, index, else) and at its own speed: for a list or table,
// whose items already exist, its whole length; for an integer N that fits what is left, N; for an integer over
// what is left, the execution fails there and then, unless the range's body holds a {{break}} of its own. Only
// such a loop, which may end early, gets an iter.Seq[int] that draws one iteration at a time (through reflection,
// so at lazyCost more steps each); when the budget runs out inside it, the sequence panics with a
// template.ExecError, which text/template's Execute recovers into its returned error (it re-panics anything else).
// The rewrite runs after the body is analysed, so the added command is invisible to Uses.
//
// Since the added command is the last one text/template evaluates before iterating, an error it would raise about
// the value ("range can't iterate over …") would name the command's last argument as its context; rangeOver
// raises those errors itself, at the range action.

const (
	// MaxSteps is how much loop work one execution of a body may do, all its ranges together: iterations times the
	// weight of each (see above). An empty loop's iteration costs one step.
	MaxSteps = 1 << 20
	// MaxWork is how many bytes the function results of one execution of a body with a range may add up to:
	// each result is at most MaxOutput, and a loop must not build one after another without end.
	MaxWork = 16 * MaxOutput
	// lazyCost is what an iteration drawn one at a time costs on top of its weight: through reflection, it takes
	// about as long as ten steps of a plain loop.
	lazyCost = 10
)

// rangeFunc is the name of the function the rewrite adds to each range pipeline. It is in no parse-time function
// map, so a body cannot call it.
const rangeFunc = "promptcRange"

// execState is the budget of one execution.
type execState struct {
	steps int // left
	bytes int // left
}

func newExecState() *execState { return &execState{steps: MaxSteps, bytes: MaxWork} }

// work charges n bytes of function results.
func (st *execState) work(n int) error {
	st.bytes -= n
	if st.bytes < 0 {
		return fmt.Errorf("the body's functions produce more than %d MiB in all; a template loop is probably running away", MaxWork>>20)
	}
	return nil
}

// rangeError is an error about the range action starting at byte off: the budget ran out (msg empty), or the
// value cannot be iterated as asked.
type rangeError struct {
	off int
	msg string
}

func (e *rangeError) Error() string {
	if e.msg != "" {
		return e.msg
	}
	return fmt.Sprintf("the body's loops run more than %d steps (iterations, each weighted by the actions it runs); a template loop is probably running away", MaxSteps)
}

// rangeOver is rangeFunc: it passes the value a range iterates, drawing its work from the budget. off is the byte
// offset of the range action, decls how many variables it declares, breaks 1 when its body holds a break, weight
// what one iteration costs.
func (f *funcs) rangeOver(off, decls, breaks, weight int, v any) (any, error) {
	if sp := f.sp; sp != nil && sp.s.pt.kind == spliceRange && sp.s.pt.off == off {
		return sp.rangeOver(f, off, decls, breaks, weight, v) // a Shrink's splice point
	}
	return f.rangeBudget(off, decls, breaks, weight, v)
}

// rangeBudget is rangeOver anywhere but at a Shrink's splice point.
func (f *funcs) rangeBudget(off, decls, breaks, weight int, v any) (any, error) {
	st := f.st
	if d, ok := v.(Dict); ok {
		return f.rangeDict(off, decls, weight, d)
	}
	rv := reflect.ValueOf(v)
	var n int64
	switch rv.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		if rv.Len() > st.steps/weight {
			return nil, &rangeError{off: off}
		}
		st.steps -= rv.Len() * weight
		return v, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n = rv.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n = int64(min(rv.Uint(), math.MaxInt64))
	case reflect.Invalid, reflect.Chan, reflect.Func:
		return v, nil // nothing to iterate, or a value no prepared data holds: text/template decides
	default:
		return nil, &rangeError{off: off, msg: "range can't iterate over " + describe(v)}
	}
	if decls > 1 {
		return nil, &rangeError{off: off, msg: fmt.Sprintf("can't use %d to iterate over more than one variable", n)}
	}
	if n <= 0 {
		return v, nil
	}
	if n <= int64(st.steps/weight) {
		st.steps -= int(n) * weight
		return v, nil
	}
	if breaks == 0 {
		return nil, &rangeError{off: off} // every iteration would run
	}
	return iter.Seq[int](func(yield func(int) bool) {
		for i := 0; ; i++ { // i never reaches n: n is over the budget
			if st.steps < weight+lazyCost {
				panic(template.ExecError{Name: f.name, Err: &rangeError{off: off}})
			}
			st.steps -= weight + lazyCost
			if !yield(i) {
				return
			}
		}
	}), nil
}

// rewriteRanges appends the budget command to the pipeline of every range in the tree. actionStart gives the byte
// offset of the action holding a node's position, which budget errors point at.
func rewriteRanges(n parse.Node, actionStart func(pos int) int) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			rewriteRanges(c, actionStart)
		}
	case *parse.IfNode:
		rewriteRanges(n.List, actionStart)
		rewriteRanges(n.ElseList, actionStart)
	case *parse.WithNode:
		rewriteRanges(n.List, actionStart)
		rewriteRanges(n.ElseList, actionStart)
	case *parse.RangeNode:
		off := actionStart(int(n.Pos))
		number := func(v int) *parse.NumberNode {
			return &parse.NumberNode{NodeType: parse.NodeNumber, Pos: n.Pos, IsInt: true, Int64: int64(v), Text: strconv.Itoa(v)}
		}
		cmd := &parse.CommandNode{NodeType: parse.NodeCommand, Pos: n.Pos, Args: []parse.Node{
			parse.NewIdentifier(rangeFunc).SetPos(n.Pos), number(off), number(len(n.Pipe.Decl)), number(breaks(n.List)),
			number(1 + weight(n.List)),
		}}
		n.Pipe.Cmds = append(n.Pipe.Cmds, cmd)
		rewriteRanges(n.List, actionStart)
		rewriteRanges(n.ElseList, actionStart)
	}
}

// breaks returns 1 when a range body holds a break of its own (not one of a range inside it), and 0 otherwise.
func breaks(n parse.Node) int {
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil {
			for _, c := range n.Nodes {
				if breaks(c) == 1 {
					return 1
				}
			}
		}
	case *parse.BreakNode:
		return 1
	case *parse.IfNode:
		return max(breaks(n.List), breaks(n.ElseList))
	case *parse.WithNode:
		return max(breaks(n.List), breaks(n.ElseList))
	}
	return 0
}

// weight is what one walk of n costs in steps, each about what a plain loop's iteration costs (40 ns), so that
// MaxSteps bounds time whatever the body: the nodes it evaluates, weighted by what they do, not counting the
// bodies of ranges (which draw their own iterations); an if counts both its branches.
func weight(n parse.Node) int {
	switch n := n.(type) {
	case *parse.ListNode:
		w := 0
		if n != nil {
			for _, c := range n.Nodes {
				w += weight(c)
			}
		}
		return w
	case *parse.ActionNode:
		return 1 + pipeWeight(n.Pipe)
	case *parse.IfNode:
		return 1 + pipeWeight(n.Pipe) + weight(n.List) + weight(n.ElseList)
	case *parse.WithNode:
		return 1 + pipeWeight(n.Pipe) + weight(n.List) + weight(n.ElseList)
	case *parse.RangeNode:
		return 1 + pipeWeight(n.Pipe) + weight(n.ElseList)
	case *parse.TextNode:
		return 2 // a write
	}
	return 0
}

// pipeWeight weighs a pipeline's commands, parenthesised pipelines included: a command costs one step, and one
// more for each field it reads after the first, and a function call (through reflection) several, see callWeight.
func pipeWeight(p *parse.PipeNode) int {
	if p == nil {
		return 0
	}
	w := 0
	for _, c := range p.Cmds {
		w++
		if len(c.Args) > 0 {
			if id, ok := c.Args[0].(*parse.IdentifierNode); ok {
				w += callWeight(id.Ident)
			}
		}
		for _, a := range c.Args {
			switch a := a.(type) {
			case *parse.PipeNode:
				w += pipeWeight(a)
			case *parse.FieldNode:
				w += len(a.Ident) - 1
			case *parse.VariableNode:
				w += len(a.Ident) - 1
			case *parse.ChainNode:
				w += len(a.Field)
			}
		}
	}
	return w
}

// callWeight is what calling a function costs in steps beyond the command's own, measured against a plain loop's
// iteration (about 40 ns): a call through reflection takes about 400 ns, formatting and encoding more.
func callWeight(name string) int {
	switch name {
	case "json":
		return 60
	case "printf", "print", "println", "html", "js", "urlquery", "quote", "bullets", "join":
		return 15
	}
	return 10
}

// urlQueryEscape is text/template's urlquery escaping.
func urlQueryEscape(s string) string { return url.QueryEscape(s) }

// mibAtLeast formats a size that is known only to be at least n bytes (n < 0: too large to count).
func mibAtLeast(n int) string {
	if n < 0 {
		return "more than " + mib(MaxOutput)
	}
	return "at least " + mib(n)
}
