package blocks

import (
	"regexp"
	"strings"

	"github.com/promptc/promptc/internal/suggest"
)

// The keys of a [vars.NAME] table, in the order they are read (a key that applies to some types needs the type read
// before it, lang needs the trust).
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
	typeKey(typeNames, "one of string, text, bool, int, list, records, record"),
	trustKey,
	{name: "required", kind: kindAny, set: setRequired},
	{name: "max_runes", kind: kindInt, max: maxLimit, only: onlyText, set: func(_ *tableReader, v *Var, val value) { v.MaxRunes = int(val.n) }},
	{name: "overflow", kind: kindString, only: onlyText, set: setOverflow},
	{name: "notice", kind: kindString, only: onlyText, set: func(_ *tableReader, v *Var, val value) { v.Notice = val.str }},
	{name: "item_max_runes", kind: kindInt, max: maxLimit, only: onlyList, set: func(_ *tableReader, v *Var, val value) { v.ItemMaxRunes = int(val.n) }},
	{name: "max_items", kind: kindInt, max: maxLimit, only: onlyListOrRecords, set: func(_ *tableReader, v *Var, val value) { v.MaxItems = int(val.n) }},
	{name: "max_bytes", kind: kindInt, max: maxLimit, only: onlyListOrRecords, set: func(_ *tableReader, v *Var, val value) { v.MaxBytes = int(val.n) }},
	{name: "pin_first", kind: kindBool, only: onlyListOrRecords, set: func(_ *tableReader, v *Var, val value) { v.PinFirst = val.b }},
	{name: "omitted", kind: kindString, only: onlyList, set: func(_ *tableReader, v *Var, val value) { v.Omitted = val.str }},
	{name: "shrink", kind: kindBool, only: onlyListOrRecords, set: func(_ *tableReader, v *Var, val value) { v.Shrink = val.b }},
	{name: "trim", kind: kindBool, only: onlyTextOrList, set: func(_ *tableReader, v *Var, val value) { v.Trim = val.b }},
	{name: "pattern", kind: kindString, only: onlyTextOrList, set: setPattern},
	{name: "invalid", kind: kindString, only: onlyInvalid, set: setInvalid},
	verbatimKey,
	keepNewlinesKey,
	quoteEmptyKey,
	decodeKey,
	unknownKey,
	langKey,
	{name: "fields", kind: kindTable, only: onlyFields, set: setFields},
	keyKey,
}

// The keys of a records field, [vars.NAME.fields.FIELD]: a field is prepared like a variable of its own. A field
// of type record or records has fields of its own ([vars.NAME.fields.FIELD.fields.SUB]), to MaxRecordDepth.
var fieldKeys = []key[*Var]{
	fieldTypeKey,
	trustKey,
	{name: "required", kind: kindBool, set: func(_ *tableReader, v *Var, val value) { v.Required = val.b }},
	{name: "trim", kind: kindBool, only: onlyTextOrList, set: func(_ *tableReader, v *Var, val value) { v.Trim = val.b }},
	{name: "pattern", kind: kindString, only: onlyTextOrList, set: setPattern},
	{name: "invalid", kind: kindString, only: onlyInvalid, set: setInvalid},
	{name: "max_runes", kind: kindInt, max: maxLimit, only: onlyText, set: func(_ *tableReader, v *Var, val value) { v.MaxRunes = int(val.n) }},
	{name: "overflow", kind: kindString, only: onlyText, set: setOverflow},
	{name: "notice", kind: kindString, only: onlyText, set: func(_ *tableReader, v *Var, val value) { v.Notice = val.str }},
	{name: "max_items", kind: kindInt, max: maxLimit, only: onlyRecords, set: func(_ *tableReader, v *Var, val value) { v.MaxItems = int(val.n) }},
	{name: "max_bytes", kind: kindInt, max: maxLimit, only: onlyRecords, set: func(_ *tableReader, v *Var, val value) { v.MaxBytes = int(val.n) }},
	{name: "pin_first", kind: kindBool, only: onlyRecords, set: func(_ *tableReader, v *Var, val value) { v.PinFirst = val.b }},
	verbatimKey,
	keepNewlinesKey,
	quoteEmptyKey,
	decodeKey,
	unknownKey,
	{name: "raw", kind: kindString, only: onlyFields, set: setRaw},
	langKey,
	{name: "fields", kind: kindTable, only: onlyFields, set: setFields},
	keyKey,
}

// fieldTable points at fieldKeys for setFields, which fieldKeys itself holds: a direct reference would be an
// initialization cycle.
var fieldTable *[]key[*Var]

func init() { fieldTable = &fieldKeys }

// typeKey reads type, which must be one of names.
func typeKey(names []string, list string) key[*Var] {
	return enumKey("type", names, func(v *Var) string {
		return "type of " + v.what() + " must be " + list
	}, func(v *Var, t Type) { v.Type, v.typeSet = t, true })
}

