package blocks

import (
	"path"
	"slices"
	"strings"

	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
)

// The keys of a blocks/ file and of each [[block]], in the order they are read and listed in "known keys" hints.
var (
	blockFileKeys = []key[*loader]{
		{name: "const", kind: kindTable, set: setConsts},
		{name: "block", kind: kindTables, set: setBlocks},
		{name: "tool", kind: kindTables, set: setTools},
	}
	blockKeys = []key[*Block]{
		{name: "id", kind: kindString, need: needText[*Block](`block needs an id: add id = "…" (matching [a-z0-9][a-z0-9_-]*)`), set: setID},
		{name: "title", kind: kindString, set: func(r *tableReader, b *Block, v value) {
			if strings.Contains(v.str, "\n") {
				r.errorf("title", "title must be a single line")
				return
			}
			b.Title = v.str
		}},
		{name: "level", kind: kindInt, min: 1, max: 6, set: func(_ *tableReader, b *Block, v value) { b.Level = int(v.n) }},
		{name: "tasks", kind: kindStrings, set: func(r *tableReader, b *Block, v value) {
			if len(v.list) == 0 {
				r.errorf("tasks", `tasks is empty, so the block would never render: list task kinds, or "*" for all`)
			}
			b.Tasks = v.list
			r.l.checkTaskNames(r, "tasks", v.list, true)
		}},
		{name: "except", kind: kindStrings, set: func(r *tableReader, b *Block, v value) {
			b.Except = v.list
			r.l.checkTaskNames(r, "except", v.list, false)
		}},
		{name: "when", kind: kindString, set: setWhen},
		{name: "body", kind: kindString, set: func(r *tableReader, b *Block, v value) {
			if _, both := r.m["template"]; both {
				return // reported below: exactly one of body and template
			}
			b.Body = v.str
			b.BodyRange = r.contentRange("body")
			b.src = newOrigin(r.file, b.BodyRange.Start.Byte, v.str, false)
		}},
		{name: "template", kind: kindString, set: setTemplate},
		{name: "raw", kind: kindBool, set: func(_ *tableReader, b *Block, v value) { b.Raw = v.b }},
		{name: "replaces", kind: kindString, set: func(_ *tableReader, b *Block, v value) { b.Replaces = v.str }},
		{name: "reason", kind: kindString, set: func(_ *tableReader, b *Block, v value) { b.Reason = v.str }},
		{name: "priority", kind: kindInt, min: -1 << 31, max: 1<<31 - 1, set: func(_ *tableReader, b *Block, v value) { b.Priority = int(v.n) }},
	}
)

// blockFile reads one file under blocks/: its [const] table and its [[block]] and [[tool]] entries.
func (l *loader) blockFile(f *sourceFile) {
	decode(l.table(f.file, f.ix, "", 0, f.name, f.m), l, blockFileKeys)
}

func setConsts(r *tableReader, l *loader, v value) {
	cr := l.table(r.file, r.ix, "const", 0, "[const]", v.table)
	for _, name := range sortedKeys(v.table) {
		cr.known[name] = true
		rng := cr.keyRange(name)
		table, isTable := v.table[name].(map[string]any)
		items, isList := v.table[name].([]any)
		var val value
		if !isTable && !isList {
			var ok bool
			if val, ok = cr.convert(name, kindString, 0, 0, v.table[name]); !ok {
				continue
			}
		} else if h, ok := cr.ix.headerRange("const."+name, 0); ok {
			rng = h
		}
		if !isConstName(name) {
			l.errorf(rng, "constant name %q is not valid: use letters, digits, '_', '-' and '.'", name)
			continue
		}
		if prev, dup := l.constRange[name]; dup {
			l.errorf(rng, "constant %q is defined twice: here and at %s; keep one (one rule, one place)", name, prev)
			continue
		}
		l.constRange[name] = rng
		c := &Const{Name: name, Range: rng}
		if isTable {
			c.Lookup, c.LookupTable = l.lookupTable(cr, name, table)
			l.p.Consts[name] = c
			continue
		}
		if isList {
			c.List = listConst(cr, name, items)
			if e, ok := cr.src.Keys[name]; ok {
				c.Range.End = e.Value.End
			}
			l.p.Consts[name] = c
			continue
		}
		c.Value, c.ValueRange = val.str, cr.contentRange(name)
		if e, ok := cr.src.Keys[name]; ok {
			c.Range.End = e.Value.End
		}
		c.src = newOrigin(r.file, c.ValueRange.Start.Byte, val.str, false)
		l.p.Consts[name] = c
	}
}

