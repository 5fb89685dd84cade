package assemble

import (
	"strconv"
	"strings"

	"github.com/promptc/promptc/blocks"
)

// ArtifactPath returns the slash path of an artifact in an output tree (docs/reference.md#artifacts): TASK/FIXTURE.runbook.md for a runbook,
// TASK/FIXTURE.turn-K.md for turn message K.
func ArtifactPath(task, fixture string, kind blocks.Kind, turn int) string {
	if kind == blocks.Turn {
		return task + "/" + fixture + ".turn-" + strconv.Itoa(turn) + ".md"
	}
	return task + "/" + fixture + ".runbook.md"
}

// ParsePath reads an artifact path as ArtifactPath writes it, returning an Artifact with its Path, Task, Fixture,
// Kind and Turn set (and no text), and false for a path that is not an artifact's.
func ParsePath(p string) (*Artifact, bool) {
	task, name, ok := strings.Cut(p, "/")
	if !ok || !isTaskName(task) || strings.Contains(name, "/") {
		return nil, false
	}
	a := &Artifact{Path: p, Task: task}
	if f, ok := strings.CutSuffix(name, ".runbook.md"); ok && f != "" {
		a.Fixture, a.Kind = f, blocks.Runbook
		return a, true
	}
	rest, ok := strings.CutSuffix(name, ".md")
	i := strings.LastIndex(rest, ".turn-")
	if !ok || i <= 0 {
		return nil, false
	}
	k := rest[i+len(".turn-"):]
	n, err := strconv.Atoi(k)
	if err != nil || n < 1 || strconv.Itoa(n) != k {
		return nil, false
	}
	a.Fixture, a.Kind, a.Turn = rest[:i], blocks.Turn, n
	return a, true
}

// isTaskName reports whether s matches [a-z][a-z0-9_]*, the syntax of task names.
func isTaskName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
