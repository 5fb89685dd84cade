package templates

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/promptc/promptc/source"
)

// MaxOutput bounds what one block may render, whatever makes it large: a loop such as {{range 100000000}}, a huge
// constant or value, or a huge literal body must each fail with a diagnostic, not exhaust memory. It also bounds the
// result of every function a body calls, so that no intermediate value grows past it.
const MaxOutput = 16 << 20

// bigPiece is the size from which one write is taken to be a single large constant, value or function result rather
// than one more piece of a loop's output.
const bigPiece = 1 << 20

// limitedBuilder collects a body's output and fails once it passes MaxOutput, saying what most likely made it so
// large. It also keeps the text after a value that lays out lines from continuing them
// (docs/values.md#markdown-and-structure): the printer sets pending when it returns such a value, and the value's
// write turns it into need, which the next visible byte written meets (settle). An execution that splices (see
// Shrink) holds what it wrote before the splice in pre and the spliced bytes, a part of an earlier output that is
// not copied, in mid; the Builder then holds what came after.
type limitedBuilder struct {
	strings.Builder
	pre, mid  string
	lineStart int   // the offset of the current line's first byte
	pending   Break // asked by the value about to be written, of the text after it
	need      Break // asked of the text still to come
	sawLF     bool  // a line feed was written since need was set
	lead      Break // asked of the text before the output, by a value standing first in it (place)
	placed    bool  // a value laying out lines was printed, and placed (place)
}

// Len is the number of bytes written, spliced ones included.
func (w *limitedBuilder) Len() int { return len(w.pre) + len(w.mid) + w.Builder.Len() }

// String returns everything written, spliced bytes included.
func (w *limitedBuilder) String() string {
	if w.pre == "" && w.mid == "" {
		return w.Builder.String()
	}
	return w.pre + w.mid + w.Builder.String()
}

// splice appends s as written, without copying it: what was written so far moves to pre. Only executions that
// print no value laying out lines splice (Shrink), so no line state needs keeping across it.
func (w *limitedBuilder) splice(s string) {
	w.pre = w.String()
	w.Builder.Reset()
	w.mid = s
}

func (w *limitedBuilder) Write(p []byte) (int, error) {
	if w.Len()+len(p) > MaxOutput {
		if len(p) >= bigPiece {
			return 0, fmt.Errorf("the block renders more than %d MiB: it writes one piece of %s (a constant, a value or a function's result); shorten it, or limit the value with max_runes or max_bytes", MaxOutput>>20, mib(len(p)))
		}
		return 0, fmt.Errorf("the block renders more than %d MiB; a template loop is probably running away", MaxOutput>>20)
	}
	n := len(p)
	switch {
	case w.pending != BreakNone:
		w.write(p)
		w.need, w.sawLF, w.pending = w.pending, false, BreakNone
	case w.need != BreakNone:
		if at, text := w.settle(string(p)); text != "" {
			w.write(p[:at])
			w.write([]byte(text))
			p = p[at:]
		}
		w.write(p)
	default:
		w.write(p)
	}
	return n, nil
}

func (w *limitedBuilder) write(p []byte) {
	if i := bytes.LastIndexByte(p, '\n'); i >= 0 {
		w.lineStart = w.Len() + i + 1
	}
	w.Builder.Write(p)
}

// Output is what a body renders: its text (before the block's trim), and what must separate it from the text
// around it in the artifact, for a value it starts or ends with that lays out lines of its own
// (docs/values.md#markdown-and-structure): Lead of the text before it, Trail of the text after it.
type Output struct {
	Text        string
	Lead, Trail Break
}

// Execute renders the body with data: Run's text.
func (b *Body) Execute(data map[string]any, env Env) (string, *source.Diagnostic) {
	out, d := b.Run(data, env)
	return out.Text, d
}

