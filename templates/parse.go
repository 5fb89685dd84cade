package templates

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"text/template/parse"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// Body is one parsed block body, ready to execute any number of times from any number of goroutines.
type Body struct {
	Block *blocks.Block
	// Static is set when the body's output does not depend on its data: it is raw, has no actions, or its actions
	// are comments only.
	Static bool
	Uses   Uses
	// Literals are the pieces of the source text that reach the output as written: everything outside actions,
	// with their byte offsets in the body. Lints read them rather than parse the body again.
	Literals []Literal
	output   string // the output of a static body
	tmpl     *template.Template
	consts   Consts
	// perExecution is set when an execution needs functions of its own: ref, title, dropped or tools (bound to its
	// environment) or a range (bound to its budget).
	perExecution bool
	// callsEnv is set when an execution may call the functions of its environment: Env.Ref, Title, Dropped, Tools.
	callsEnv bool
	// parser is the parser that made the body, whose function sets such executions borrow.
	parser *Parser
	// printed is tmpl's tree with each action printing a variable alone reading its record (see SetPrinted), and
	// printedKeys the records it reads; nil for none. whole is set when the body reads the data whole.
	printed     *template.Template
	printedKeys []string
	whole       bool
	// splices holds where the body reads each variable the turn budget shrinks (see Shrink), found on demand.
	splices splicePoints
}

// executor is a body's template bound to the functions of an execSet, which each execution sets up anew; printed
// is the body's printed tree bound to the same functions.
type executor struct {
	t       *template.Template
	printed *template.Template
}

// execSet is one set of functions bound per execution (f), in use by one execution at a time, with a template of
// its own for each body that has run with it, all sharing one function map: building a function map costs more
// than most executions, so a project builds one per execution running at once, not one per body.
type execSet struct {
	f    *funcs
	root *template.Template
	// bodies is by the body's parsed template: a body reused for an unchanged block (Body.For) shares its
	// template, and so its executor, with the body it was made from.
	bodies map[*template.Template]*executor
}

// executor returns the template of b bound to the set's functions, made on b's first execution with the set.
func (s *execSet) executor(b *Body) (*executor, error) {
	if x, ok := s.bodies[b.tmpl]; ok {
		return x, nil
	}
	// Not a clone: the body's template is one of a project's whole set. The parse trees are shared; no execution
	// changes them.
	t, err := s.root.AddParseTree(b.Block.ID, b.tmpl.Tree)
	if err != nil {
		return nil, err
	}
	x := &executor{t: t}
	if b.printed != nil {
		if x.printed, err = addPrinted(s.root, b.Block.ID, b.printed.Tree); err != nil {
			return nil, err
		}
	}
	s.bodies[b.tmpl] = x
	return x, nil
}

// takeExecSet returns an idle function set, or a new one. A plain list, not a sync.Pool, which every garbage
// collection would empty: there are never more sets than the executions running at once.
func (p *Parser) takeExecSet() *execSet {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.idle); n > 0 {
		s := p.idle[n-1]
		p.idle = p.idle[:n-1]
		return s
	}
	f := &funcs{consts: p.consts}
	return &execSet{f: f, root: template.New("").Option("missingkey=error").Funcs(f.execMap()), bodies: map[*template.Template]*executor{}}
}

func (p *Parser) putExecSet(s *execSet) {
	p.mu.Lock()
	p.idle = append(p.idle, s)
	p.mu.Unlock()
}

// Literal is a piece of a body's literal text at byte offset Off of its source.
type Literal struct {
	Off  int
	Text string
}

// Parse parses a block's body in the promptc dialect (docs/reference.md#functions). c holds the project's constants and lookup tables,
// which const and lookup read. A raw body is literal text. Every problem is a diagnostic positioned in the block's
// source.
//
// After the analysis that fills Uses, every range pipeline is rewritten to draw its iterations from the
// execution's budget (see Execute and MaxSteps).
func Parse(b *blocks.Block, c Consts) (*Body, source.Diagnostics) { return NewParser(c).Parse(b) }

