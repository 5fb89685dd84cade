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
}

// Literal is a piece of a body's literal text at byte offset Off of its source.
type Literal struct {
	Off  int
	Text string
}

// Parse parses a block's body in the promptc dialect (§3.2). consts holds the project's constants, which the const
// function returns. A raw body is literal text. Every problem is a diagnostic positioned in the block's source.
func Parse(b *blocks.Block, consts map[string]string) (*Body, blocks.Diagnostics) {
	body := &Body{Block: b}
	text := b.Body
	if b.Raw || !strings.Contains(text, "{{") {
		body.Static, body.output, body.Literals = true, text, []Literal{{0, text}}
		if len(text) > MaxOutput {
			return nil, blocks.Diagnostics{body.diag(0, 0, fmt.Sprintf("its text is %s, over the %d MiB a block may render: split it into several blocks", mib(len(text)), MaxOutput>>20))}
		}
		return body, nil
	}
	var diags blocks.Diagnostics
	for _, a := range forbiddenActions(text) {
		diags = append(diags, body.diag(a.off, a.off+len(a.keyword)+2, fmt.Sprintf("the %q action is not allowed: blocks compose through the order lists, constants (const) and references (ref), never through template inheritance", a.keyword)))
	}
	if len(diags) > 0 {
		return nil, diags
	}
	t, err := template.New(b.ID).Option("missingkey=error").Funcs(baseFuncs(consts)).Parse(text)
	if err != nil {
		return nil, blocks.Diagnostics{body.parseError(err)}
	}
	body.tmpl = t
	var offs []int
	body.Uses, body.Literals, offs = analyze(t.Tree, text)
	for _, off := range offs {
		diags = append(diags, body.diag(off, off, "the \"template\" action is not allowed: blocks compose through the order lists, constants (const) and references (ref)"))
	}
	if len(diags) > 0 {
		return nil, diags
	}
	switch nodes := t.Tree.Root.Nodes; {
	case len(nodes) == 0:
		body.Static, body.tmpl = true, nil
	case len(nodes) == 1:
		if tn, ok := nodes[0].(*parse.TextNode); ok {
			body.Static, body.output, body.tmpl = true, string(tn.Text), nil
		}
	}
	return body, nil
}

// diag is an error about bytes [start, end) of the body.
func (b *Body) diag(start, end int, msg string) blocks.Diagnostic {
	return blocks.Diagnostic{Summary: fmt.Sprintf("block %q: %s", b.Block.ID, msg), Subject: b.Block.SourceRange(start, end).Ptr()}
}

// forbiddenAction is a define, template or block action at byte off of a body.
type forbiddenAction struct {
	off     int
	keyword string
}

// forbiddenActions finds the actions that would bring template inheritance into a body: blocks compose through
// order, constants and refs instead. text/template has no hook to refuse them, and an empty {{define}} that shares
// the body's name silently replaces it, so they are found by reading the actions as text/template's lexer does:
// an action's first word, with its strings, raw strings, characters and comments skipped, so that
// {{ "{{define" }} (a string) is not one.
func forbiddenActions(text string) []forbiddenAction {
	var out []forbiddenAction
	for i := 0; ; {
		j := strings.Index(text[i:], "{{")
		if j < 0 {
			return out
		}
		start := i + j
		i = start + 2
		if i+1 < len(text) && text[i] == '-' && isSpaceByte(text[i+1]) {
			i += 2 // a trim marker
		}
		for i < len(text) && isSpaceByte(text[i]) {
			i++
		}
		if strings.HasPrefix(text[i:], "/*") {
			k := strings.Index(text[i+2:], "*/")
			if k < 0 {
				return out
			}
			i += 2 + k + 2
		} else {
			w := i
			for w < len(text) && (text[w] >= 'a' && text[w] <= 'z') {
				w++
			}
			if kw := text[i:w]; (kw == "define" || kw == "template" || kw == "block") && (w == len(text) || !isWordByte(text[w])) {
				out = append(out, forbiddenAction{start, kw})
			}
		}
		i = actionEnd(text, i)
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
	callErrRe  = regexp.MustCompile(`^error calling [a-z]+: (?s:(.*))$`)
)

// parseError turns a text/template parse error, which names a line only, into a diagnostic at the start of that
// line.
func (b *Body) parseError(err error) blocks.Diagnostic {
	msg := err.Error()
	if m := parseErrRe.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		off := blocks.NewFile("", b.Block.Body).Offset(line, 1)
		return b.diag(max(off, 0), max(off, 0), "template syntax error: "+m[2])
	}
	return b.diag(0, 0, "template syntax error: "+msg)
}

// execError turns a text/template execution error into a diagnostic. text/template names the line and the byte
// column within it; the diagnostic's column counts runes, as every position does. Errors raised by promptc's own
// functions already say what went wrong and are passed through without text/template's wrapping.
func (b *Body) execError(err error) blocks.Diagnostic {
	var ee template.ExecError
	msg := err.Error()
	if errors.As(err, &ee) {
		msg = ee.Err.Error()
	}
	if m := execErrRe.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		byteCol, _ := strconv.Atoi(m[2])
		off := 0
		if start := blocks.NewFile("", b.Block.Body).Offset(line, 1); start >= 0 {
			off = min(start+byteCol, len(b.Block.Body))
		}
		if c := callErrRe.FindStringSubmatch(m[4]); c != nil {
			return b.diag(off, off, c[1])
		}
		return b.diag(off, off, "at {{"+m[3]+"}}: "+m[4])
	}
	return b.diag(0, 0, msg)
}

// mib formats a size in MiB with one decimal.
func mib(n int) string { return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB" }
