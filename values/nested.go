package values

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/suggest"
)

// Record and records values (docs/reference.md, "Records" and "Nested data"): a record is a table of declared
// fields, a records value a list of them, and a field may itself be a record or records, to blocks.MaxRecordDepth.

// checkNested checks a record or records value for v; report and mode are as check takes them.
func checkNested(v *blocks.Var, raw any, f Format, report func(record int, field string) bool, mode recordMode) (any, []*ValueError, bool) {
	c := nestedCheck{f: f, name: v.Name, report: report, mode: mode}
	val, errs := c.value(v, raw, valuePath{})
	if c.problems > 0 {
		return nil, errs, false
	}
	if c.size > blocks.MaxValueBytes {
		if !c.problem(valuePath{}) {
			return nil, nil, false
		}
		return nil, []*ValueError{{Summary: fmt.Sprintf("variable %s %s", quoteName(v.Name), oversize(c.size))}}, false
	}
	return val, nil, true
}

// nestedCheck is one check of a record or records value.
type nestedCheck struct {
	f    Format
	name string // the variable
	size int    // the bytes of every string in the value
	// ignore leaves out the keys no field declares: set inside a JSON text whose field says unknown = "ignore".
	ignore bool
	// report, when set, says whether the problem found at a record (from 1; 0 for none) and field is put into
	// words: past a limit, problems are only counted (see check).
	report func(record int, field string) bool
	// mode says what to make of the records given (see recordMode).
	mode recordMode
	// problems counts the problems found, reported or not.
	problems int
	// quiet says no problem is put into words: only whether there is one matters.
	quiet bool
}

// problem counts a problem at p and reports whether to put it into words.
func (c *nestedCheck) problem(p valuePath) bool {
	c.problems++
	return !c.quiet && (c.report == nil || c.report(p.record, p.field))
}

// valuePath is where a part of a value is, below its variable: the record (from 1) of a records variable, and the fields
// and records below it ("ref.url", "items[2].name"; a record of keyed records by its name, "hosts.web").
type valuePath struct {
	record int
	field  string
	// names marks where field holds the names of records of keyed records, which messages say as records; nil
	// for none, so that a path costs nothing more for other values.
	names *nameStep
}

// nameStep is the name of a record of keyed records in a valuePath's field, from byte at.
type nameStep struct {
	parent *nameStep
	at     int
	name   string
}

func (p valuePath) dot(name string) valuePath {
	if p.field != "" {
		name = p.field + "." + name
	}
	return valuePath{p.record, name, p.names}
}

func (p valuePath) index(i int) valuePath {
	if p.field == "" && p.record == 0 {
		return valuePath{record: i}
	}
	return valuePath{p.record, fmt.Sprintf("%s[%d]", p.field, i), p.names}
}

// where names the part of the value at p for a message: `variable "repos", record 2, field "owner"`, and a record
// of keyed records by its name, `variable "hosts", record "web"`.
func (c *nestedCheck) where(p valuePath) string {
	s := "variable " + quoteName(c.name)
	if p.record > 0 {
		s += fmt.Sprintf(", record %d", p.record)
	}
	var names map[int]string // built only for a message about keyed records
	for n := p.names; n != nil; n = n.parent {
		if names == nil {
			names = map[int]string{}
		}
		names[n.at] = n.name
	}
	for rest, off := p.field, 0; rest != ""; {
		if name, ok := names[off]; ok && strings.HasPrefix(rest, name) {
			s += ", record " + quoteName(name)
			rest, off = rest[len(name):], off+len(name)
			if rest != "" {
				rest, off = rest[1:], off+1 // the dot before the next field
			}
			continue
		}
		part, after, _ := strings.Cut(rest, ".")
		off += len(rest) - len(after)
		rest = after
		name, idx, indexed := strings.Cut(part, "[")
		s += ", field " + quoteName(name)
		if indexed {
			s += ", record " + strings.TrimSuffix(idx, "]")
		}
	}
	return s
}

func (c *nestedCheck) errorf(p valuePath, format string, args ...any) *ValueError {
	return &ValueError{Summary: c.where(p) + fmt.Sprintf(format, args...), Record: p.record, Field: p.field}
}

