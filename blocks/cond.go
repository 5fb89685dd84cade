package blocks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/promptc/promptc/source"
)

// Cond is a block's when condition (docs/reference.md#gates-and-when), as the loader parses it: a variable, which
// holds when the variable is truthy; the negation of a condition (!); or two or more conditions joined by && (all
// hold) or || (any holds). The grammar, with ! binding tighter than &&, and && tighter than ||, as in Go:
//
//	cond = and { "||" and }
//	and  = not { "&&" not }
//	not  = "!" not | "(" cond ")" | name
//	name = [a-z][a-z0-9_]*
//
// Spaces and tabs may stand between the parts.
type Cond struct {
	Op CondOp
	// Name is the variable of a CondVar.
	Name string
	// Args are the operands: one for CondNot, two or more for CondAnd and CondOr, in source order.
	Args []*Cond
	// Off and End are the bytes [Off, End) of the when string that this part is written in: for a CondVar its
	// name, for the others from the first operand (or the !) to the end of the last.
	Off, End int
	// Range is where those bytes are written in the block's file (set by the loader).
	Range source.Range
}

// CondOp is what a part of a when condition is.
type CondOp uint8

const (
	// CondVar holds when variable Name is truthy.
	CondVar CondOp = iota
	// CondNot holds when its operand does not.
	CondNot
	// CondAnd holds when all its operands do.
	CondAnd
	// CondOr holds when any of its operands does.
	CondOr
)

// maxCondDepth bounds the nesting of parentheses and negations, so that no when string can exhaust the stack.
const maxCondDepth = 64

// Holds reports whether the condition holds, given whether each variable is truthy. Operands are decided left to
// right and no further than needed.
func (c *Cond) Holds(truthy func(name string) bool) bool {
	switch c.Op {
	case CondVar:
		return truthy(c.Name)
	case CondNot:
		return !c.Args[0].Holds(truthy)
	case CondAnd:
		for _, a := range c.Args {
			if !a.Holds(truthy) {
				return false
			}
		}
		return true
	}
	for _, a := range c.Args {
		if a.Holds(truthy) {
			return true
		}
	}
	return false
}

// Vars returns the variables the condition names, one CondVar per place it names one, in source order: what
// counts toward the block's scope, the static scope rule, the lints and an editor's references.
func (c *Cond) Vars() []*Cond {
	var out []*Cond
	var walk func(c *Cond)
	walk = func(c *Cond) {
		if c.Op == CondVar {
			out = append(out, c)
			return
		}
		for _, a := range c.Args {
			walk(a)
		}
	}
	if c != nil {
		walk(c)
	}
	return out
}

