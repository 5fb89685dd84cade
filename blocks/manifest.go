package blocks

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/promptc/promptc/source"
)

// maxLimit bounds the integer limits of a variable (max_runes and the list limits).
const maxLimit = 1 << 31

// The keys of each table of promptc.toml, in the order they are read and listed in "known keys" hints.
var (
	manifestKeys = []key[*loader]{
		{name: "name", kind: kindString, need: needText[*loader](`promptc.toml needs a project name: add name = "…"`), set: setName},
		{name: "tasks", kind: kindStrings, need: needText[*loader](`promptc.toml needs its task kinds: add tasks = ["…"]`), set: setTasks},
		{name: "runbook", kind: kindTable, set: func(r *tableReader, l *loader, v value) { l.p.Runbook = l.section(r, v) }},
		{name: "turn", kind: kindTable, set: func(r *tableReader, l *loader, v value) { l.p.Turn = l.section(r, v) }},
		{name: "final_newline", kind: kindBool, set: setFinalNewline},
		{name: "vars", kind: kindTable, set: setVars},
		{name: "target", kind: kindTables, set: setTargets},
		{name: "lint", kind: kindTable, set: setLint},
		{name: "history", kind: kindTable, set: setHistory},
		{name: "model", kind: kindTables, set: setModels},
		{name: "traffic", kind: kindTable, set: setTraffic},
	}
	sectionKeys = []key[*Section]{
		{name: "order", kind: kindStrings, set: func(_ *tableReader, s *Section, v value) { s.Order = v.list }},
		{name: "separator", kind: kindString, set: func(_ *tableReader, s *Section, v value) { s.Separator = v.str }},
		{name: "max_tokens", kind: kindInt, min: 1, max: maxLimit, only: func(s *Section) string {
			if s.Kind != Turn {
				return "applies only to [turn]: the runbook is the cached prefix, never cut to a budget"
			}
			return ""
		}, set: func(_ *tableReader, s *Section, v value) { s.MaxTokens = int(v.n) }},
		{name: "final_newline", kind: kindBool, set: func(_ *tableReader, s *Section, v value) { s.OmitFinalNewline, s.finalSet = !v.b, true }},
	}
	targetKeys = []key[*Target]{
		{name: "name", kind: kindString, need: needText[*Target]("[[target]] needs name"), set: setTargetField},
		{name: "file", kind: kindString, need: needText[*Target]("[[target]] needs file"), set: setTargetField},
		{name: "begin", kind: kindString, need: needText[*Target]("[[target]] needs begin"), set: setTargetField},
		{name: "end", kind: kindString, need: needText[*Target]("[[target]] needs end"), set: setTargetField},
	}
	lintKeys  = []key[*loader]{{name: "allow", kind: kindTables, set: setAllows}}
	allowKeys = []key[*Allow]{
		{name: "lint", kind: kindString, set: func(_ *tableReader, a *Allow, v value) { a.Lint = v.str }},
		{name: "block", kind: kindString, set: func(_ *tableReader, a *Allow, v value) { a.Block = v.str }},
		{name: "reason", kind: kindString, set: func(_ *tableReader, a *Allow, v value) { a.Reason = v.str }},
	}
)

// needText makes a key's need function that always gives msg.
func needText[T any](msg string) func(T) string { return func(T) string { return msg } }

func (l *loader) manifest(f *sourceFile) {
	r := l.table(f.file, f.ix, "", 0, "promptc.toml", f.m)
	l.p.Manifest = r.src
	l.p.Runbook = Section{Kind: Runbook, Separator: DefaultSeparator}
	l.p.Turn = Section{Kind: Turn, Separator: DefaultSeparator}
	decode(r, l, manifestKeys)
}

// setFinalNewline reads the manifest's final_newline: the default of [runbook] and [turn], each of which may set its
// own. The sections are read before it (manifestKeys' order), so it goes to those that did not.
func setFinalNewline(_ *tableReader, l *loader, v value) {
	for _, s := range []*Section{&l.p.Runbook, &l.p.Turn} {
		if !s.finalSet {
			s.OmitFinalNewline = !v.b
		}
	}
}

func setName(r *tableReader, l *loader, v value) {
	if strings.TrimSpace(v.str) == "" {
		r.errorf("name", "name must not be empty")
		return
	}
	l.p.Name = v.str
}

