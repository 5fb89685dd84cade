package blocks

import "strings"

// The keys of a [vars.NAME] table, in the order they are read (a limit's key needs the type read before it).
var varKeys = []key[*Var]{
	{name: "scope", kind: kindString, need: func(v *Var) string {
		return "variable " + quoted(v.Name) + ` needs a scope: add scope = "session" or scope = "turn"`
	}, set: func(r *tableReader, v *Var, val value) {
		switch val.str {
		case "session":
			v.Scope = ScopeSession
		case "turn":
			v.Scope = ScopeTurn
		default:
			r.errorf("scope", `scope of variable %q must be "session" or "turn", not %q`, v.Name, val.str)
			v.broken = true
		}
	}},
	enumKey("type", typeNames, func(v *Var) string {
		return "type of variable " + quoted(v.Name) + " must be one of " + strings.Join(typeNames, ", ")
	}, func(v *Var, t Type) { v.Type, v.typeSet = t, true }),
	enumKey("trust", trustNames, func(v *Var) string {
		return "trust of variable " + quoted(v.Name) + " must be trusted, untrusted, background or code"
	}, func(v *Var, t Trust) { v.Trust = t }),
	{name: "required", kind: kindBool, set: func(_ *tableReader, v *Var, val value) { v.Required = val.b }},
	{name: "max_runes", kind: kindInt, max: maxLimit, only: onlyText, set: func(_ *tableReader, v *Var, val value) { v.MaxRunes = int(val.n) }},
	{name: "overflow", kind: kindString, only: onlyText, set: func(r *tableReader, v *Var, val value) {
		o, ok := parseEnum[Overflow](overflowNames, val.str)
		if !ok {
			r.errorf("overflow", `overflow must be "notice" (replace a too long value by notice) or "cut", not %q`, val.str)
		}
		v.Overflow = o
	}},
	{name: "notice", kind: kindString, only: onlyText, set: func(_ *tableReader, v *Var, val value) { v.Notice = val.str }},
	{name: "item_max_runes", kind: kindInt, max: maxLimit, only: onlyList, set: func(_ *tableReader, v *Var, val value) { v.ItemMaxRunes = int(val.n) }},
	{name: "max_items", kind: kindInt, max: maxLimit, only: onlyList, set: func(_ *tableReader, v *Var, val value) { v.MaxItems = int(val.n) }},
	{name: "max_bytes", kind: kindInt, max: maxLimit, only: onlyList, set: func(_ *tableReader, v *Var, val value) { v.MaxBytes = int(val.n) }},
	{name: "pin_first", kind: kindBool, only: onlyList, set: func(_ *tableReader, v *Var, val value) { v.PinFirst = val.b }},
	{name: "omitted", kind: kindString, only: onlyList, set: func(_ *tableReader, v *Var, val value) { v.Omitted = val.str }},
}

// onlyFor returns the `only` check of a limit that applies to some types of variable.
func onlyFor(kind string, applies func(Type) bool) func(v *Var) string {
	return func(v *Var) string {
		if v.typeSet && !applies(v.Type) {
			return "applies only to " + kind + " variables; " + quoted(v.Name) + " is of type " + v.Type.String()
		}
		return ""
	}
}

var (
	onlyText = onlyFor("string and text", Type.IsText)
	onlyList = onlyFor("list", func(t Type) bool { return t == TypeList })
)

// variable reads the declaration [vars.name].
func (l *loader) variable(parent *tableReader, name string, raw any) {
	m, ok := raw.(map[string]any)
	if !ok {
		rng := parent.keyRange(name)
		if e, found := parent.ix.entry("vars", 0, name); found {
			rng = e.Key
		}
		l.errorf(rng, "vars.%s must be a table with scope and type, not %s", name, DescribeValue(raw))
		return
	}
	r := l.table(parent.file, parent.ix, "vars."+name, 0, "[vars."+name+"]", m)
	v := &Var{Name: name, Range: r.src.Header, Table: r.src}
	switch {
	case name == "task":
		l.errorf(v.Range, `variable name "task" is reserved: templates read the task kind as .task; choose another name`)
	case !isName(name):
		l.errorf(v.Range, "variable name %q is not valid: variable names match [a-z][a-z0-9_]*", name)
	}
	// Register the variable even when parts of it are wrong, so that its uses do not add "unknown variable" noise.
	l.p.Vars[name] = v
	decode(r, v, varKeys)
	if _, ok := m["type"]; !ok {
		l.errorf(v.Range, `variable %q needs a type: add type = "string", "text", "bool", "int" or "list"`, name)
	}
	if !v.typeSet || !v.scopeSet() {
		v.broken = true
	}
	if v.Type == TypeBool || v.Type == TypeInt {
		v.Trust = Trusted // escaping does not apply to booleans and integers
	}
	if v.Overflow == OverflowNotice {
		if _, present := m["notice"]; !present {
			r.errorf("overflow", `overflow = "notice" needs the notice text: add notice = "…"`)
		}
		if v.MaxRunes == 0 {
			r.errorf("overflow", `overflow = "notice" needs max_runes: the notice replaces values longer than max_runes`)
		}
	}
}