// Parser parses the bodies of one project: they share its constants and lookup tables, and a few function maps,
// built once each (building a function map costs more than parsing most bodies). It is safe for concurrent use, and
// parses concurrently: text/template cannot construct the templates of one set in parallel, so each parse borrows
// a set (a root template) no other parse is using, one per parse running at once, all with the same functions.
type Parser struct {
	consts Consts
	// names holds the name of every function a body may call, text/template's own included: what parsing checks
	// calls against, built once rather than by every parse.
	names map[string]any
	mu    sync.Mutex
	roots []*template.Template // root templates no parse is using; the bodies' templates join one of them
	idle  []*execSet           // function sets no execution is using (see execSet)
}

// NewParser returns a parser for bodies that read the constants and lookup tables c.
func NewParser(c Consts) *Parser {
	p := &Parser{consts: c.boxed()}
	p.roots = append(p.roots, p.newRoot())
	p.names = map[string]any{}
	for _, name := range builtinNames {
		p.names[name] = true // parsing checks that a name's value is not nil
	}
	for name := range p.rootFuncs() {
		p.names[name] = true
	}
	return p
}

// builtinNames are text/template's predefined functions, which a body may call as well.
var builtinNames = []string{"and", "call", "html", "index", "slice", "js", "len", "not", "or", "print", "printf",
	"println", "urlquery", "eq", "ge", "gt", "le", "lt", "ne"}

// newRoot returns a template set for bodies to join, with the functions of the bodies that run as parsed: they
// print with the printer of an idle function set (the markers, the default level, no marks).
func (p *Parser) newRoot() *template.Template {
	return template.New("").Option("missingkey=error").Funcs(p.rootFuncs())
}

// rootFuncs are the functions of a root template: see newRoot.
func (p *Parser) rootFuncs() template.FuncMap {
	f := &funcs{consts: p.consts}
	f.bind(Env{}, nil, nil)
	fm := f.Map()
	fm[printFunc] = f.p.printChecked
	fm[dictPrintFunc] = f.printDict
	f.addPrinting(fm)
	return fm
}

func (p *Parser) takeRoot() *template.Template {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.roots); n > 0 {
		t := p.roots[n-1]
		p.roots = p.roots[:n-1]
		return t
	}
	return p.newRoot()
}

func (p *Parser) putRoot(t *template.Template) {
	p.mu.Lock()
	p.roots = append(p.roots, t)
	p.mu.Unlock()
}