// Names returns the distinct variables the condition names, sorted.
func (c *Cond) Names() []string {
	var names []string
	for _, v := range c.Vars() {
		names = append(names, v.Name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// Negated reports whether the condition is a single variable, negated or not, and which: "x" and "!x".
func (c *Cond) Negated() (name string, negated, single bool) {
	switch {
	case c == nil:
		return "", false, false
	case c.Op == CondVar:
		return c.Name, false, true
	case c.Op == CondNot && c.Args[0].Op == CondVar:
		return c.Args[0].Name, true, true
	}
	return "", false, false
}

// String writes the condition in its canonical form: one space around each && and ||, parentheses only where
// precedence needs them.
func (c *Cond) String() string {
	var b strings.Builder
	c.write(&b, CondOr)
	return b.String()
}

// write writes c as an operand of an operator binding as tightly as outer.
func (c *Cond) write(b *strings.Builder, outer CondOp) {
	switch c.Op {
	case CondVar:
		b.WriteString(c.Name)
		return
	case CondNot:
		b.WriteByte('!')
		c.Args[0].write(b, CondNot)
		return
	}
	paren := outer == CondNot || (outer == CondAnd && c.Op == CondOr)
	if paren {
		b.WriteByte('(')
	}
	op := " && "
	if c.Op == CondOr {
		op = " || "
	}
	for i, a := range c.Args {
		if i > 0 {
			b.WriteString(op)
		}
		a.write(b, c.Op)
	}
	if paren {
		b.WriteByte(')')
	}
}

// CondError is a when string that does not parse: the bytes [Off, End) of it that are wrong, and why.
type CondError struct {
	Off, End int
	Msg      string
}

func (e *CondError) Error() string { return e.Msg }

// ParseCond parses a when string (see Cond). Offsets are bytes of s; Range is left for the loader to set.
func ParseCond(s string) (*Cond, *CondError) {
	p := &condParser{s: s}
	p.skip()
	if p.i == len(s) {
		return nil, &CondError{0, len(s), `when is empty: name a variable ("name"), or a condition of variables ("a && !b"), or remove when`}
	}
	c, err := p.or(0)
	if err != nil {
		return nil, err
	}
	if p.i < len(s) {
		if s[p.i] == ')' {
			return nil, &CondError{p.i, p.i + 1, `when has a ")" that closes no "("`}
		}
		return nil, p.unexpected("&& or || after " + quoteName(s[c.Off:c.End]))
	}
	return c, nil
}

type condParser struct {
	s string
	i int
}

func (p *condParser) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// op consumes the two-byte operator tok, and what follows it, when it is next.
func (p *condParser) op(tok string) bool {
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		p.skip()
		return true
	}
	return false
}

func (p *condParser) or(depth int) (*Cond, *CondError) {
	return p.list(CondOr, "||", depth, p.and)
}

func (p *condParser) and(depth int) (*Cond, *CondError) {
	return p.list(CondAnd, "&&", depth, p.not)
}

// list parses operands of next joined by tok into one op.
func (p *condParser) list(op CondOp, tok string, depth int, next func(int) (*Cond, *CondError)) (*Cond, *CondError) {
	first, err := next(depth)
	if err != nil {
		return nil, err
	}
	args := []*Cond{first}
	for p.op(tok) {
		a, err := next(depth)
		if err != nil {
			return nil, err
		}
		args = append(args, a)
	}
	if len(args) == 1 {
		return first, nil
	}
	return &Cond{Op: op, Args: args, Off: first.Off, End: args[len(args)-1].End}, nil
}

func (p *condParser) not(depth int) (*Cond, *CondError) {
	if depth >= maxCondDepth {
		return nil, &CondError{p.i, p.i + 1, fmt.Sprintf("when nests more than %d parentheses and negations deep: write the condition more simply", maxCondDepth)}
	}
	start := p.i
	switch {
	case p.i == len(p.s):
		return nil, &CondError{p.i, p.i, "when ends where a variable should follow: " + trailing(p.s)}
	case p.s[p.i] == '!':
		p.i++
		p.skip()
		a, err := p.not(depth + 1)
		if err != nil {
			return nil, err
		}
		return &Cond{Op: CondNot, Args: []*Cond{a}, Off: start, End: a.End}, nil
	case p.s[p.i] == '(':
		p.i++
		p.skip()
		c, err := p.or(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.i == len(p.s) || p.s[p.i] != ')' {
			if p.i == len(p.s) {
				return nil, &CondError{start, start + 1, `when has a "(" that is never closed: add ")"`}
			}
			return nil, p.unexpected(`")" or && or || after ` + quoteName(p.s[c.Off:c.End]))
		}
		p.i++
		p.skip()
		return c, nil
	}
	end := p.i
	for end < len(p.s) && isWordByte(p.s[end]) {
		end++
	}
	name := p.s[p.i:end]
	switch {
	case name == "":
		return nil, p.unexpected("a variable name")
	case !isName(name):
		return nil, &CondError{p.i, end, fmt.Sprintf("when: %s is not a variable name: names match [a-z][a-z0-9_]*", quoteName(name))}
	}
	p.i = end
	p.skip()
	return &Cond{Op: CondVar, Name: name, Off: start, End: end}, nil
}

// unexpected is an error at the next token (or the end) saying what was wanted there.
func (p *condParser) unexpected(want string) *CondError {
	if p.i == len(p.s) {
		return &CondError{p.i, p.i, "when ends where " + want + " should follow"}
	}
	end := p.i + 1
	switch c := p.s[p.i]; {
	case isWordByte(c):
		for end < len(p.s) && isWordByte(p.s[end]) {
			end++
		}
	case c == '&' || c == '|' || c == '=':
		for end < len(p.s) && end < p.i+2 && p.s[end] == c {
			end++
		}
	case c == '!' && end < len(p.s) && p.s[end] == '=':
		end++
	default:
		for end < len(p.s) && p.s[end] >= 0x80 && p.s[end] < 0xC0 {
			end++ // the whole character
		}
	}
	tok := p.s[p.i:end]
	msg := fmt.Sprintf("when: expected %s, not %s", want, quoteName(tok))
	switch tok {
	case "and", "AND":
		msg += `; write && for "and"`
	case "or", "OR":
		msg += `; write || for "or"`
	case "not", "NOT":
		msg += `; write ! for "not"`
	case "&", "|":
		msg += "; write " + tok + tok
	case "==", "=", "!=":
		msg += "; when tests whether variables are truthy, so write the variable alone, or compare in the body ({{if eq .x \"v\"}})"
	default:
		if w := lastWord(p.s[:p.i]); w == "not" || w == "NOT" {
			msg += `; write ! for "not"` // "not a": not was read as a variable
		}
	}
	return &CondError{p.i, end, msg}
}

// lastWord returns the word s ends with, spaces aside.
func lastWord(s string) string {
	s = strings.TrimRight(s, " \t")
	i := len(s)
	for i > 0 && isWordByte(s[i-1]) {
		i--
	}
	return s[i:]
}

// trailing names what a condition that stops short ends with.
func trailing(s string) string {
	t := strings.TrimRight(s, " \t")
	switch {
	case strings.HasSuffix(t, "&&"), strings.HasSuffix(t, "||"):
		return "remove the " + quoteName(t[len(t)-2:]) + " at the end, or add a variable after it"
	case strings.HasSuffix(t, "!"):
		return `add a variable after the "!"`
	}
	return "add a variable"
}

// isWordByte reports whether c may be part of a word someone meant as a name: a name's bytes, and the capitals
// and hyphens of names that are not valid, so that the message quotes the whole word.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// Exclusive reports whether two conditions can never both hold, whatever the variables they name are: "x" and
// "!x", "a && b" and "!a". It decides by trying every truth value of their variables, so conditions naming more
// than maxExclusiveVars variables together are taken to overlap.
func Exclusive(a, b *Cond) bool {
	if a == nil || b == nil {
		return false
	}
	names := slices.Compact(slices.Sorted(slices.Values(append(a.Names(), b.Names()...))))
	if len(names) > maxExclusiveVars {
		return false
	}
	for bits := 0; bits < 1<<len(names); bits++ {
		truthy := func(name string) bool {
			i, _ := slices.BinarySearch(names, name)
			return bits&(1<<i) != 0
		}
		if a.Holds(truthy) && b.Holds(truthy) {
			return false
		}
	}
	return true
}

// maxExclusiveVars bounds the truth table Exclusive builds: 2^12 rows.
const maxExclusiveVars = 12