// fieldTypeKey reads the type of a field: any type but list.
var fieldTypeKey = key[*Var]{name: "type", kind: kindString, set: func(r *tableReader, v *Var, val value) {
	names := fieldTypeNames()
	t, ok := parseEnum[Type](typeNames, val.str)
	if !ok || t == TypeList {
		r.errorf("type", "type of %s must be one of %s, not %q%s", v.what(), strings.Join(names, ", "), val.str, suggest.DidYouMean(val.str, names))
		return
	}
	v.Type, v.typeSet = t, true
}}

// fieldTypeNames are the types a field may have: a list field is written as records, or as a text.
func fieldTypeNames() []string {
	return []string{"string", "text", "bool", "int", "records", "record"}
}

// decodeKey reads decode: how a record or records value given as a string is read.
var decodeKey = key[*Var]{name: "decode", kind: kindString, only: onlyFields, set: func(r *tableReader, v *Var, val value) {
	d, ok := parseEnum[Decode](decodeNames, val.str)
	if !ok || d == DecodeNone {
		r.errorf("decode", `decode of %s must be "json" (a string value is read as a JSON text), not %q`, v.what(), val.str)
		return
	}
	v.Decode = d
}}

var (
	trustKey = enumKey("trust", trustNames, func(v *Var) string {
		return "trust of " + v.what() + " must be trusted, untrusted, background or code"
	}, func(v *Var, t Trust) { v.Trust = t })

	langKey = key[*Var]{name: "lang", kind: kindString, only: func(v *Var) string {
		if v.Trust != Code {
			return `applies only to code values (trust = "code"); ` + v.what() + " has trust " + v.Trust.String()
		}
		return ""
	}, set: func(r *tableReader, v *Var, val value) {
		for _, c := range val.str {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_+.-", c)) {
				r.errorf("lang", "lang %q of %s may hold only letters, digits and _ + . - (it is the info string of a code fence)", val.str, v.what())
				return
			}
		}
		v.Lang = val.str
	}}
)

// what names the variable, or the field, in messages.
func (v *Var) what() string {
	if v.record != "" {
		return "field " + quoted(v.Name) + " of " + quoted(v.record)
	}
	if v.Type == TypeRecord {
		return "record variable " + quoted(v.Name)
	}
	return "variable " + quoted(v.Name)
}

// onlyFor returns the `only` check of a key that applies to some types of variable.
func onlyFor(kind string, applies func(Type) bool) func(v *Var) string {
	return func(v *Var) string {
		if v.typeSet && !applies(v.Type) {
			return "applies only to " + kind + " variables; " + quoted(v.Name) + " is of type " + v.Type.String()
		}
		return ""
	}
}

var (
	onlyText          = onlyFor("string and text", Type.IsText)
	onlyList          = onlyFor("list", func(t Type) bool { return t == TypeList })
	onlyListOrRecords = onlyFor("list and records", func(t Type) bool { return t == TypeList || t == TypeRecords })
	onlyTextOrList    = onlyFor("string, text and list", func(t Type) bool { return t.IsText() || t == TypeList })
	onlyRecords       = onlyFor("records", func(t Type) bool { return t == TypeRecords })
	onlyFields        = onlyFor("record and records", Type.HasFields)
	onlyInvalid       = onlyFor("string, text, list, record and records", func(t Type) bool { return t != TypeBool && t != TypeInt })
)

func setOverflow(r *tableReader, v *Var, val value) {
	o, ok := parseEnum[Overflow](overflowNames, val.str)
	if !ok {
		r.errorf("overflow", `overflow must be "notice" (replace a too long value by notice) or "cut", not %q`, val.str)
	}
	v.Overflow = o
}

// setRequired reads required: true or false, or a list of the tasks that need the value.
func setRequired(r *tableReader, v *Var, val value) {
	switch x := val.raw.(type) {
	case bool:
		v.Required = x
		return
	case []any:
		tasks := make([]string, 0, len(x))
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				r.l.errorf(r.item("required", i), "required[%d] must be a task name, not %s", i, DescribeValue(e))
				return
			}
			tasks = append(tasks, s)
		}
		r.l.checkTaskNames(r, "required", tasks, false)
		v.RequiredFor = tasks
		return
	}
	r.errorf("required", "required must be true or false, or a list of the tasks that need the value, not %s", DescribeValue(val.raw))
}

func setPattern(r *tableReader, v *Var, val value) {
	_, err := regexp.Compile(val.str) // for the message: the error quotes the pattern as written
	re, werr := regexp.Compile("^(?:" + val.str + ")$")
	if err == nil {
		err = werr
	}
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
		r.l.errorf(r.valueRange("pattern"), "pattern of %s is not a valid RE2 regular expression: %s", v.what(), msg)
		return
	}
	v.Pattern = re
}