// Parse parses a block's body as the package function Parse does.
func (p *Parser) Parse(b *blocks.Block) (*Body, source.Diagnostics) {
	c := p.consts
	body := &Body{Block: b, consts: c, parser: p}
	text := b.Body
	if b.Raw || !strings.Contains(text, "{{") {
		body.Static, body.output, body.Literals = true, text, []Literal{{0, text}}
		if len(text) > MaxOutput {
			return nil, source.Diagnostics{body.diag(0, 0, fmt.Sprintf("its text is %s, over the %d MiB a block may render: split it into several blocks", mib(len(text)), MaxOutput>>20))}
		}
		return body, nil
	}
	var diags source.Diagnostics
	actions := scanActions(text)
	for _, a := range actions {
		if a.keyword == "define" || a.keyword == "template" || a.keyword == "block" {
			diags = append(diags, body.diag(a.start, a.start+len(a.keyword)+2, fmt.Sprintf("the %q action is not allowed: blocks compose through the order lists, constants (const) and references (ref), never through template inheritance", a.keyword)))
		}
	}
	if len(diags) > 0 {
		return nil, diags
	}
	root := p.takeRoot()
	defer p.putRoot(root)
	// What Template.Parse does, with the function names built once (it builds text/template's own for every parse).
	trees, err := parse.Parse(b.ID, text, "", "", p.names)
	if err != nil {
		return nil, source.Diagnostics{body.parseError(err)}
	}
	t, err := root.AddParseTree(b.ID, trees[b.ID])
	if err != nil {
		return nil, source.Diagnostics{body.parseError(err)}
	}
	body.tmpl = t
	a := analyze(t.Tree, text, actions)
	body.Uses, body.Literals = a.uses, a.lits
	for _, off := range a.templates {
		diags = append(diags, body.diag(off, off, "the \"template\" action is not allowed: blocks compose through the order lists, constants (const) and references (ref)"))
	}
	for _, e := range checkCalls(t.Tree.Root) {
		diags = append(diags, body.diag(e.off, e.end, e.msg))
	}
	if len(diags) > 0 {
		return nil, diags
	}
	switch nodes := t.Tree.Root.Nodes; {
	case len(nodes) == 0:
		body.Static, body.tmpl = true, nil
		return body, nil
	case len(nodes) == 1:
		if tn, ok := nodes[0].(*parse.TextNode); ok {
			body.Static, body.output, body.tmpl = true, string(tn.Text), nil
			return body, nil
		}
	}
	if a.hasRange {
		rewriteRanges(t.Tree.Root, func(pos int) int {
			if i := actionAt(actions, pos); i >= 0 {
				return actions[i].start
			}
			return pos
		})
	}
	rewritePrints(t.Tree.Root, c.Plain)
	if a.dicts {
		renamePrints(t.Tree.Root) // a dict printed whole is an error (see Dict)
	}
	rewriteTruth(t.Tree.Root, c.Scalars, c.Plain)
	body.whole = readsWhole(t.Tree.Root)
	if tree, keys := printedTree(t.Tree); tree != nil {
		pt, err := addPrinted(root, b.ID, tree)
		if err == nil {
			body.printed, body.printedKeys = pt, keys
		}
	}
	u := body.Uses
	body.callsEnv = len(u.Refs)+len(u.Titles)+len(u.Dropped)+len(u.Tools) > 0 || u.DynamicRef || u.DynamicTitle || u.DynamicDropped
	body.perExecution = a.hasRange || body.callsEnv || a.dicts
	return body, nil
}

// For returns the body parsed for block b, for a block with the same id, raw flag and body text: what Parse of
// the same parser would return for it, without parsing it again. A language server compiles the project at every
// keystroke, and all but the edited blocks are as they were (docs/editors.md). The two bodies share their parse
// trees, which no execution changes.
func (b *Body) For(nb *blocks.Block) *Body {
	return &Body{Block: nb, Static: b.Static, Uses: b.Uses, Literals: b.Literals, output: b.output, tmpl: b.tmpl,
		consts: b.consts, perExecution: b.perExecution, callsEnv: b.callsEnv, parser: b.parser, printed: b.printed,
		printedKeys: b.printedKeys, whole: b.whole}
}

// CallsEnv reports whether an execution of the body may call the functions of its environment (Env.Ref, Title,
// Dropped, Tools): when it does not, Execute reads only the environment's Level and Mark, and a caller need not
// build the functions.
func (b *Body) CallsEnv() bool { return b.callsEnv }

// diag is an error about bytes [start, end) of the body.
func (b *Body) diag(start, end int, msg string) source.Diagnostic {
	return source.Diagnostic{Summary: fmt.Sprintf("block %q: %s", b.Block.ID, msg), Subject: b.Block.SourceRange(start, end).Ptr()}
}

// action is an action of a body as written: the bytes [start, end) from its "{{" to just past its "}}", its first
// word, and whether it carries a trim marker at either end.
type action struct {
	start, end   int
	keyword      string
	ltrim, rtrim bool
}