// Run renders the body with data. env supplies ref, title, dropped and tools, which depend on the rest of the
// assembly. An error is a diagnostic positioned in the block's source.
//
// Execution is bounded in output (MaxOutput), in the size of every function's result (MaxOutput each), and for a
// body with a range in work too: all its ranges together do at most MaxSteps steps of work, and its function
// results add up to at most MaxWork bytes. A body that uses none of ref, title, dropped, tools or range runs as
// parsed; any other runs with a function set of its parser's that no other execution holds meanwhile (a template of
// the set sharing the body's parse tree), bound to its environment and budget, so concurrent executions never share
// them.
//
// Where values and the text around them would assemble structure no value may make (an ordered list marker, an
// HTML block, an author's XML-style tag: docs/values.md#markdown-and-structure), the output is searched for it
// and, only where some is found, rendered again noting which bytes values wrote, and broken inside them.
func (b *Body) Run(data map[string]any, env Env) (Output, *source.Diagnostic) {
	if b.Static {
		return Output{Text: b.output}, nil
	}
	var marks []valueMark
	collect := env.Mark != nil
	out, d := b.run(data, env, collect, &marks, nil)
	if d != nil {
		return Output{}, d
	}
	if mayAssemble(out.Text, b.consts.Tags) {
		if !collect {
			if out, d = b.run(data, env, true, &marks, nil); d != nil {
				return Output{}, d
			}
		}
		var at []int
		if out.Text, at = breakStructure(out.Text, marks, b.consts.Tags); at != nil {
			shiftMarks(marks, at)
		}
	}
	if env.Mark != nil {
		for _, m := range marks {
			env.Mark(m.start, m.end)
		}
	}
	return out, nil
}

// run executes the body once; with collect set, marks receives the bytes escaped values wrote.
func (b *Body) run(data map[string]any, env Env, collect bool, marks *[]valueMark, sp *splice) (Output, *source.Diagnostic) {
	out, d := b.execute(data, env, collect, marks, sp)
	if d != nil {
		return Output{}, d
	}
	return Output{Text: out.String(), Lead: out.lead, Trail: out.need}, nil
}

// execute is one execution of a body that is not static, returning its output as written. With collect set,
// marks receives the bytes escaped values wrote. sp, when set, is the splice state of a Shrink the execution
// records or replays: it runs with a function set of its own, bound to sp, but with the budget a plain execution
// would give it (none for a body that runs as parsed).
func (b *Body) execute(data map[string]any, env Env, collect bool, marks *[]valueMark, sp *splice) (*limitedBuilder, *source.Diagnostic) {
	t := b.tmpl
	printed := b.printed != nil && !collect && hasPrinted(data, b.printedKeys)
	if printed {
		t = b.printed
	}
	if b.whole {
		data = withoutPrinted(data)
	}
	out := &limitedBuilder{}
	out.Grow(len(b.Block.Body))
	if own := b.perExecution || env.Level != 0 || collect || env.Lines; own || sp != nil {
		set := b.parser.takeExecSet()
		x, err := set.executor(b)
		if err != nil {
			b.parser.putExecSet(set)
			d := b.diag(0, 0, err.Error())
			return nil, &d
		}
		set.f.name = b.Block.ID
		if collect {
			*marks = (*marks)[:0]
			set.f.bind(env, out, marks)
		} else {
			set.f.bind(env, out, nil)
		}
		set.f.sp = sp
		if !own {
			set.f.st = nil // as the body runs as parsed: no budget
		}
		defer func() {
			set.f.bind(Env{}, nil, nil) // hold no caller's state while idle
			set.f.sp = nil
			b.parser.putExecSet(set)
		}()
		t = x.t
		if printed {
			t = x.printed
		}
	}
	if err := t.Execute(out, data); err != nil {
		var be *rangeError
		if errors.As(err, &be) {
			d := b.diag(be.off, be.off, be.Error())
			return nil, &d
		}
		d := b.execError(err)
		return nil, &d
	}
	return out, nil
}