func setTasks(r *tableReader, l *loader, v value) {
	if len(v.list) == 0 {
		r.errorf("tasks", "tasks must list at least one task kind")
	}
	// Invalid and repeated names are reported at the tasks key, as one problem with the list, which is how the CLI
	// has always reported them; the ranges of the valid ones are kept for what is said about each task later.
	for i, task := range v.list {
		switch {
		case !isName(task):
			r.errorf("tasks", "task name %q is not valid: task names match [a-z][a-z0-9_]*", task)
			l.badTasks[task] = true
		case slices.Contains(l.p.Tasks, task):
			r.errorf("tasks", "task %q is listed twice", task)
		default:
			l.p.Tasks = append(l.p.Tasks, task)
			l.p.taskRanges = append(l.p.taskRanges, r.item("tasks", i))
		}
	}
}

// section reads [runbook] or [turn]. Block ids are checked later, once the blocks are loaded.
func (l *loader) section(parent *tableReader, v value) Section {
	s := Section{Kind: Runbook, Separator: DefaultSeparator}
	if v.key == "turn" {
		s.Kind = Turn
	}
	r := l.table(parent.file, parent.ix, v.key, 0, "["+v.key+"]", v.table)
	s.Table = r.src
	decode(r, &s, sectionKeys)
	return s
}

func setVars(r *tableReader, l *loader, v value) {
	for _, name := range sortedKeys(v.table) {
		l.variable(r, name, v.table[name])
	}
}

func setTargets(r *tableReader, l *loader, v value) {
	byName := map[string]source.Range{}
	for i, m := range v.tables {
		tr := l.table(r.file, r.ix, "target", i, "[[target]]", m)
		t := &Target{Range: tr.src.Header, Table: tr.src}
		decode(tr, t, targetKeys)
		if t.Name != "" {
			if prev, dup := byName[t.Name]; dup {
				tr.errorf("name", "target %q is defined twice (also at %s)", t.Name, prev)
			}
			t.Range = tr.keyRange("name")
			byName[t.Name] = t.Range
		}
		if t.Begin != "" && t.Begin == t.End {
			tr.errorf("end", "end marker must differ from begin marker")
		}
		if strings.Contains(t.Begin, "\n") || strings.Contains(t.End, "\n") {
			tr.errorf("begin", "markers must be single lines")
		}
		if t.Begin != "" && t.End != "" && t.Begin != t.End && (strings.Contains(t.Begin, t.End) || strings.Contains(t.End, t.Begin)) {
			tr.l.errorf(tr.valueRange("end"), "end marker %q and begin marker %q must not contain one another: the block is found by searching for them", t.End, t.Begin)
		}
		if t.File != "" {
			if msg := checkTargetFile(t.File); msg != "" {
				tr.l.errorf(tr.valueRange("file"), "target file %q %s", t.File, msg)
			}
		}
		l.p.Targets = append(l.p.Targets, t)
	}
}

// checkTargetFile says what is wrong with a target's file, or "": it must be a relative, slash-separated path to a
// file that stays inside the directory installed into.
func checkTargetFile(file string) string {
	switch {
	case strings.Contains(file, "\\"):
		return "uses \\: separate directories with /, on every system"
	case path.IsAbs(file) || filepath.IsAbs(file) || filepath.VolumeName(file) != "":
		return "is absolute: give a path relative to the directory installed into (install --dir)"
	case slices.Contains(strings.Split(file, "/"), ".."):
		return "climbs out of the directory installed into (..): give a path inside it"
	case strings.HasSuffix(file, "/") || path.Clean(file) == ".":
		return "names a directory: give the context file's name"
	case strings.ContainsRune(file, 0):
		return "holds a NUL byte"
	}
	return ""
}

func setTargetField(r *tableReader, t *Target, v value) {
	if v.str == "" {
		r.errorf(v.key, "%s must not be empty", v.key)
	}
	switch v.key {
	case "name":
		t.Name = v.str
	case "file":
		t.File = v.str
	case "begin":
		t.Begin = v.str
	case "end":
		t.End = v.str
	}
}

func setLint(r *tableReader, l *loader, v value) {
	decode(l.table(r.file, r.ix, "lint", 0, "[lint]", v.table), l, lintKeys)
}

func setAllows(r *tableReader, l *loader, v value) {
	for i, m := range v.tables {
		ar := l.table(r.file, r.ix, "lint.allow", i, "[[lint.allow]]", m)
		a := &Allow{Range: ar.src.Header, Table: ar.src}
		decode(ar, a, allowKeys)
		if a.Lint == "" {
			l.errorf(a.Range, `[[lint.allow]] needs the lint it silences: add lint = "…"`)
		}
		if strings.TrimSpace(a.Reason) == "" {
			l.errorf(a.Range, `[[lint.allow]] needs a reason: add reason = "…" saying why the finding is deliberate`)
		}
		l.p.Allow = append(l.p.Allow, a)
	}
}
