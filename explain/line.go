package explain

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
)

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
	// Source is where the line is written: the heading's title, the body or template line of its first literal
	// text, else the source of its first origin, else (a separator, or a line traced no further) the block's id.
	Source source.Range
	// From lists what wrote the line's bytes, each source once, in the order of the bytes: the heading, literal
	// text of the body or template (once per source line, at its first byte there), constants, values, references,
	// other actions (assemble.OriginKind names them). Empty for a separator.
	From []assemble.Origin
	// Budget is what the turn budget did to the turn message (nil without [turn] max_tokens, and for a runbook).
	Budget *assemble.Budget
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
	if !slices.Contains(p.Tasks, a.Task) {
		return nil, fmt.Errorf("%s: unknown task %q%s", path, a.Task, suggest.DidYouMean(a.Task, p.Tasks))
	}
	f := p.Fixture(a.Fixture)
	if f == nil {
		names := make([]string, len(p.Fixtures))
		for i, f := range p.Fixtures {
			names[i] = f.Name
		}
		return nil, fmt.Errorf("%s: no fixture %q%s", path, a.Fixture, suggest.DidYouMean(a.Fixture, names))
	}
	if !f.AdmitsTask(a.Task) {
		return nil, fmt.Errorf("%s: fixture %q does not render task %q", path, f.Name, a.Task)
	}
	if a.Kind == blocks.Turn {
		switch {
		case len(p.Turn.Order) == 0:
			return nil, fmt.Errorf("%s: this project has no turn message ([turn] order is empty)", path)
		case a.Turn > len(f.Turns):
			return nil, fmt.Errorf("%s: fixture %q has %s", path, f.Name, plural.Count(len(f.Turns), "turn"))
		}
	}
	return prog.Render(assemble.RenderRequest{Task: a.Task, Fixture: f, Turn: a.Turn})
}

// Line explains line n (from 1) of the artifact at path, rendered from the program as Artifact does: the block
// that wrote it (Artifact.SpanAt at the line's first byte), the scope and segment, and what wrote each of its bytes
// (Artifact.Origin): literal text, a constant, a variable's value, another action. The answer is exact: the
// compiler re-runs the block's body and records which part of it wrote each byte. A line outside the artifact is
// an error saying how many lines it has.
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
		return nil, fmt.Errorf("%s has %s; line %d is out of range", a.Path, plural.Count(lines, "line"), n)
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
	r := &LineReport{Artifact: a.Path, Line: n, Text: a.Text[start:end], Start: start, End: end, Block: b, Scope: span.Scope, Source: b.Range, Budget: a.Budget}
	r.Segment, _, _ = segmentOf(a, max(start, span.TextStart))
	bodyStart := span.TextStart
	if h := b.Heading(); h != "" {
		bodyStart += len(h) + 2
		if start == span.TextStart {
			r.Part = "heading"
		}
	}
	switch {
	case r.Part == "heading":
	case start < bodyStart:
		r.Part = "separator"
		return r, nil
	default:
		r.Part = "body"
	}
	r.From = origins(a, b, start, end)
	for _, o := range r.From {
		if k := o.Kind; k == assemble.OriginHeading || k == assemble.OriginText || k == assemble.OriginTemplate {
			r.Source = o.At
			break
		}
	}
	if r.Source == b.Range && len(r.From) > 0 {
		r.Source = r.From[0].At
	}
	return r, nil
}

// origins lists what wrote bytes [start, end) of a, all of block b's text: each source once, in the order of the
// bytes. Literal text counts once per source line, at its first byte there; an action once, at its place. Bytes
// traced no further than the block (a separator, a body whose trace fails) add nothing.
func origins(a *assemble.Artifact, b *blocks.Block, start, end int) []assemble.Origin {
	// A source is known by its kind and name, literal text by its file and line, an action by its place: one
	// comparison per byte.
	type key struct {
		kind assemble.OriginKind
		name string
		file string
		line int
		at   source.Range
	}
	var out []assemble.Origin
	seen := map[key]bool{}
	for i, o := range a.Origins(start, end) {
		if !utf8.RuneStart(a.Text[start+i]) || o.Block != b {
			continue
		}
		var k key
		switch o.Kind {
		case assemble.OriginBlock:
			continue
		case assemble.OriginHeading, assemble.OriginText, assemble.OriginTemplate:
			k = key{kind: o.Kind, file: o.At.Filename, line: o.At.Start.Line}
		case assemble.OriginConstant, assemble.OriginValue:
			k = key{kind: o.Kind, name: o.Name}
		default:
			k = key{kind: o.Kind, at: o.At}
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, o)
		}
	}
	return out
}