func setInvalid(r *tableReader, v *Var, val value) {
	i, ok := parseEnum[Invalid](invalidNames, val.str)
	if !ok {
		r.errorf("invalid", `invalid must be "error" (a value that does not match pattern is an error) or "empty" (it is dropped), not %q%s`, val.str, suggest.DidYouMean(val.str, invalidNames))
		return
	}
	_, pattern := r.m["pattern"]
	_, decode := r.m["decode"]
	switch {
	case v.Type.HasFields() && !decode:
		r.errorf("invalid", "invalid says what to do with a JSON text that does not fit, but %s has no decode: add decode = \"json\", or remove invalid", v.what())
	case !v.Type.HasFields() && !pattern:
		r.errorf("invalid", "invalid says what to do with a value that does not match pattern, but %s has no pattern: add pattern = \"…\", or remove invalid", v.what())
	}
	v.Invalid = i
}

// setFields reads the [vars.NAME.fields.FIELD] tables of a records variable.
func setFields(r *tableReader, v *Var, val value) {
	for _, name := range sortedKeys(val.table) {
		m, ok := val.table[name].(map[string]any)
		at := r.keyRange("fields")
		if e, found := r.entry("fields." + name); found {
			at = e.Key
		}
		if !ok {
			r.l.errorf(at, "fields.%s of variable %q must be a table with a type, not %s", name, v.Name, DescribeValue(val.table[name]))
			continue
		}
		header := "[" + r.name + ".fields." + name + "]"
		fr := r.l.table(r.file, r.ix, r.name+".fields."+name, 0, header, m)
		f := &Var{Name: name, record: v.Path(), depth: v.depth + 1, Range: fr.src.Header, Table: fr.src}
		if !isName(name) {
			r.l.errorf(f.Range, "field name %q is not valid: field names match [a-z][a-z0-9_]*", name)
		}
		decode(fr, f, *fieldTable)
		if !f.typeSet {
			if _, present := m["type"]; !present {
				r.l.errorf(f.Range, `%s needs a type: add type = "string", "text", "int", "bool", "record" or "records"`, f.what())
			}
			v.broken = true
		}
		if f.broken {
			v.broken = true
		}
		f.finishFields(r.l, fr, m, header)
		f.finish(fr, m)
		v.Fields = append(v.Fields, f)
	}
}

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
	v := &Var{Name: name, depth: 1, Range: r.src.Header, Table: r.src}
	switch {
	case name == "task":
		l.errorf(v.Range, `variable name "task" is reserved: templates read the task kind as .task; choose another name`)
	case name == AfterKey:
		l.errorf(v.Range, `after is reserved in [[turn]]: a fixture's turn gives the time since the previous turn under this key, so no variable can take it; choose another name`)
	case name == ReplyKey:
		l.errorf(v.Range, `assistant is reserved in [[turn]]: a fixture's turn gives the assistant's reply to that turn under this key, so no variable can take it; choose another name`)
	case !isName(name):
		l.errorf(v.Range, "variable name %q is not valid: variable names match [a-z][a-z0-9_]*", name)
	}
	// Register the variable even when parts of it are wrong, so that its uses do not add "unknown variable" noise.
	l.p.Vars[name] = v
	decode(r, v, varKeys)
	if _, ok := m["type"]; !ok {
		l.errorf(v.Range, `variable %q needs a type: add type = "string", "text", "bool", "int", "list", "records" or "record"`, name)
	}
	if !v.typeSet || !v.scopeSet() {
		v.broken = true
	}
	v.finishFields(l, r, m, "[vars."+name+"]")
	if v.Required && v.RequiredFor != nil {
		v.RequiredFor = nil
	}
	v.finish(r, m)
}

// MaxRecordDepth is how deep record and records values may nest: a variable and three levels of fields below it.
const MaxRecordDepth = 4

// finishFields checks what a record or records variable or field needs: its fields, no trust of its own, and a
// depth within MaxRecordDepth.
func (v *Var) finishFields(l *loader, r *tableReader, m map[string]any, header string) {
	if !v.Type.HasFields() || !v.typeSet {
		return
	}
	what := v.what()
	if v.record == "" {
		what = v.Type.String() + " variable " + quoted(v.Name)
	}
	table := strings.Trim(header, "[]")
	if _, ok := m["trust"]; ok {
		r.errorf("trust", "trust of %s is set per field: move it to [%s.fields.NAME]", what, table)
	}
	if len(v.Fields) == 0 {
		if _, ok := m["fields"]; !ok {
			l.errorf(v.Range, "%s needs its fields: add a [%s.fields.NAME] table with a type for each", what, table)
		}
	}
	if v.depth > MaxRecordDepth {
		l.errorf(v.Range, "%s nests records %d levels deep, more than the %d a value may have: flatten it, or give the innermost part as a text", what, v.depth, MaxRecordDepth)
		v.broken = true
	}
	v.checkKey(l)
	v.checkRaw(l)
}

// finish settles what depends on several keys of a variable or field.
func (v *Var) finish(r *tableReader, m map[string]any) {
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
