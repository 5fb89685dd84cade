package templates

import (
	"fmt"
	"sort"
	"strings"
	"text/template"

	"github.com/promptc/promptc/blocks"
)

// MaxOutput bounds what one block may render, whatever makes it large: a loop such as {{range 100000000}}, a huge
// constant or value, or a huge literal body must each fail with a diagnostic, not exhaust memory.
const MaxOutput = 16 << 20

// bigPiece is the size from which one write is taken to be a single large constant, value or function result rather
// than one more piece of a loop's output.
const bigPiece = 1 << 20

// limitedBuilder collects a body's output and fails once it passes MaxOutput, saying what most likely made it so
// large.
type limitedBuilder struct{ strings.Builder }

func (w *limitedBuilder) Write(p []byte) (int, error) {
	if w.Len()+len(p) > MaxOutput {
		if len(p) >= bigPiece {
			return 0, fmt.Errorf("the block renders more than %d MiB: it writes one piece of %s (a constant, a value or a function's result); shorten it, or limit the value with max_runes or max_bytes", MaxOutput>>20, mib(len(p)))
		}
		return 0, fmt.Errorf("the block renders more than %d MiB; a template loop is probably running away", MaxOutput>>20)
	}
	return w.Builder.Write(p)
}

// FuncNames lists the functions promptc adds to text/template's builtins.
var FuncNames = []string{"bullets", "const", "join", "json", "quote", "ref"}

// baseFuncs returns the function map a body is parsed and executed with. ref is bound per execution (see Execute),
// because whether a reference holds depends on what else renders.
func baseFuncs(consts map[string]string) template.FuncMap {
	return template.FuncMap{
		"const": func(name string) (string, error) {
			if v, ok := consts[name]; ok {
				return v, nil
			}
			names := make([]string, 0, len(consts))
			for n := range consts {
				names = append(names, n)
			}
			sort.Strings(names)
			return "", fmt.Errorf("const %q: no such constant%s", name, blocks.DidYouMean(name, names))
		},
		"ref": func(id string) (string, error) {
			return "", fmt.Errorf("ref %q: references are resolved only while a runbook is assembled", id)
		},
		"quote": func(text any) (string, error) {
			s, ok := text.(string)
			if !ok {
				return "", fmt.Errorf("quote takes a string, not %s", blocks.DescribeValue(text))
			}
			return Quote(s), nil
		},
		"index":   index,
		"bullets": Bullets,
		"join":    Join,
		"json":    JSON,
	}
}

// Execute renders the body with data. ref is called for every ref call that runs and returns the heading line to
// insert, or an error. An error is a diagnostic positioned in the block's source.
func (b *Body) Execute(data map[string]any, ref func(id string) (string, error)) (string, *blocks.Diagnostic) {
	if b.Static {
		return b.output, nil
	}
	t := b.tmpl
	if len(b.Uses.Refs) > 0 || b.Uses.DynamicRef {
		// The clone shares the parse tree; only the function map is copied, so that concurrent executions each
		// resolve references against their own runbook.
		c, err := t.Clone()
		if err != nil {
			d := b.diag(0, 0, err.Error())
			return "", &d
		}
		t = c.Funcs(template.FuncMap{"ref": ref})
	}
	out := &limitedBuilder{}
	out.Grow(len(b.Block.Body))
	if err := t.Execute(out, data); err != nil {
		d := b.execError(err)
		return "", &d
	}
	return out.String(), nil
}

// index replaces text/template's builtin, which returns a zero value (printed "<no value>") for a missing map key:
// under missingkey=error semantics, reading a variable that is not there must fail, however it is spelled.
func index(item any, keys ...any) (any, error) {
	for _, k := range keys {
		if m, ok := item.(map[string]any); ok {
			name, isName := k.(string)
			if !isName {
				return nil, fmt.Errorf("index: the data is indexed by variable name, not %s", blocks.DescribeValue(k))
			}
			if item, ok = m[name]; !ok {
				return nil, fmt.Errorf("index: no variable %q here", name)
			}
			continue
		}
		i, isInt := k.(int)
		if !isInt {
			return nil, fmt.Errorf("index: a list or string is indexed by an int, not %s", blocks.DescribeValue(k))
		}
		var n int
		switch v := item.(type) {
		case []string:
			n = len(v)
		case string:
			n = len(v)
		default:
			return nil, fmt.Errorf("index: cannot index %s", blocks.DescribeValue(item))
		}
		if i < 0 || i >= n {
			return nil, fmt.Errorf("index: %d out of range (length %d)", i, n)
		}
		if l, isList := item.([]string); isList {
			item = l[i]
		} else {
			item = item.(string)[i]
		}
	}
	return item, nil
}
