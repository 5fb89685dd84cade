package assemble

import (
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/plural"
)

// Coverage counts what a set of artifacts covers: the tasks and fixtures they were rendered for, and how many of each
// kind. Commands print it under --verbose, so that a user can tell a check that compared every artifact from one that
// compared nothing.
type Coverage struct {
	Tasks, Fixtures int
	Runbooks, Turns int
}

// CoverageOf counts arts.
func CoverageOf(arts []*Artifact) Coverage {
	var t Coverage
	tasks, fixtures := map[string]bool{}, map[string]bool{}
	for _, a := range arts {
		tasks[a.Task], fixtures[a.Fixture] = true, true
		if a.Kind == blocks.Turn {
			t.Turns++
		} else {
			t.Runbooks++
		}
	}
	t.Tasks, t.Fixtures = len(tasks), len(fixtures)
	return t
}

// Artifacts is how many artifacts there are in all.
func (t Coverage) Artifacts() int { return t.Runbooks + t.Turns }

// String is "14 artifacts (3 tasks, 2 fixtures: 6 runbooks, 8 turn messages)", or "no artifacts".
func (t Coverage) String() string {
	if t.Artifacts() == 0 {
		return "no artifacts"
	}
	kinds := []string{plural.Count(t.Runbooks, "runbook")}
	if t.Turns > 0 {
		kinds = append(kinds, plural.Count(t.Turns, "turn message"))
	}
	return plural.Count(t.Artifacts(), "artifact") + " (" + plural.Count(t.Tasks, "task") + ", " +
		plural.Count(t.Fixtures, "fixture") + ": " + strings.Join(kinds, ", ") + ")"
}