// value checks the value of v (a record or records variable or field) at p. The value is good when no problem was
// counted during the call (c.problems is as before).
func (c *nestedCheck) value(v *blocks.Var, raw any, p valuePath) (any, []*ValueError) {
	w := c.f.words()
	if s, ok := raw.(string); ok && v.Decode == blocks.DecodeJSON {
		return c.decoded(v, s, p)
	}
	if v.Key != "" {
		return c.keyed(v, raw, p)
	}
	if v.Type == blocks.TypeRecord {
		rec, ok := recordFields(raw)
		if !ok {
			if !c.problem(p) {
				return nil, nil
			}
			return nil, []*ValueError{c.errorf(p, " is a record, so its value must be %s, not %s", w.table, w.describe(raw))}
		}
		return c.record(v, rec, p)
	}
	items, ok := recordList(raw)
	if !ok {
		if !c.problem(p) {
			return nil, nil
		}
		return nil, []*ValueError{c.errorf(p, " is records, so its value must be %s, not %s", w.tables, w.describe(raw))}
	}
	var errs []*ValueError
	before := c.problems
	out := make([]map[string]any, 0, len(items))
	given, same := raw.([]map[string]any)
	for i, item := range items {
		at := p.index(i + 1)
		rec, ok := recordFields(item)
		if !ok {
			if c.problem(at) {
				e := c.errorf(p, " is records, but record %d is %s, not %s", i+1, w.describe(item), w.table)
				e.Record, e.Field = at.record, at.field
				errs = append(errs, e)
			}
			continue
		}
		checked, es := c.record(v, rec, at)
		errs = append(errs, es...)
		if c.problems == before {
			out = append(out, checked)
			same = same && c.mode == shareRecords && identical(checked, given[i])
		}
	}
	if c.problems > before {
		return nil, errs
	}
	if same {
		return given, nil
	}
	return out, nil
}

// decoded checks a record or records value given as a JSON text (decode = "json"): a text that is not valid JSON,
// holds a key twice in one object, or does not fit v's shape, is an error, or with Invalid = blocks.InvalidEmpty the
// zero record or no records. The text is read as a values file is (decodeJSONText), so that one object means the
// same in both places.
func (c *nestedCheck) decoded(v *blocks.Var, s string, p valuePath) (any, []*ValueError) {
	// With blocks.InvalidEmpty a problem of the text is not the value's: the value is then the zero one.
	empty := v.Invalid == blocks.InvalidEmpty
	raw, problems, refused := decodeJSONText(s, func() bool { return !empty && c.problem(p) })
	if refused > 0 {
		if empty {
			return zeroOf(v), nil
		}
		errs := make([]*ValueError, len(problems))
		for i, pr := range problems {
			what := "its text is not valid JSON"
			if !pr.syntax {
				what = "its JSON text is refused"
			}
			errs[i] = c.errorf(p, ` is %s with decode = "json", but %s at %d:%d of the text: %s`, v.Type.Noun(), what, pr.at.Line, pr.at.Column, pr.msg)
		}
		return nil, errs
	}
	// The decoded maps are this check's own; with blocks.InvalidEmpty its problems are not reported, only known.
	inner := nestedCheck{f: FormatJSON, name: c.name, report: c.report, mode: ownRecords, quiet: c.quiet || empty,
		ignore: v.Unknown == blocks.UnknownIgnore}
	val, errs := inner.value(&blocks.Var{Type: v.Type, Fields: v.Fields, Key: v.Key}, raw, p)
	if inner.problems == 0 {
		c.size += inner.size
		return val, nil
	}
	if empty {
		return zeroOf(v), nil
	}
	c.problems += inner.problems
	for _, e := range errs {
		e.Summary += ", in the JSON text it was given"
	}
	return nil, errs
}