// scanActions finds a body's actions by reading the text as text/template's lexer does: an action starts at each
// "{{" outside actions and ends at the "}}" that closes it, with strings, raw strings, characters and comments
// skipped, so that {{ "{{define" }} is one action holding a string. It finds the actions that bring template
// inheritance into a body (define, template, block: text/template has no hook to refuse them, and an empty
// {{define}} that shares the body's name silently replaces it), and the lines an action shares with others.
func scanActions(text string) []action {
	var out []action
	for i := 0; ; {
		j := strings.Index(text[i:], "{{")
		if j < 0 {
			return out
		}
		a := action{start: i + j}
		i = a.start + 2
		if i+1 < len(text) && text[i] == '-' && isSpaceByte(text[i+1]) {
			a.ltrim = true
			i += 2
		}
		for i < len(text) && isSpaceByte(text[i]) {
			i++
		}
		if strings.HasPrefix(text[i:], "/*") {
			k := strings.Index(text[i+2:], "*/")
			if k < 0 {
				a.end = len(text)
				return append(out, a)
			}
			i += 2 + k + 2
		} else {
			w := i
			for w < len(text) && (text[w] >= 'a' && text[w] <= 'z') {
				w++
			}
			if w == len(text) || !isWordByte(text[w]) {
				a.keyword = text[i:w]
			}
		}
		a.end = actionEnd(text, i)
		a.rtrim = a.end-4 >= i && strings.HasSuffix(text[:a.end], "-}}") && isSpaceByte(text[a.end-4])
		out = append(out, a)
		i = a.end
	}
}

// actionEnd returns the offset just past the "}}" that closes the action whose inside continues at i, skipping
// quoted strings, raw strings and character constants; len(text) when the action does not close.
func actionEnd(text string, i int) int {
	for i < len(text) {
		switch c := text[i]; c {
		case '"', '\'':
			for i++; i < len(text) && text[i] != c && text[i] != '\n'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
			i++
		case '`':
			k := strings.IndexByte(text[i+1:], '`')
			if k < 0 {
				return len(text)
			}
			i += k + 2
		case '}':
			if i+1 < len(text) && text[i+1] == '}' {
				return i + 2
			}
			i++
		default:
			i++
		}
	}
	return len(text)
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

var (
	parseErrRe = regexp.MustCompile(`^template: [^:]*:(\d+): (?s:(.*))$`)
	execErrRe  = regexp.MustCompile(`^template: [^:]*:(\d+):(\d+): executing "[^"]*" at <(.*?)>: (?s:(.*))$`)
	callErrRe  = regexp.MustCompile(`^error calling [A-Za-z]+: (?s:(.*))$`)
)

// parseError turns a text/template parse error, which names a line only, into a diagnostic at the start of that
// line.
func (b *Body) parseError(err error) source.Diagnostic {
	msg := err.Error()
	if m := parseErrRe.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		off := source.NewFile("", b.Block.Body).Offset(line, 1)
		return b.diag(max(off, 0), max(off, 0), "template syntax error: "+m[2])
	}
	return b.diag(0, 0, "template syntax error: "+msg)
}

// execError turns a text/template execution error into a diagnostic. text/template names the line and the byte
// column within it; the diagnostic's column counts runes, as every position does. Errors raised by promptc's own
// functions already say what went wrong and are passed through without text/template's wrapping.
func (b *Body) execError(err error) source.Diagnostic {
	var ee template.ExecError
	msg := err.Error()
	if errors.As(err, &ee) {
		msg = ee.Err.Error()
	}
	if m := execErrRe.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		byteCol, _ := strconv.Atoi(m[2])
		off := 0
		if start := source.NewFile("", b.Block.Body).Offset(line, 1); start >= 0 {
			off = min(start+byteCol, len(b.Block.Body))
		}
		if c := callErrRe.FindStringSubmatch(m[4]); c != nil {
			if strings.HasPrefix(m[4], "error calling call:") {
				return b.diag(off, off, kindWords(c[1])) // text/template's call: in the docs' words
			}
			return b.diag(off, off, c[1])
		}
		return b.diag(off, off, "at {{"+m[3]+"}}: "+kindWords(m[4])) // text/template's own: in the docs' words
	}
	return b.diag(0, 0, msg)
}

// mib formats a size in MiB with one decimal.
func mib(n int) string { return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB" }