// listConst reads a constant whose value is an array of strings: a list constant.
func listConst(r *tableReader, name string, items []any) []string {
	out := make([]string, 0, len(items))
	for i, it := range items {
		s, ok := it.(string)
		if !ok {
			r.l.errorf(r.item(name, i), "item %d of list constant %q must be a string, not %s", i+1, name, DescribeValue(it))
			continue
		}
		out = append(out, s)
	}
	return out
}

// lookupTable reads a constant whose value is a table of strings (docs/reference.md#blockstoml).
func (l *loader) lookupTable(parent *tableReader, name string, m map[string]any) (map[string]string, *Table) {
	tr := l.table(parent.file, parent.ix, "const."+name, 0, "lookup table "+quoted(name), m)
	out := make(map[string]string, len(m))
	for _, k := range sortedKeys(m) {
		tr.known[k] = true
		s, ok := m[k].(string)
		if !ok {
			tr.errorf(k, "entry %q of lookup table %q must be a string, not %s", k, name, DescribeValue(m[k]))
			continue
		}
		out[k] = s
	}
	return out, tr.src
}

func setBlocks(r *tableReader, l *loader, v value) {
	for i, m := range v.tables {
		l.block(r, i, m)
	}
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

func (l *loader) block(parent *tableReader, n int, m map[string]any) {
	r := l.table(parent.file, parent.ix, "block", n, "[[block]]", m)
	b := &Block{Level: 2, Tasks: []string{"*"}, Range: r.src.Header, Table: r.src}
	decode(r, b, blockKeys)

	_, hasBody := m["body"]
	_, hasTmpl := m["template"]
	switch {
	case hasBody && hasTmpl:
		r.errorf("template", "block %s sets both body and template: keep exactly one", quoteName(b.ID))
	case !hasBody && !hasTmpl:
		l.errorf(b.Range, "block %s has neither body nor template: set exactly one", quoteName(b.ID))
	}
	if _, ok := m["replaces"]; ok {
		if strings.TrimSpace(b.Reason) == "" {
			r.errorf("replaces", "block %s replaces %q without a reason: add reason = \"…\" saying why this task needs its own version", quoteName(b.ID), b.Replaces)
		}
	} else if _, ok := m["reason"]; ok {
		r.errorf("reason", "reason is set but block %s replaces nothing: remove reason, or add replaces = \"…\"", quoteName(b.ID))
	}

	if b.ID == "" {
		return
	}
	if prev, dup := l.p.ByID[b.ID]; dup {
		l.errorf(b.Range, "block id %q is defined twice: here and at %s; ids are unique across the project", b.ID, prev.Range)
		return
	}
	l.p.ByID[b.ID] = b
	l.p.Blocks = append(l.p.Blocks, b)
}

func setID(r *tableReader, b *Block, v value) {
	if !isBlockID(v.str) {
		r.errorf("id", "block id %q is not valid: ids match [a-z0-9][a-z0-9_-]*", v.str)
		return
	}
	b.ID = v.str
	b.Range = r.keyRange("id")
	b.Range.End = r.valueRange("id").End
	r.what = "block " + quoteName(b.ID)
}

// setWhen parses when (docs/reference.md#gates-and-when); a mistake is reported at the part of the string that is
// wrong, and so is each undeclared variable.
func setWhen(r *tableReader, b *Block, v value) {
	b.When = v.str
	b.WhenRange = r.contentRange("when")
	b.whenSrc = newOrigin(r.file, b.WhenRange.Start.Byte, v.str, false)
	c, err := ParseCond(v.str)
	if err != nil {
		r.l.errorf(b.WhenSourceRange(err.Off, err.End), "%s", err.Msg)
		return
	}
	var place func(c *Cond)
	place = func(c *Cond) {
		c.Range = b.WhenSourceRange(c.Off, c.End)
		for _, a := range c.Args {
			place(a)
		}
	}
	place(c)
	ok := true
	for _, u := range c.Vars() {
		if _, declared := r.l.p.Vars[u.Name]; !declared {
			r.l.errorf(u.Range, "when names unknown variable %q%s", u.Name, r.l.vars.DidYouMean(u.Name))
			ok = false
		}
	}
	if ok {
		b.Cond = c
	}
}

func setTemplate(r *tableReader, b *Block, v value) {
	l, tmpl := r.l, v.str
	b.Template = tmpl
	if _, both := r.m["body"]; both {
		return // reported by block: exactly one of body and template
	}
	clean := path.Clean(tmpl)
	if tmpl == "" || path.IsAbs(tmpl) || clean != tmpl || strings.HasPrefix(clean, "../") || clean == ".." {
		r.errorf("template", "template %q must be a clean path relative to templates/", tmpl)
		return
	}
	text, found := l.p.Templates[tmpl]
	if !found && l.brokenTemplates[tmpl] {
		return // reported where it was read
	}
	if !found {
		r.errorf("template", "template file %s does not exist%s", source.QuoteName("templates/"+tmpl), suggest.DidYouMean(tmpl, sortedKeys(l.p.Templates)))
		return
	}
	name := "templates/" + tmpl
	f := l.p.Files[name]
	b.Body = text
	b.BodyRange = f.Range(0, len(text))
	b.src = newOrigin(f, 0, text, true)
}

// checkTaskNames reports names in a gate that the manifest does not declare, at the list item that names them.
// When the manifest's tasks are missing or not a list, or a name is not a valid task name, that was reported at
// tasks, and is not reported again here.
func (l *loader) checkTaskNames(r *tableReader, key string, names []string, star bool) {
	if l.badKeys[".tasks"] {
		return
	}
	for i, name := range names {
		if star && name == "*" || l.badTasks[name] {
			continue
		}
		if !slices.Contains(l.p.Tasks, name) {
			l.errorf(r.item(key, i), "%s names undeclared task %q%s", key, name, suggest.DidYouMean(name, l.p.Tasks))
		}
	}
}

// checkBlocks places blocks into the runbook and turn order lists and resolves replaces, once every block is known.
func (l *loader) checkBlocks() {
	p := l.p
	ids := suggest.NewSuggester(sortedKeys(p.ByID))
	placed := map[string]Kind{}
	for _, sec := range []*Section{&p.Runbook, &p.Turn} {
		for i, id := range sec.Order {
			at := sec.EntryRange(i)
			b, ok := p.ByID[id]
			if !ok && p.Incomplete {
				continue
			}
			if !ok {
				l.errorf(at, "%s.order names unknown block %q%s", sec.Kind, id, ids.DidYouMean(id))
				continue
			}
			if prev, dup := placed[id]; dup {
				if prev == sec.Kind {
					l.errorf(at, "block %q appears twice in %s.order", id, sec.Kind)
				} else {
					l.errorf(at, "block %q is in both runbook.order and turn.order: place it in one", id)
				}
				continue
			}
			placed[id] = sec.Kind
			if b.Replaces != "" {
				l.errorf(at, "block %q replaces %q, so it takes that block's slot: remove it from %s.order", id, b.Replaces, sec.Kind)
				continue
			}
			b.Section = sec.Kind
			b.Slot = id
		}
	}
	// An order list (or its section) that is not a list was reported as such: its blocks are not "not placed".
	orderKnown := !l.badKeys[".runbook"] && !l.badKeys[".turn"] && !l.badKeys["runbook.order"] && !l.badKeys["turn.order"]
	for _, b := range p.Blocks {
		if b.Replaces == "" {
			if _, ok := placed[b.ID]; !ok && orderKnown {
				l.errorf(b.Range, "block %q is not placed: add it to runbook.order or turn.order, or give it replaces", b.ID)
			}
			continue
		}
		target, ok := p.ByID[b.Replaces]
		switch {
		case b.Replaces == b.ID:
			l.errorf(b.Range, "block %q replaces itself", b.ID)
		case !ok && p.Incomplete:
			// The block may be in a blocks/ file that could not be read: reported there.
		case !ok:
			l.errorf(b.Range, "block %q replaces unknown block %q%s", b.ID, b.Replaces, ids.DidYouMean(b.Replaces))
		case target.Replaces != "":
			l.errorf(b.Range, "block %q replaces %q, which itself replaces %q: replace %q directly", b.ID, b.Replaces, target.Replaces, target.Replaces)
		case target.Section == Unplaced:
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
				if Exclusive(r1.Cond, r2.Cond) {
					continue
				}
				for _, task := range p.Tasks {
					if r1.AdmitsTask(task) && r2.AdmitsTask(task) {
						l.errorf(r2.Range, "blocks %q and %q both replace %q in task %q: narrow their tasks, or make their when conditions opposite (x and !x)", r1.ID, r2.ID, b.ID, task)
						break
					}
				}
			}
		}
	}
	// The turn budget never touches the runbook: a priority there would do nothing.
	for _, b := range p.Blocks {
		if _, set := b.Table.Keys["priority"]; set && b.Section == Runbook {
			l.errorf(b.Table.Key("priority"), "block %q is a runbook block, but priority orders the cuts of the turn budget ([turn] max_tokens), which never touches the runbook: remove priority", b.ID)
		}
	}
	// when: a runbook block may only depend on session variables (docs/reference.md#the-static-scope-rule); turn blocks on either scope.
	for _, b := range p.Blocks {
		if b.Cond == nil || b.Section != Runbook {
			continue
		}
		for _, u := range b.Cond.Vars() {
			if v, ok := p.Vars[u.Name]; ok && v.Scope == ScopeTurn {
				l.errorf(u.Range, "runbook block %q has when = %q, but %q is a turn variable: runbook bytes must not depend on the turn; use a session variable or move the block to turn.order", b.ID, b.When, u.Name)
			}
		}
	}
}

