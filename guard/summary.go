package guard

import (
	"fmt"
	"sort"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/golden"
	"github.com/promptc/promptc/internal/plural"
)

// Summary says in a few lines what a set of changes costs: which tasks and scopes are hit, and the cached tokens
// lost in all.
type Summary struct {
	Lines             []string `json:"lines"`
	Artifacts         int      `json:"artifacts"`
	InvalidatedBytes  int      `json:"invalidated_bytes"`
	InvalidatedTokens int      `json:"invalidated_tokens"`
}

// Summarize reads the changes the way a reviewer would: a global prefix change invalidates every task's cache; a task
// or session change only its own; a turn message change loses no cached prefix.
func (r *Report) Summarize() Summary {
	s := Summary{Artifacts: len(r.Changes)}
	byScope := map[blocks.Scope][]string{}
	var added, removed, tails []string
	for _, c := range r.Changes {
		s.InvalidatedBytes += c.InvalidatedBytes
		s.InvalidatedTokens += c.InvalidatedTokens
		switch {
		case c.Status == golden.Added:
			added = append(added, c.Path)
		case c.Status == golden.Removed:
			removed = append(removed, c.Path)
		case c.Kind == blocks.Turn:
			byScope[blocks.ScopeTurn] = append(byScope[blocks.ScopeTurn], c.Task)
		case c.Block == "" && c.After != "":
			tails = append(tails, c.Task)
		default:
			scope := c.Scope
			if !c.attributed() {
				scope = blocks.ScopeTask
			}
			byScope[scope] = append(byScope[scope], c.Task)
		}
	}
	if tasks := byScope[blocks.ScopeGlobal]; len(tasks) > 0 {
		s.Lines = append(s.Lines, "global prefix changed: every task's cache is invalidated")
	}
	if tasks := byScope[blocks.ScopeTask]; len(tasks) > 0 {
		s.Lines = append(s.Lines, byTasks(tasks,
			"task prefix of %s changed: %[1]s's cache is invalidated",
			"task prefix of %s changed: their caches are invalidated"))
	}
	if tasks := byScope[blocks.ScopeSession]; len(tasks) > 0 {
		s.Lines = append(s.Lines, byTasks(tasks,
			"session part of %s's runbook changed: its cached sessions are invalidated from there",
			"session part of the runbooks of %s changed: their cached sessions are invalidated from there"))
	}
	if tasks := byScope[blocks.ScopeTurn]; len(tasks) > 0 {
		s.Lines = append(s.Lines, byTasks(tasks,
			"%s's turn message changed: no cached prefix is lost",
			"turn messages of %s changed: no cached prefix is lost"))
	}
	if len(tails) > 0 {
		s.Lines = append(s.Lines, byTasks(tails,
			"text removed at the end of %s's runbook: the cached prefix before it is intact",
			"text removed at the end of the runbooks of %s: the cached prefixes before it are intact"))
	}
	if len(added) > 0 {
		s.Lines = append(s.Lines, fmt.Sprintf("%d new %s: %s", len(added), plural.Noun(len(added), "artifact", "artifacts"), listPaths(added)))
	}
	if len(removed) > 0 {
		s.Lines = append(s.Lines, fmt.Sprintf("%d %s no longer produced: %s", len(removed), plural.Noun(len(removed), "artifact", "artifacts"), listPaths(removed)))
	}
	return s
}

func uniqueSorted(list []string) []string {
	set := map[string]bool{}
	var out []string
	for _, s := range list {
		if !set[s] {
			set[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// byTasks fills one of two sentences with the distinct tasks, sorted: one for a single task, one for several.
func byTasks(tasks []string, one, many string) string {
	u := uniqueSorted(tasks)
	if len(u) == 1 {
		return fmt.Sprintf(one, u[0])
	}
	return fmt.Sprintf(many, strings.Join(u, ", "))
}

func listPaths(paths []string) string {
	if len(paths) <= 3 {
		return strings.Join(paths, ", ")
	}
	return strings.Join(paths[:3], ", ") + fmt.Sprintf(" and %d more", len(paths)-3)
}
