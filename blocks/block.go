package blocks

import (
	"path"
	"slices"
	"sort"
	"strings"
)

var (
	blockFileKeys = []string{"const", "block"}
	blockKeys     = []string{"id", "title", "level", "tasks", "except", "when", "body", "template", "raw", "replaces", "reason"}
)

// blockFile reads one file under blocks/: its [const] table and its [[block]] entries.
func (l *loader) blockFile(file string, m map[string]any, ix *keyIndex) {
	t := l.table(file, ix, "", 0, file, m)
	if consts, ok := t.sub("const"); ok {
		ct := l.table(file, ix, "const", 0, "[const]", consts)
		names := make([]string, 0, len(consts))
		for name := range consts {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			value, ok := ct.str(name)
			if !ok {
				continue
			}
			pos := ct.pos(name)
			if !isConstName(name) {
				l.errorf(pos, "constant name %q is not valid: use letters, digits, '_', '-' and '.'", name)
				continue
			}
			if prev, dup := l.constPos[name]; dup {
				l.errorf(pos, "constant %q is defined twice: here and at %s; keep one (one rule, one place)", name, prev)
				continue
			}
			l.constPos[name] = pos
			c := &Const{Name: name, Value: value, Pos: pos, ValuePos: ct.valPos(name)}
			c.src = newSource(file, l.p.Files[file], c.ValuePos, value, false)
			l.p.Consts[name] = c
		}
	}
	if list, ok := t.tables("block"); ok {
		for i, bm := range list {
			l.block(file, ix, i, bm)
		}
	}
	t.unknown(blockFileKeys...)
}

func isConstName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

func (l *loader) block(file string, ix *keyIndex, n int, m map[string]any) {
	t := l.table(file, ix, "block", n, "[[block]]", m)
	b := &Block{Level: 2, Tasks: []string{"*"}, Pos: t.head()}
	id, ok := t.str("id")
	switch {
	case !ok:
		if _, present := m["id"]; !present {
			l.errorf(t.head(), `block needs an id: add id = "…" (matching [a-z0-9][a-z0-9_-]*)`)
		}
	case !isBlockID(id):
		t.errorf("id", "block id %q is not valid: ids match [a-z0-9][a-z0-9_-]*", id)
	default:
		b.ID = id
		b.Pos = t.pos("id")
	}
	if b.ID != "" {
		t.what = "block " + quoteName(b.ID)
	}

	if title, ok := t.str("title"); ok {
		if strings.ContainsAny(title, "\n") {
			t.errorf("title", "title must be a single line")
		} else {
			b.Title = title
		}
	}
	if level, ok := t.integer("level"); ok {
		if level < 1 || level > 6 {
			t.errorf("level", "level must be between 1 and 6, not %d", level)
		} else {
			b.Level = level
		}
	}
	if tasks, ok := t.strList("tasks"); ok {
		if len(tasks) == 0 {
			t.errorf("tasks", `tasks is empty, so the block would never render: list task kinds, or "*" for all`)
		}
		b.Tasks = tasks
		l.checkTaskNames(t, "tasks", tasks, true)
	}
	if except, ok := t.strList("except"); ok {
		b.Except = except
		l.checkTaskNames(t, "except", except, false)
	}
	if when, ok := t.str("when"); ok {
		b.When = when
		b.WhenPos = t.valPos("when")
		name := strings.TrimPrefix(when, "!")
		if !isName(name) {
			t.errorf("when", `when must name a variable, optionally negated with "!", not %q`, when)
		} else if _, declared := l.p.Vars[name]; !declared {
			t.errorf("when", "when names unknown variable %q%s", name, DidYouMean(name, l.varNames()))
		}
	}

	body, hasBody := t.str("body")
	tmpl, hasTmpl := t.str("template")
	_, bodyPresent := m["body"]
	_, tmplPresent := m["template"]
	switch {
	case bodyPresent && tmplPresent:
		t.errorf("template", "block %s sets both body and template: keep exactly one", quoteName(b.ID))
	case !bodyPresent && !tmplPresent:
		l.errorf(b.Pos, "block %s has neither body nor template: set exactly one", quoteName(b.ID))
	case hasBody:
		b.Body = body
		b.BodyPos = t.valPos("body")
		b.src = newSource(file, l.p.Files[file], b.BodyPos, body, false)
	case hasTmpl:
		b.Template = tmpl
		clean := path.Clean(tmpl)
		if tmpl == "" || path.IsAbs(tmpl) || clean != tmpl || strings.HasPrefix(clean, "../") || clean == ".." {
			t.errorf("template", "template %q must be a clean path relative to templates/", tmpl)
			break
		}
		text, found := l.p.Templates[tmpl]
		if !found && l.brokenTemplates[tmpl] {
			break // reported where it was read
		}
		if !found {
			names := make([]string, 0, len(l.p.Templates))
			for name := range l.p.Templates {
				names = append(names, name)
			}
			t.errorf("template", "template file templates/%s does not exist%s", tmpl, DidYouMean(tmpl, names))
			break
		}
		b.Body = text
		b.BodyPos = Pos{File: "templates/" + tmpl, Line: 1, Col: 1}
		b.src = newSource(b.BodyPos.File, text, b.BodyPos, text, true)
	}
	b.Raw, _ = t.boolean("raw")
	if r, ok := t.str("replaces"); ok {
		b.Replaces = r
	}
	if reason, ok := t.str("reason"); ok {
		b.Reason = reason
	}
	if _, present := m["replaces"]; present {
		if strings.TrimSpace(b.Reason) == "" {
			t.errorf("replaces", "block %s replaces %q without a reason: add reason = \"…\" saying why this task needs its own version", quoteName(b.ID), b.Replaces)
		}
	} else if _, present := m["reason"]; present {
		t.errorf("reason", "reason is set but block %s replaces nothing: remove reason, or add replaces = \"…\"", quoteName(b.ID))
	}
	t.unknown(blockKeys...)

	if b.ID == "" {
		return
	}
	if prev, dup := l.p.ByID[b.ID]; dup {
		l.errorf(b.Pos, "block id %q is defined twice: here and at %s; ids are unique across the project", b.ID, prev.Pos)
		return
	}
	l.p.ByID[b.ID] = b
	l.p.Blocks = append(l.p.Blocks, b)
}

