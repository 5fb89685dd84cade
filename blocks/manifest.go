package blocks

import (
	"slices"
	"sort"
	"strings"
)

var (
	manifestKeys = []string{"name", "tasks", "runbook", "turn", "vars", "target", "lint"}
	lintKeys     = []string{"allow"}
	allowKeys    = []string{"lint", "block", "reason"}
	sectionKeys  = []string{"order", "separator"}
	varKeys      = []string{"scope", "type", "trust", "required", "max_runes", "overflow", "notice",
		"item_max_runes", "max_items", "max_bytes", "pin_first", "omitted"}
	targetKeys = []string{"name", "file", "begin", "end"}
)

// isName reports whether s matches [a-z][a-z0-9_]*: the syntax of task and variable names.
func isName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// isBlockID reports whether s matches [a-z0-9][a-z0-9_-]*.
func isBlockID(s string) bool {
	if s == "" || s[0] == '_' || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func (l *loader) manifest(file string, m map[string]any, ix *keyIndex) {
	t := l.table(file, ix, "", 0, "promptc.toml", m)
	p := l.p
	if name, ok := t.str("name"); !ok {
		if _, present := m["name"]; !present {
			l.errorf(Pos{File: file, Line: 1, Col: 1}, `promptc.toml needs a project name: add name = "…"`)
		}
	} else if strings.TrimSpace(name) == "" {
		t.errorf("name", "name must not be empty")
	} else {
		p.Name = name
	}

	tasks, ok := t.strList("tasks")
	if !ok {
		if _, present := m["tasks"]; !present {
			l.errorf(Pos{File: file, Line: 1, Col: 1}, `promptc.toml needs its task kinds: add tasks = ["…"]`)
		}
	} else if len(tasks) == 0 {
		t.errorf("tasks", "tasks must list at least one task kind")
	}
	seen := map[string]bool{}
	for _, task := range tasks {
		switch {
		case !isName(task):
			t.errorf("tasks", "task name %q is not valid: task names match [a-z][a-z0-9_]*", task)
		case seen[task]:
			t.errorf("tasks", "task %q is listed twice", task)
		default:
			seen[task] = true
			p.Tasks = append(p.Tasks, task)
		}
	}

	p.Runbook = l.section(t, Runbook)
	p.Turn = l.section(t, Turn)

	if vars, ok := t.sub("vars"); ok {
		names := make([]string, 0, len(vars))
		for name := range vars {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			l.variable(file, ix, name, vars[name], t)
		}
	}

	if targets, ok := t.tables("target"); ok {
		byName := map[string]Pos{}
		for i, tm := range targets {
			tt := l.table(file, ix, "target", i, "[[target]]", tm)
			tg := &Target{Pos: tt.head()}
			for _, k := range []struct {
				key string
				dst *string
			}{{"name", &tg.Name}, {"file", &tg.File}, {"begin", &tg.Begin}, {"end", &tg.End}} {
				v, ok := tt.str(k.key)
				if !ok {
					if _, present := tm[k.key]; !present {
						l.errorf(tt.head(), "[[target]] needs %s", k.key)
					}
					continue
				}
				if v == "" {
					tt.errorf(k.key, "%s must not be empty", k.key)
				}
				*k.dst = v
			}
			if tg.Name != "" {
				if prev, dup := byName[tg.Name]; dup {
					tt.errorf("name", "target %q is defined twice (also at %s)", tg.Name, prev)
				}
				byName[tg.Name] = tt.pos("name")
				tg.Pos = tt.pos("name")
			}
			if tg.Begin != "" && tg.Begin == tg.End {
				tt.errorf("end", "end marker must differ from begin marker")
			}
			if strings.Contains(tg.Begin, "\n") || strings.Contains(tg.End, "\n") {
				tt.errorf("begin", "markers must be single lines")
			}
			tt.unknown(targetKeys...)
			p.Targets = append(p.Targets, tg)
		}
	}
	if lint, ok := t.sub("lint"); ok {
		lt := l.table(file, ix, "lint", 0, "[lint]", lint)
		if allows, ok := lt.tables("allow"); ok {
			for i, am := range allows {
				at := l.table(file, ix, "lint.allow", i, "[[lint.allow]]", am)
				a := &Allow{Pos: at.head()}
				a.Lint, _ = at.str("lint")
				a.Block, _ = at.str("block")
				a.Reason, _ = at.str("reason")
				if a.Lint == "" {
					l.errorf(a.Pos, `[[lint.allow]] needs the lint it silences: add lint = "…"`)
				}
				if strings.TrimSpace(a.Reason) == "" {
					l.errorf(a.Pos, `[[lint.allow]] needs a reason: add reason = "…" saying why the finding is deliberate`)
				}
				at.unknown(allowKeys...)
				p.Allow = append(p.Allow, a)
			}
		}
		lt.unknown(lintKeys...)
	}
	t.unknown(manifestKeys...)
}

// section reads [runbook] or [turn]. Block ids are checked later, once the blocks are loaded.
func (l *loader) section(t *table, key string) Section {
	s := Section{Separator: DefaultSeparator}
	m, ok := t.sub(key)
	if !ok {
		return s
	}
	st := l.table(t.file, t.ix, key, 0, "["+key+"]", m)
	s.Pos = st.head()
	if order, ok := st.strList("order"); ok {
		s.Order = order
		s.Pos = st.valPos("order")
	}
	if sep, ok := st.str("separator"); ok {
		s.Separator = sep
	}
	st.unknown(sectionKeys...)
	return s
}

func (l *loader) variable(file string, ix *keyIndex, name string, raw any, parent *table) {
	m, ok := raw.(map[string]any)
	if !ok {
		pos := parent.pos("vars." + name)
		if kp, ok := ix.key("vars", 0, name); ok {
			pos = Pos{File: file, Line: kp.Line, Col: kp.Col}
		}
		l.errorf(pos, "vars.%s must be a table with scope and type, not %s", name, tomlType(raw))
		return
	}
	t := l.table(file, ix, "vars."+name, 0, "[vars."+name+"]", m)
	v := &Var{Name: name, Trust: Untrusted, Pos: t.head()}
	switch {
	case name == "task":
		l.errorf(v.Pos, `variable name "task" is reserved: templates read the task kind as .task; choose another name`)
	case !isName(name):
		l.errorf(v.Pos, "variable name %q is not valid: variable names match [a-z][a-z0-9_]*", name)
	}
	// Register the variable even when parts of it are wrong, so that its uses do not add "unknown variable" noise.
	l.p.Vars[name] = v

	if scope, ok := t.str("scope"); ok {
		if scope != ScopeSession && scope != ScopeTurn {
			t.errorf("scope", `scope of variable %q must be "session" or "turn", not %q`, name, scope)
		}
		v.Scope = scope
	} else if _, present := m["scope"]; !present {
		l.errorf(v.Pos, `variable %q needs a scope: add scope = "session" or scope = "turn"`, name)
	}
	types := []string{TypeString, TypeText, TypeBool, TypeInt, TypeList}
	if typ, ok := t.str("type"); ok {
		if !slices.Contains(types, typ) {
			t.errorf("type", "type of variable %q must be one of string, text, bool, int, list, not %q%s", name, typ, DidYouMean(typ, types))
		}
		v.Type = typ
	} else if _, present := m["type"]; !present {
		l.errorf(v.Pos, `variable %q needs a type: add type = "string", "text", "bool", "int" or "list"`, name)
	}
	trusts := []string{Trusted, Untrusted, Background}
	if trust, ok := t.str("trust"); ok {
		if !slices.Contains(trusts, trust) {
			t.errorf("trust", "trust of variable %q must be trusted, untrusted or background, not %q%s", name, trust, DidYouMean(trust, trusts))
		} else {
			v.Trust = trust
		}
	}
	if v.Type == TypeBool || v.Type == TypeInt {
		v.Trust = Trusted // escaping does not apply to booleans and integers
	}
	v.Required, _ = t.boolean("required")

	isText := v.Type == TypeString || v.Type == TypeText
	isList := v.Type == TypeList
	onlyFor := func(key string, applies bool, kind string) bool {
		if _, present := m[key]; present && !applies && v.Type != "" {
			t.known[key] = true
			t.errorf(key, "%s applies only to %s variables; %q is of type %s", key, kind, name, v.Type)
			return false
		}
		return true
	}
	if onlyFor("max_runes", isText, "string and text") {
		v.MaxRunes, _ = t.integer("max_runes")
	}
	if onlyFor("overflow", isText, "string and text") {
		if o, ok := t.str("overflow"); ok {
			switch o {
			case "notice":
				v.Overflow = o
			case "cut":
			default:
				t.errorf("overflow", `overflow must be "notice" (replace a too long value by notice) or "cut", not %q`, o)
			}
		}
	}
	if onlyFor("notice", isText, "string and text") {
		v.Notice, _ = t.str("notice")
	}
	if v.Overflow == "notice" {
		if _, present := m["notice"]; !present {
			t.errorf("overflow", `overflow = "notice" needs the notice text: add notice = "…"`)
		}
		if v.MaxRunes == 0 {
			t.errorf("overflow", `overflow = "notice" needs max_runes: the notice replaces values longer than max_runes`)
		}
	}
	if onlyFor("item_max_runes", isList, "list") {
		v.ItemMaxRunes, _ = t.integer("item_max_runes")
	}
	if onlyFor("max_items", isList, "list") {
		v.MaxItems, _ = t.integer("max_items")
	}
	if onlyFor("max_bytes", isList, "list") {
		v.MaxBytes, _ = t.integer("max_bytes")
	}
	if onlyFor("pin_first", isList, "list") {
		v.PinFirst, _ = t.boolean("pin_first")
	}
	if onlyFor("omitted", isList, "list") {
		v.Omitted, _ = t.str("omitted")
	}
	t.unknown(varKeys...)
}