// record checks one record's fields against v's. A record of the check's own (ownRecords) becomes the checked record
// itself, its values replaced by their canonical forms and its missing fields added, rather than being copied: a
// values file of a million records is not held twice.
func (c *nestedCheck) record(v *blocks.Var, rec map[string]any, p valuePath) (map[string]any, []*ValueError) {
	var errs []*ValueError
	before := c.problems
	// A key no field declares: counting the keys that are fields finds whether there is one without sorting the
	// keys of every record; only then are they sorted, to report them in order. With ignore such keys are left
	// out: deleted from a record of the check's own, or else left behind by a copy.
	found := 0
	for _, fd := range v.Fields {
		if _, ok := rec[fd.Name]; ok {
			found++
		}
	}
	mode := c.mode
	switch {
	case found == len(rec):
	case c.ignore && mode == ownRecords:
		for k := range rec {
			if v.Field(k) == nil {
				delete(rec, k)
			}
		}
	case c.ignore:
		mode = copyRecords
	default:
		for _, k := range sortedKeys(rec) {
			if v.Field(k) != nil || !c.problem(p.dot(k)) {
				continue
			}
			names := make([]string, len(v.Fields))
			for j, f := range v.Fields {
				names[j] = f.Name
			}
			e := c.errorf(p, " has undeclared field %q%s (declared: %s)", k, suggest.DidYouMean(k, names), strings.Join(names, ", "))
			e.Field, e.Undeclared = p.dot(k).field, true
			errs = append(errs, e)
		}
	}
	// The checked record: rec itself for ownRecords; for shareRecords, rec until a field's checked value differs
	// from the one given (then a copy, made by put); else a new map.
	var checked map[string]any
	switch mode {
	case ownRecords:
		checked = rec
	case copyRecords:
		checked = make(map[string]any, len(v.Fields))
	}
	var texts map[string]string // the JSON texts that did not decode, by the field that receives each (raw)
	for i, fd := range v.Fields {
		at := p.dot(fd.Name)
		raw, ok := rec[fd.Name]
		if !ok || raw == nil && c.f == FormatGo {
			if fd.Required && c.problem(at) {
				e := c.errorf(p, " lacks required field %q", fd.Name)
				e.Field = at.field
				errs = append(errs, e)
			}
			if c.problems == before {
				c.put(&checked, rec, v, i, zeroOf(fd), false)
			}
			continue
		}
		if text, isText := raw.(string); isText && fd.Raw != "" && fd.Decode == blocks.DecodeJSON && fd.Type.HasFields() {
			// A text that does not decode or fit goes into the field raw names; its problems are no problems of
			// the record, so they are found quietly and not counted.
			n, quiet := c.problems, c.quiet
			c.quiet = true
			val, _ := c.value(fd, raw, at)
			failed := c.problems > n
			c.problems, c.quiet = n, quiet
			if failed {
				val = zeroOf(fd)
				if texts == nil {
					texts = map[string]string{}
				}
				texts[fd.Raw] = text
			}
			if c.problems == before {
				c.put(&checked, rec, v, i, val, identical(val, raw))
			}
			continue
		}
		if fd.Type.HasFields() {
			val, es := c.value(fd, raw, at)
			errs = append(errs, es...)
			if c.problems == before {
				c.put(&checked, rec, v, i, val, identical(val, raw))
			}
			continue
		}
		val, msg := checkScalar(fd.Type, raw, c.f)
		if msg != "" {
			if c.problem(at) {
				e := c.errorf(p, ": field %q %s", fd.Name, msg)
				e.Field = at.field
				errs = append(errs, e)
			}
			continue
		}
		if s, ok := val.(string); ok {
			c.size += len(s)
		}
		if c.problems == before {
			c.put(&checked, rec, v, i, val, identical(val, raw))
		}
	}
	if c.problems > before {
		return nil, errs
	}
	for name, text := range texts { // checked is a map: the zero value put for the text's field is not the text
		// The text replaces what the record gives the field, if anything (so that a checked value checks the same).
		if old, ok := checked[name].(string); ok {
			c.size -= len(old)
		}
		checked[name] = text
		c.size += len(text)
	}
	if checked == nil {
		return rec, nil // shared: every field was given in canonical form
	}
	return checked, nil
}

// put stores val as the checked value of field i of v. same says it is the value rec gives: for shareRecords,
// nothing is stored while every field so far is; at the first that is not, the record is copied.
func (c *nestedCheck) put(checked *map[string]any, rec map[string]any, v *blocks.Var, i int, val any, same bool) {
	if *checked == nil {
		if same {
			return
		}
		*checked = make(map[string]any, len(v.Fields))
		for _, fd := range v.Fields[:i] {
			(*checked)[fd.Name] = rec[fd.Name]
		}
	}
	(*checked)[v.Fields[i].Name] = val
}

// identical reports whether a checked value is the given one itself: the same string, bool or int64, the same map,
// or the same slice of records.
func identical(checked, given any) bool {
	switch x := checked.(type) {
	case string:
		y, ok := given.(string)
		return ok && x == y
	case bool, int64:
		return checked == given
	case map[string]any:
		y, ok := given.(map[string]any)
		return ok && reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer()
	case []map[string]any:
		y, ok := given.([]map[string]any)
		return ok && len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
	}
	return false
}

