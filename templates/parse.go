package templates

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"text/template"
	"text/template/parse"

	"github.com/promptc/promptc/blocks"
)

// Body is one parsed block body, ready to execute any number of times from any number of goroutines.
type Body struct {
	Name string
	Text string // the source text
	// Static is set when the body's output does not depend on its data: it is raw, has no actions, or its actions
	// are comments only.
	Static bool
	Uses   Uses
	// Literals are the pieces of the source text that reach the output as written: everything outside actions,
	// with their byte offsets in Text. Lints read them rather than parse the body again.
	Literals []Literal
	output   string // the output of a static body
	tmpl     *template.Template
}

// Literal is a piece of a body's literal text at byte offset Off of its source.
type Literal struct {
	Off  int
	Text string
}

// Error is a problem in a body, positioned by line and column (in runes) within the body text, both from 1; Col is 0
// when text/template reports only the line.
type Error struct {
	Line, Col int
	Msg       string
}

func (e Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// forbidden finds the actions that would bring template inheritance into a body: blocks compose through order,
// constants and refs instead. text/template has no hook to refuse them, and an empty {{define}} that shares the
// body's name silently replaces it, so they are found in the text, where an action keyword follows "{{" directly.
var forbidden = regexp.MustCompile(`\{\{-?\s*(define|template|block)\b`)

// Parse parses a block body in the promptc dialect (§3.2). consts holds the project's constants, which the const
// function returns. A raw body is literal text. Errors carry positions within text.
func Parse(name, text string, raw bool, consts map[string]string) (*Body, []Error) {
	b := &Body{Name: name, Text: text}
	if raw || !strings.Contains(text, "{{") {
		b.Static, b.output, b.Literals = true, text, []Literal{{0, text}}
		return b, nil
	}
	var errs []Error
	for _, m := range forbidden.FindAllStringSubmatchIndex(text, -1) {
		line, col := blocks.LineCol(text, m[0])
		kw := text[m[2]:m[3]]
		errs = append(errs, Error{line, col, fmt.Sprintf("the %q action is not allowed: blocks compose through the order lists, constants (const) and references (ref), never through template inheritance", kw)})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	t, err := template.New(name).Option("missingkey=error").Funcs(baseFuncs(consts)).Parse(text)
	if err != nil {
		return nil, []Error{parseError(name, text, err)}
	}
	b.tmpl = t
	b.Uses, b.Literals, errs = analyze(t.Tree, text)
	if len(errs) > 0 {
		return nil, errs
	}
	switch nodes := t.Tree.Root.Nodes; {
	case len(nodes) == 0:
		b.Static, b.tmpl = true, nil
	case len(nodes) == 1:
		if tn, ok := nodes[0].(*parse.TextNode); ok {
			b.Static, b.output, b.tmpl = true, string(tn.Text), nil
		}
	}
	return b, nil
}

var (
	parseErrRe = regexp.MustCompile(`^template: [^:]*:(\d+): (?s:(.*))$`)
	execErrRe  = regexp.MustCompile(`^template: [^:]*:(\d+):(\d+): executing "[^"]*" at <(.*?)>: (?s:(.*))$`)
	callErrRe  = regexp.MustCompile(`^error calling [a-z]+: (?s:(.*))$`)
)

// parseError turns a text/template parse error into a positioned Error.
func parseError(name, text string, err error) Error {
	msg := err.Error()
	if m := parseErrRe.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return Error{Line: line, Msg: "template syntax error: " + m[2]}
	}
	return Error{Line: 1, Col: 1, Msg: "template syntax error: " + msg}
}

// execError turns a text/template execution error into a positioned Error. Errors raised by promptc's own functions
// already say what went wrong and are passed through without text/template's wrapping.
func execError(text string, err error) Error {
	var ee template.ExecError
	msg := err.Error()
	if errors.As(err, &ee) {
		msg = ee.Err.Error()
	}
	if m := execErrRe.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		byteCol, _ := strconv.Atoi(m[2])
		col := runeCol(text, line, byteCol)
		inner := m[4]
		if c := callErrRe.FindStringSubmatch(inner); c != nil {
			return Error{Line: line, Col: col, Msg: c[1]}
		}
		return Error{Line: line, Col: col, Msg: "at {{" + m[3] + "}}: " + inner}
	}
	return Error{Line: 1, Col: 1, Msg: msg}
}

// runeCol converts text/template's 0-based byte offset within a line into a 1-based rune column.
func runeCol(text string, line, byteCol int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return byteCol + 1
		}
		off += i + 1
	}
	end := off + byteCol
	if end > len(text) {
		return byteCol + 1
	}
	return 1 + len([]rune(text[off:end]))
}