// constMarkers reports every constant that holds a target's begin or end marker, at the constant (docs/reference.md,
// "Markers"): a constant is the author's text, and an artifact holding a marker would corrupt the context file it
// is installed into. It is a load error whether or not a block uses the constant, so that the constant, not the
// block that happens to render it, is named.
func (l *loader) constMarkers() {
	type marker struct{ text, which string }
	for _, t := range l.p.Targets {
		for _, m := range [...]marker{{t.Begin, "begin"}, {t.End, "end"}} {
			if m.text == "" {
				continue
			}
			fix := "installing it would corrupt " + source.QuoteName(t.File) + "; remove or reword that text"
			for _, name := range sortedKeys(l.p.Consts) {
				c := l.p.Consts[name]
				if i := strings.Index(c.Value, m.text); i >= 0 && c.Lookup == nil {
					l.errorf(c.SourceRange(i, i+len(m.text)), "constant %q holds the %s marker of target %q: %s", c.Name, m.which, t.Name, fix)
				}
				for _, k := range sortedKeys(c.Lookup) {
					if strings.Contains(c.Lookup[k], m.text) {
						l.errorf(c.LookupTable.Value(k), "entry %q of lookup table %q holds the %s marker of target %q: %s", k, c.Name, m.which, t.Name, fix)
					}
				}
				for i, it := range c.List {
					if strings.Contains(it, m.text) {
						l.errorf(c.Range, "item %d of list constant %q holds the %s marker of target %q: %s", i+1, c.Name, m.which, t.Name, fix)
					}
				}
			}
		}
	}
}