func quoteName(id string) string {
	if id == "" {
		return "(without id)"
	}
	return `"` + id + `"`
}

func (l *loader) varNames() []string {
	names := make([]string, 0, len(l.p.Vars))
	for name := range l.p.Vars {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// checkTaskNames reports names in a gate that the manifest does not declare.
func (l *loader) checkTaskNames(t *table, key string, names []string, star bool) {
	for _, name := range names {
		if star && name == "*" {
			continue
		}
		if !slices.Contains(l.p.Tasks, name) {
			at, _ := l.p.Locate(t.valPos(key), `"`+name+`"`)
			l.errorf(at, "%s names undeclared task %q%s", key, name, DidYouMean(name, l.p.Tasks))
		}
	}
}

// checkBlocks places blocks into the runbook and turn order lists and resolves replaces, once every block is known.
func (l *loader) checkBlocks() {
	p := l.p
	ids := make([]string, 0, len(p.ByID))
	for id := range p.ByID {
		ids = append(ids, id)
	}
	placed := map[string]string{}
	for _, sec := range []struct {
		name string
		s    *Section
	}{{Runbook, &p.Runbook}, {Turn, &p.Turn}} {
		for _, id := range sec.s.Order {
			b, ok := p.ByID[id]
			if !ok && l.p.Incomplete {
				continue
			}
			if !ok {
				at, _ := p.Locate(sec.s.Pos, `"`+id+`"`)
				l.errorf(at, "%s.order names unknown block %q%s", sec.name, id, DidYouMean(id, ids))
				continue
			}
			if prev, dup := placed[id]; dup {
				at := l.locateNth(sec.s.Pos, `"`+id+`"`, sec.s.Order, id)
				if prev == sec.name {
					l.errorf(at, "block %q appears twice in %s.order", id, sec.name)
				} else {
					l.errorf(at, "block %q is in both runbook.order and turn.order: place it in one", id)
				}
				continue
			}
			placed[id] = sec.name
			if b.Replaces != "" {
				at, _ := p.Locate(sec.s.Pos, `"`+id+`"`)
				l.errorf(at, "block %q replaces %q, so it takes that block's slot: remove it from %s.order", id, b.Replaces, sec.name)
				continue
			}
			b.Section = sec.name
			b.Slot = id
		}
	}
	for _, b := range p.Blocks {
		if b.Replaces == "" {
			if _, ok := placed[b.ID]; !ok {
				l.errorf(b.Pos, "block %q is not placed: add it to runbook.order or turn.order, or give it replaces", b.ID)
			}
			continue
		}
		target, ok := p.ByID[b.Replaces]
		switch {
		case b.Replaces == b.ID:
			l.errorf(b.Pos, "block %q replaces itself", b.ID)
		case !ok:
			l.errorf(b.Pos, "block %q replaces unknown block %q%s", b.ID, b.Replaces, DidYouMean(b.Replaces, ids))
		case target.Replaces != "":
			l.errorf(b.Pos, "block %q replaces %q, which itself replaces %q: replace %q directly", b.ID, b.Replaces, target.Replaces, target.Replaces)
		case target.Section == "":
			// target is unplaced: reported above
		default:
			b.Section = target.Section
			b.Slot = target.ID
			target.ReplacedBy = append(target.ReplacedBy, b)
		}
	}
	// Two replacements of one slot must never admit the same task, or the output would depend on which wins.
	for _, b := range p.Blocks {
		for i, r1 := range b.ReplacedBy {
			for _, r2 := range b.ReplacedBy[i+1:] {
				if exclusiveWhen(r1.When, r2.When) {
					continue
				}
				for _, task := range p.Tasks {
					if r1.AdmitsTask(task) && r2.AdmitsTask(task) {
						l.errorf(r2.Pos, "blocks %q and %q both replace %q in task %q: narrow their tasks, or make their when conditions opposite (x and !x)", r1.ID, r2.ID, b.ID, task)
						break
					}
				}
			}
		}
	}
	// when: a runbook block may only depend on session variables (§3.7); turn blocks on either scope.
	for _, b := range p.Blocks {
		if b.When == "" || b.Section == "" {
			continue
		}
		name, _ := b.WhenVar()
		if v, ok := p.Vars[name]; ok && b.Section == Runbook && v.Scope == ScopeTurn {
			l.errorf(b.WhenPos, "runbook block %q has when = %q, but %q is a turn variable: runbook bytes must not depend on the turn; use a session variable or move the block to turn.order", b.ID, b.When, name)
		}
	}
}

// exclusiveWhen reports whether two when conditions can never both hold: x and !x.
func exclusiveWhen(a, b string) bool {
	return a != "" && b != "" && (a == "!"+b || b == "!"+a)
}
