package projection

import (
	"slices"
	"strings"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// FixtureReplay renders fixture f's conversation with task as a Replay: the runbook, the message of every turn,
// and the replies its [[turn]] tables give (the key assistant).
func FixtureReplay(prog *assemble.Program, task string, f *blocks.Fixture) (Replay, error) {
	s := Replay{Name: f.Name, Replies: f.Replies, After: f.After}
	rb, err := prog.Render(assemble.RenderRequest{Task: task, Fixture: f})
	if err != nil {
		return Replay{}, err
	}
	s.Runbook = rb
	for k := 1; k <= len(f.Turns); k++ {
		a, err := prog.Render(assemble.RenderRequest{Task: task, Fixture: f, Turn: k})
		if err != nil {
			return Replay{}, err
		}
		s.Turns = append(s.Turns, a.Text)
	}
	return s, nil
}

// Input returns the request of turn k (from 1) of the replay: its runbook, the turns before k each followed by
// its reply as the history, and turn k's message.
func (s Replay) Input(k int) Input {
	return layoutInput(LayoutPromptc, s, k-1)
}

// ReplayFixtures returns the fixtures that make replays of task, the ones promptc simulate replays when none is
// named: those that render task and have [[turn]] entries, sorted by name.
func ReplayFixtures(p *blocks.Project, task string) []*blocks.Fixture {
	var out []*blocks.Fixture
	for _, f := range p.Fixtures {
		if f.AdmitsTask(task) && len(f.Turns) > 0 {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b *blocks.Fixture) int { return strings.Compare(a.Name, b.Name) })
	return out
}
