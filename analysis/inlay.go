package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// InlayHint is a label an editor shows inside a line, at Pos of the file it was asked for: after the text before
// it when PadLeft is set, before the text after it when PadRight is.
type InlayHint struct {
	Pos               source.Pos
	Label, Tooltip    string
	PadLeft, PadRight bool
}

// InlayHints returns the hints of file name that show the cache (docs/editors.md#what-the-editor-shows-of-the-cache):
// in promptc.toml, after each block id of runbook.order, the scope, bytes and tokens of the block filling that
// entry in task's sample runbook (the first fixture by name rendering it), or that it does not render there; and,
// for every task, where its stable prefix (global and task blocks) ends in the order and its bytes and tokens.
// Other files have none, and so does a project with errors. Hints are in position order, those at one place in
// the order of the manifest's tasks.
func (s *Snapshot) InlayHints(name, task string) []InlayHint {
	p := s.Project
	if name != blocks.ManifestFile || len(s.diags) > 0 || p.Runbook.Table == nil {
		return nil
	}
	var out []InlayHint
	if a := s.sample(task); a != nil && slices.Contains(p.Tasks, task) {
		bySlot := map[string]int{}
		for i, sp := range a.Spans {
			if _, ok := bySlot[sp.Block.Slot]; !ok {
				bySlot[sp.Block.Slot] = i
			}
		}
		for i, id := range p.Runbook.Order {
			r := p.Runbook.EntryRange(i)
			if r.Start.Line == 0 {
				continue
			}
			h := InlayHint{Pos: r.End, PadLeft: true}
			k, ok := bySlot[id]
			if !ok {
				h.Label = fmt.Sprintf("not in %q", task)
				h.Tooltip = fmt.Sprintf("block %q does not render in task %q with fixture %q (a gate or a when condition leaves it out)", id, task, a.Fixture)
				out = append(out, h)
				continue
			}
			sp := a.Spans[k]
			text := a.Text[sp.Start:sp.End]
			h.Label = fmt.Sprintf("%s, %d B, %d tokens", sp.Scope, len(text), counter().Count(text))
			if sp.Block.ID != id {
				h.Label = fmt.Sprintf("%q: %s", sp.Block.ID, h.Label)
			}
			h.Tooltip = fmt.Sprintf("block %q in task %q, fixture %q (%s), bytes %d-%d of the runbook, the separator before it included; tokens are %s estimates",
				sp.Block.ID, task, a.Fixture, a.Path, sp.Start, sp.End, counter().Encoding())
			out = append(out, h)
		}
	}
	for _, t := range p.Tasks {
		a := s.sample(t)
		if a == nil || len(a.Spans) == 0 {
			continue
		}
		pre := s.stablePrefix(a)
		h := InlayHint{Tooltip: fmt.Sprintf("the stable prefix of task %q (its global and task blocks), what every session of the task shares, measured in %s; tokens are %s estimates",
			t, a.Path, counter().Encoding())}
		slot, before := a.Spans[len(a.Spans)-1].Block.Slot, false
		if pre.ok {
			slot, before = pre.next.Block.Slot, true
		}
		i := slices.Index(p.Runbook.Order, slot)
		r := p.Runbook.EntryRange(i)
		if i < 0 || r.Start.Line == 0 {
			continue
		}
		if before {
			h.Pos, h.PadRight = r.Start, true
			h.Label = fmt.Sprintf("%q prefix ends: %d B, %d tokens", t, pre.bytes, pre.tokens)
		} else {
			h.Pos, h.PadLeft = r.End, true
			h.Label = fmt.Sprintf("%q prefix is the whole runbook: %d B, %d tokens", t, pre.bytes, pre.tokens)
		}
		out = append(out, h)
	}
	slices.SortStableFunc(out, func(a, b InlayHint) int { return a.Pos.Byte - b.Pos.Byte })
	return out
}

// TaskInView returns the task the hints of InlayHints measure when the editor has not chosen one: the task of
// the golden artifact or fixture file at name (a slash path relative to the root; for a fixture, the first task of
// the manifest it renders), else the first task of the manifest ("" when there is none).
func (s *Snapshot) TaskInView(name string) (string, bool) {
	p := s.Project
	if rest, ok := strings.CutPrefix(name, "golden/"); ok {
		for _, t := range p.Tasks {
			if r, ok := strings.CutPrefix(rest, t+"/"); ok && r != "" {
				return t, true
			}
		}
	}
	if rest, ok := strings.CutPrefix(name, "fixtures/"); ok {
		if f := p.Fixture(strings.TrimSuffix(rest, ".toml")); f != nil {
			for _, t := range p.Tasks {
				if f.AdmitsTask(t) {
					return t, true
				}
			}
		}
	}
	if len(p.Tasks) > 0 {
		return p.Tasks[0], false
	}
	return "", false
}
