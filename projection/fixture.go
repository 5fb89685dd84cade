package projection

import (
	"slices"
	"strings"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// FixtureSession renders fixture f's session of task: the runbook, the message of every turn, and the replies its
// [[turn]] tables give (the key assistant).
func FixtureSession(prog *assemble.Program, task string, f *blocks.Fixture) (Session, error) {
	s := Session{Name: f.Name, Replies: f.Replies, After: f.After}
	rb, diags := prog.Render(assemble.Request{Task: task, Fixture: f})
	if len(diags) > 0 {
		return Session{}, diags
	}
	s.Runbook = rb
	for k := 1; k <= len(f.Turns); k++ {
		a, diags := prog.Render(assemble.Request{Task: task, Fixture: f, Turn: k})
		if len(diags) > 0 {
			return Session{}, diags
		}
		s.Turns = append(s.Turns, a.Text)
	}
	return s, nil
}

// Input returns the request of turn k (from 1) of the session: its runbook, the turns before k each followed by
// its reply as the history, and turn k's message.
func (s Session) Input(k int) Input {
	return layoutInput(LayoutPromptc, s, k-1)
}

// SessionFixtures returns the fixtures that make sessions of task, the ones promptc simulate replays when none is
// named: those that render task and have [[turn]] entries, sorted by name.
func SessionFixtures(p *blocks.Project, task string) []*blocks.Fixture {
	var out []*blocks.Fixture
	for _, f := range p.Fixtures {
		if f.AdmitsTask(task) && len(f.Turns) > 0 {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b *blocks.Fixture) int { return strings.Compare(a.Name, b.Name) })
	return out
}
