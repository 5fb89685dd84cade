package explain

import (
	"fmt"
	"strings"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// Origin is a source that wrote (part of) a line: the block's own text, a constant, a variable, or a reference.
type Origin struct {
	// Kind is "text" (the block's literal text, or its title), "const", "var" or "ref".
	Kind string
	// Name is the constant, variable or referenced block ("" for text).
	Name string
	// At is where it is written: the body's source line for text; the line of the constant's value; the use of
	// the variable or the ref call in the body.
	At blocks.Range
}

// LineReport is what Line finds about one line of an artifact.
type LineReport struct {
	Artifact string // the artifact's path, "chat/basic.runbook.md"
	Line     int    // from 1
	Text     string // the line, without its newline
	// Start and End are the line's bytes in the artifact, its newline excluded.
	Start, End int
	Block      *blocks.Block
	Scope      blocks.Scope
	// Segment is the part of the artifact holding the line (see Placement.Segment).
	Segment blocks.Scope
	// Part is "heading", "body", or "separator" (a blank line before the block's text, or between its heading and
	// its body).
	Part string
	// Source is where the line is written: the heading's title, the body line it comes from, or (when that cannot
	// be told) the block's id.
	Source blocks.Range
	// From lists what wrote the line, best match first: the literal text, and the constants, variables and
	// references whose text it shows. Empty when the line cannot be traced further than its block.
	From []Origin
}

// ParseTarget splits a command-line argument PATH:LINE into an artifact path (TASK/FIXTURE.runbook.md or
// TASK/FIXTURE.turn-K.md, optionally under build/ or golden/, with either slash) and a line number.
func ParseTarget(arg string) (path string, line int, err error) {
	i := strings.LastIndex(arg, ":")
	if i < 0 {
		return "", 0, fmt.Errorf("%q is not PATH:LINE", arg)
	}
	path, num := strings.ReplaceAll(arg[:i], `\`, "/"), arg[i+1:]
	if _, err := fmt.Sscan(num, &line); err != nil || fmt.Sprint(line) != num || line < 1 {
		return "", 0, fmt.Errorf("%q: the line must be a number from 1, not %q", arg, num)
	}
	path = strings.TrimPrefix(path, "./")
	for _, dir := range []string{"build/", "golden/"} {
		path = strings.TrimPrefix(path, dir)
	}
	if _, ok := assemble.ParsePath(path); !ok {
		return "", 0, fmt.Errorf("%q is not an artifact path: use TASK/FIXTURE.runbook.md or TASK/FIXTURE.turn-K.md, under build/ or golden/", arg[:i])
	}
	return path, line, nil
}

// Artifact renders the artifact at path (as ArtifactPath writes it) from the program: the task and fixture it
// names must exist and the fixture must render the task.
func Artifact(prog *assemble.Program, path string) (*assemble.Artifact, error) {
	a, ok := assemble.ParsePath(path)
	if !ok {
		return nil, fmt.Errorf("%q is not an artifact path: use TASK/FIXTURE.runbook.md or TASK/FIXTURE.turn-K.md", path)
	}
	p := prog.Project
	if !contains(p.Tasks, a.Task) {
		return nil, fmt.Errorf("%s: unknown task %q%s", path, a.Task, blocks.DidYouMean(a.Task, p.Tasks))
	}
	f := p.Fixture(a.Fixture)
	if f == nil {
		names := make([]string, len(p.Fixtures))
		for i, f := range p.Fixtures {
			names[i] = f.Name
		}
		return nil, fmt.Errorf("%s: no fixture %q%s", path, a.Fixture, blocks.DidYouMean(a.Fixture, names))
	}
	if !f.AdmitsTask(a.Task) {
		return nil, fmt.Errorf("%s: fixture %q does not render task %q", path, f.Name, a.Task)
	}
	if a.Kind == blocks.Turn {
		switch {
		case len(p.Turn.Order) == 0:
			return nil, fmt.Errorf("%s: this project has no turn message ([turn] order is empty)", path)
		case a.Turn > len(f.Turns):
			return nil, fmt.Errorf("%s: fixture %q has %d turns", path, f.Name, len(f.Turns))
		}
	}
	out, diags := prog.Render(assemble.Request{Task: a.Task, Fixture: f, Turn: a.Turn})
	if len(diags) > 0 {
		return nil, diags
	}
	return out, nil
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// Line explains line n (from 1) of the artifact at path, rendered from the program as Artifact does: the block
// that wrote it (Artifact.SpanAt at the line's first byte), the scope and segment, where the line is written, and
// which constant, variable or reference it shows. A body without template actions maps line for line; a template
// is traced through its literal text and the values it prints, which names the source whenever the line's text is
// found there. A line outside the artifact is an error saying how many lines it has.
func Line(prog *assemble.Program, path string, n int) (*LineReport, error) {
	a, err := Artifact(prog, path)
	if err != nil {
		return nil, err
	}
	return lineOfArtifact(prog, a, n)
}

func lineOfArtifact(prog *assemble.Program, a *assemble.Artifact, n int) (*LineReport, error) {
	lines := strings.Count(a.Text, "\n")
	if a.Text != "" && !strings.HasSuffix(a.Text, "\n") {
		lines++
	}
	if n < 1 || n > lines {
		return nil, fmt.Errorf("%s has %s; line %d is out of range", a.Path, plural(lines, "1 line", fmt.Sprintf("%d lines", lines)), n)
	}
	start := 0
	for i := 1; i < n; i++ {
		start += strings.IndexByte(a.Text[start:], '\n') + 1
	}
	end := len(a.Text)
	if j := strings.IndexByte(a.Text[start:], '\n'); j >= 0 {
		end = start + j
	}
	span, ok := a.SpanAt(start)
	if !ok {
		return nil, fmt.Errorf("%s: no block wrote line %d", a.Path, n)
	}
	b := span.Block
	r := &LineReport{Artifact: a.Path, Line: n, Text: a.Text[start:end], Start: start, End: end, Block: b, Scope: span.Scope, Source: b.Range}
	r.Segment, _, _ = segmentOf(a, max(start, span.TextStart))
	bodyStart := span.TextStart
	if h := b.Heading(); h != "" {
		bodyStart += len(h) + 2
		if start == span.TextStart {
			r.Part, r.Source = "heading", b.Table.Value("title")
			r.From = []Origin{{Kind: "text", At: r.Source}}
			return r, nil
		}
	}
	if start < bodyStart {
		r.Part = "separator"
		return r, nil
	}
	r.Part = "body"
	rendered := strings.TrimSuffix(a.Text[bodyStart:span.End], "\n")
	trace(prog, a, b, rendered, start-bodyStart, r)
	return r, nil
}
