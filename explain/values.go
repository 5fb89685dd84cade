package explain

import (
	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/templates"
)

// DefaultFixture is the fixture Block samples a task with when none is given, by the policy of blocks.Project
// (docs/reference.md#default-and-sample-fixtures): the only fixture rendering the task (Project.DefaultFixture),
// else the first by name of those that do (Project.SampleFixture; ok is false when several could be meant, so the
// caller can say which one it took), else nil.
func DefaultFixture(p *blocks.Project, task string) (f *blocks.Fixture, ok bool) {
	if f, _ := p.DefaultFixture(task); f != nil {
		return f, true
	}
	return p.SampleFixture(task), false
}

// values are the prepared values of one fixture's session, or of one of its turns on top of it.
type values map[string]any

// prepare returns what templates see for the fixture's session values (turn 0) or its turn k: the values go through
// templates.Prepare as rendering does, so truthiness and text match what rendering decides.
func prepare(prog *assemble.Program, f *blocks.Fixture, k int) values {
	p := prog.Project
	out := values{}
	var markers []string
	for _, t := range p.Targets {
		for _, m := range []string{t.Begin, t.End} {
			if m != "" {
				markers = append(markers, m)
			}
		}
	}
	for name, v := range p.Vars {
		var raw any
		if f != nil {
			switch {
			case v.Scope == blocks.ScopeSession:
				raw = f.Session[name]
			case k >= 1 && k <= len(f.Turns):
				raw = f.Turns[k-1][name]
			}
		}
		val, _, err := templates.Prepare(v, raw, markers)
		if err != nil {
			continue // reported by rendering
		}
		out[name] = val
	}
	return out
}