// recordList returns the items of a records value, from any of the list shapes a decoder or a Go caller gives.
func recordList(raw any) ([]any, bool) {
	switch a := raw.(type) {
	case []any:
		return a, true
	case []map[string]any:
		items := make([]any, len(a))
		for i, m := range a {
			items[i] = m
		}
		return items, true
	case []map[string]string:
		items := make([]any, len(a))
		for i, m := range a {
			items[i] = m
		}
		return items, true
	case []blocks.Values:
		items := make([]any, len(a))
		for i, m := range a {
			items[i] = map[string]any(m)
		}
		return items, true
	}
	return nil, false
}

// zeroOf is the canonical value a missing optional field has: for a record, every field at its zero value, so
// that reading a field of a missing record prints nothing.
func zeroOf(v *blocks.Var) any {
	switch v.Type {
	case blocks.TypeBool:
		return false
	case blocks.TypeInt:
		return int64(0)
	case blocks.TypeRecords:
		return []map[string]any{}
	case blocks.TypeRecord:
		m := make(map[string]any, len(v.Fields))
		for _, f := range v.Fields {
			m[f.Name] = zeroOf(f)
		}
		return m
	}
	return ""
}

// ZeroRecord returns the value a record variable or field has when none is given: every field at its zero value
// ("" , false, 0, no records, and nested records likewise), with ints as int64.
func ZeroRecord(v *blocks.Var) map[string]any {
	m, _ := zeroOf(&blocks.Var{Type: blocks.TypeRecord, Fields: v.Fields}).(map[string]any)
	return m
}

// describeGo names the type of a value a Go program passed, in Go's words.
func describeGo(v any) string {
	if v == nil {
		return "nil"
	}
	t := strings.ReplaceAll(fmt.Sprintf("%T", v), "interface {}", "any")
	switch t[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + t
	}
	return "a " + t
}

// goValue converts the Go shapes that blocks.Values documents into the decoded forms the check reads: a struct
// becomes a map[string]any keyed by its fields' json names (a field tagged "-" and an unexported field are left
// out, an embedded struct's fields are promoted, a nil pointer or interface field is absent), a pointer its target,
// a slice or array a []any, a map with string keys a map[string]any, a named string, bool, integer or float type
// its underlying value. Values already in a decoded form are returned as they are, without reflection.
func goValue(raw any) any {
	switch raw.(type) {
	case nil, string, bool, int64, int, float64, json.Number, []any, []string, map[string]any, []map[string]any,
		[]map[string]string, map[string]string, blocks.Values, []blocks.Values:
		return raw
	}
	return fromReflect(reflect.ValueOf(raw), 0)
}

var jsonNumber = reflect.TypeFor[json.Number]()

func fromReflect(rv reflect.Value, depth int) any {
	if !rv.IsValid() {
		return nil
	}
	if depth > blocks.MaxNesting {
		return rv.Interface() // refused by the check, which names its type
	}
	if rv.Type() == jsonNumber {
		return rv.Interface()
	}
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil
		}
		return fromReflect(rv.Elem(), depth+1)
	case reflect.Struct:
		if !rv.CanInterface() {
			return nil
		}
		if _, ok := rv.Interface().(interface{ MarshalJSON() ([]byte, error) }); ok {
			return rv.Interface() // a type with its own JSON form (time.Time): refused, with its type named
		}
		m := map[string]any{}
		structFields(rv, m, depth)
		return m
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return rv.Interface()
		}
		m := make(map[string]any, rv.Len())
		it := rv.MapRange()
		for it.Next() {
			m[it.Key().String()] = fromReflect(it.Value(), depth+1)
		}
		return m
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return []any{}
		}
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return rv.Interface() // bytes are not text: refused, with the type named
		}
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = fromReflect(rv.Index(i), depth+1)
		}
		return out
	case reflect.String:
		return rv.String()
	case reflect.Bool:
		return rv.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return rv.Uint()
	case reflect.Float64:
		return rv.Float() // a float32 is refused, as it is not a JSON number
	}
	return rv.Interface()
}

// structFields adds the fields of struct rv to m under their json names, as encoding/json names them.
func structFields(rv reflect.Value, m map[string]any, depth int) {
	t := rv.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		fv := rv.Field(i)
		if sf.Anonymous && name == "" {
			et := sf.Type
			if et.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue
				}
				fv, et = fv.Elem(), et.Elem()
			}
			if et.Kind() == reflect.Struct {
				structFields(fv, m, depth+1)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		val := fromReflect(fv, depth+1)
		if val == nil {
			continue // a nil pointer or interface: the field is absent, so it takes its zero value
		}
		if _, set := m[name]; !set {
			m[name] = val
		}
	}
}
