package assemble

import (
	"testing"

	"github.com/promptc/promptc/blocks"
)

func TestTally(t *testing.T) {
	arts := []*Artifact{
		{Task: "chat", Fixture: "a", Kind: blocks.Runbook},
		{Task: "chat", Fixture: "a", Kind: blocks.Turn, Turn: 1},
		{Task: "chat", Fixture: "a", Kind: blocks.Turn, Turn: 2},
		{Task: "issue", Fixture: "a", Kind: blocks.Runbook},
		{Task: "issue", Fixture: "b", Kind: blocks.Runbook},
	}
	tests := []struct {
		arts []*Artifact
		want string
	}{
		{nil, "no artifacts"},
		{arts[:1], "1 artifact (1 task, 1 fixture: 1 runbook)"},
		{arts, "5 artifacts (2 tasks, 2 fixtures: 3 runbooks, 2 turn messages)"},
	}
	for _, tt := range tests {
		if got := CoverageOf(tt.arts).String(); got != tt.want {
			t.Errorf("TallyOf(%d artifacts) = %q, want %q", len(tt.arts), got, tt.want)
		}
	}
}
