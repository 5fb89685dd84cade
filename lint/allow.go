package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
)

// applyAllows drops the findings that an [[lint.allow]] entry matches and reports the entries that name an unknown
// lint or block (unknown-allow) or match nothing (unused-allow).
func (l *linter) applyAllows() []Finding {
	type allow struct {
		a    *blocks.Allow
		used bool
	}
	var valid []*allow
	var out []Finding
	problem := func(lint ID, at source.Range, fix, format string, args ...any) {
		out = append(out, newFinding(lint, at, "", fix, fmt.Sprintf(format, args...)))
	}
	ids := IDs()
	for _, a := range l.p.Allow {
		if a.Lint == "" {
			continue // reported by the loader
		}
		lintPos := a.Table.Value("lint")
		r, known := lintRules[ID(a.Lint)]
		switch {
		case !known:
			problem(UnknownAllow, lintPos, "name one of: "+strings.Join(silenceable(), ", "),
				"[[lint.allow]] names unknown lint %q%s", a.Lint, suggest.DidYouMean(a.Lint, idStrings(ids)))
			continue
		case ID(a.Lint) == UncoveredTask:
			problem(UnknownAllow, lintPos, "remove this [[lint.allow]] and add a fixture whose tasks admit the task",
				"[[lint.allow]] cannot silence %s: a task no fixture renders is unguarded, and a fixture is the fix", a.Lint)
			continue
		case r.subjects == 0:
			problem(UnknownAllow, lintPos, "remove this [[lint.allow]]; those findings go away when the allows they name are fixed or removed",
				"[[lint.allow]] cannot silence %s: it reports the silences themselves", a.Lint)
			continue
		}
		if a.Block != "" {
			if s := l.subjects(r.subjects); !s.has[a.Block] {
				blockPos := a.Table.Value("block")
				problem(UnknownAllow, blockPos, "name an existing "+s.kind+", or remove block to silence the lint everywhere",
					"[[lint.allow]] for %s names unknown %s %q%s", a.Lint, s.kind, a.Block, suggest.DidYouMean(a.Block, s.names))
				continue
			}
		}
		valid = append(valid, &allow{a: a})
	}
	// Each finding is matched against the entries for its lint with no block and those naming its block: a map
	// look-up, so that thousands of entries (as import writes for invisible characters) cost no more per finding.
	type match struct {
		lint  ID
		block string
	}
	byMatch := map[match][]*allow{}
	for _, al := range valid {
		m := match{ID(al.a.Lint), al.a.Block}
		byMatch[m] = append(byMatch[m], al)
	}
	for _, f := range l.out {
		silenced := false
		for _, m := range []match{{f.Lint, ""}, {f.Lint, f.Block}} {
			for _, al := range byMatch[m] {
				al.used, silenced = true, true
			}
			if f.Block == "" {
				break // both are the same entries
			}
		}
		if !silenced {
			out = append(out, f)
		}
	}
	for _, al := range valid {
		if al.used || !l.ran[ID(al.a.Lint)] {
			continue
		}
		what := fmt.Sprintf("%q", al.a.Lint)
		if al.a.Block != "" {
			what += fmt.Sprintf(" for %q", al.a.Block)
		}
		problem(UnusedAllow, al.a.Range, "remove this [[lint.allow]]",
			"[[lint.allow]] of %s silences nothing: the finding it was written for is gone", what)
	}
	return out
}

func silenceable() []string {
	var ids []string
	for _, id := range IDs() {
		if lintRules[id].subjects != 0 {
			ids = append(ids, string(id))
		}
	}
	return ids
}

func idStrings(ids []ID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = string(id)
	}
	return out
}

// subjectList is what an allow's block key may name for a lint: the names, sorted, as a set, and how to call them.
type subjectList struct {
	names []string
	has   map[string]bool
	kind  string
}

// subjects returns the names an allow's block key may take for a lint with the given subject kinds, built once per
// kinds for all the entries.
func (l *linter) subjects(kinds int) *subjectList {
	if s, ok := l.subjectLists[kinds]; ok {
		return s
	}
	var names, what []string
	if kinds&subjBlock != 0 {
		for _, b := range l.p.Blocks {
			names = append(names, b.ID)
		}
		what = append(what, "block")
	}
	if kinds&subjConst != 0 {
		names = append(names, lintKeys(l.p.Consts)...)
		what = append(what, "constant")
	}
	if kinds&subjVar != 0 {
		names = append(names, lintKeys(l.p.Vars)...)
		what = append(what, "variable")
	}
	if kinds&subjTask != 0 {
		names = append(names, l.p.Tasks...)
		what = append(what, "task")
	}
	sort.Strings(names)
	s := &subjectList{names: names, has: make(map[string]bool, len(names)), kind: strings.Join(what, " or ")}
	for _, n := range names {
		s.has[n] = true
	}
	if l.subjectLists == nil {
		l.subjectLists = map[int]*subjectList{}
	}
	l.subjectLists[kinds] = s
	return s
}
