package blocks

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Var is a declared variable.
type Var struct {
	Name     string
	Scope    Scope // ScopeSession or ScopeTurn
	Type     Type
	Trust    Trust // Trusted for bool and int: escaping does not apply to them
	Required bool

	// Limits of string and text values.
	MaxRunes int
	Overflow Overflow
	Notice   string

	// Limits of list values, applied in this order.
	ItemMaxRunes int
	MaxItems     int
	MaxBytes     int
	PinFirst     bool
	Omitted      string

	// Value processing (§2.1), in this order after CRLF→LF: Trim removes leading and trailing white space; a value
	// that Pattern (compiled as ^(?:pattern)$) does not match is an error, or with Invalid = InvalidEmpty dropped;
	// empty values skip the pattern.
	Trim    bool
	Pattern *regexp.Regexp
	Invalid Invalid
	// RequiredFor, when not nil, lists the tasks for which the value is required (Required is then false).
	RequiredFor []string
	// Lang is the info string of a code value's fence (trust = "code" only).
	Lang string
	// Fields are the declared fields of a records variable, sorted by name. Each is a Var of its own (Name is the
	// field name; Scope is unset) with Required meaning every record must have it.
	Fields []*Var

	// Range is the variable's [vars.NAME] header (or its key, for a variable declared inline); Table is where its
	// keys are written.
	Range Range
	Table *Table

	// broken is set when the declaration itself is wrong (already reported): values are not checked against it, so
	// that one mistake is not reported again for every fixture.
	broken bool
	// typeSet is set once the declaration's type has been read: Type's zero value is a type too.
	typeSet bool
	// record names the records variable a field belongs to ("" for a variable).
	record string
}

func (v *Var) scopeSet() bool { return v.Scope == ScopeSession || v.Scope == ScopeTurn }

// Field returns the declared field name of a records variable, or nil.
func (v *Var) Field(name string) *Var {
	i, ok := slices.BinarySearchFunc(v.Fields, name, func(f *Var, n string) int { return strings.Compare(f.Name, n) })
	if !ok {
		return nil
	}
	return v.Fields[i]
}

// RequiredIn reports whether a value is required when rendering task.
func (v *Var) RequiredIn(task string) bool {
	if v.RequiredFor != nil {
		return slices.Contains(v.RequiredFor, task)
	}
	return v.Required
}

// ValueError is a value that does not fit its variable: what is wrong and, inside a records value, which record
// (from 1) and field.
type ValueError struct {
	Summary string
	Record  int
	Field   string
}

func (e *ValueError) Error() string { return e.Summary }

// Path names where the problem is in variable name's value: "repos", "repos[2]" or "repos[2].url".
func (e *ValueError) Path(name string) string {
	switch {
	case e.Record == 0:
		return name
	case e.Field == "":
		return fmt.Sprintf("%s[%d]", name, e.Record)
	}
	return fmt.Sprintf("%s[%d].%s", name, e.Record, e.Field)
}

// Check converts a decoded TOML or JSON value, or a Go value, for v into its canonical form: a string for string
// and text variables, a bool, an int64, a []string for list variables (a new slice), and for records a new
// []map[string]any holding every declared field of each record in its canonical form (a missing optional field is
// its zero value). JSON numbers (float64 or json.Number) are accepted for int variables when they are whole. A value
// of the wrong type, a record with an undeclared field or without a required one, or a value of more than
// MaxValueBytes, is a ValueError saying what was expected; the caller says where the value came from. Messages name
// types in TOML's words ("a string", "an integer", "a table"); CheckIn names them in another format's.
func (v *Var) Check(raw any) (any, *ValueError) { return v.CheckIn(raw, FormatTOML) }

// CheckIn is Check for a value decoded from format f: its messages name types in f's words. When the value has
// several problems (records may), the ValueError is the first of them, as CheckAll reports them.
func (v *Var) CheckIn(raw any, f ValueFormat) (any, *ValueError) {
	val, errs := v.CheckAll(raw, f)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return val, nil
}

// CheckAll is CheckIn reporting every problem of the value, not only the first: for records, each undeclared,
// mistyped or missing field of each record, in record order and, within a record, undeclared fields by name first,
// then the declared fields by name. The value is returned only when there is no problem.
func (v *Var) CheckAll(raw any, f ValueFormat) (any, []*ValueError) {
	if v.broken {
		return raw, nil
	}
	if v.Type == TypeRecords {
		return v.checkRecords(raw, f)
	}
	val, msg := checkScalar(v.Type, raw, f)
	if msg != "" {
		return nil, []*ValueError{{Summary: fmt.Sprintf("variable %s %s", quoteName(v.Name), msg)}}
	}
	return val, nil
}

// ValueFormat is the format a value was decoded from, so that messages about it use that format's words.
type ValueFormat uint8

const (
	// FormatTOML is for values from TOML, and from Go: "a string", "an integer", "an array", "a table".
	FormatTOML ValueFormat = iota
	// FormatJSON is for values from JSON: "a JSON string", "a JSON number", "a JSON array", "a JSON object", "true"
	// or "false", "null".
	FormatJSON
)

func (f ValueFormat) String() string {
	return enumString([]string{"TOML", "JSON"}, int(f), "ValueFormat")
}

// words are how messages about values name the types of a format.
type words struct {
	describe func(any) string
	// str, strs, table and tables are what a string, a list, a record and a records value must be.
	str, strs, table, tables string
}

var (
	tomlWords = words{describe: DescribeValue, str: "a string", strs: "an array of strings", table: "a table", tables: "an array of tables"}
	jsonWords = words{describe: describeJSON, str: "a JSON string", strs: "a JSON array of strings", table: "a JSON object", tables: "a JSON array of objects"}
)

func (f ValueFormat) words() words {
	if f == FormatJSON {
		return jsonWords
	}
	return tomlWords
}

// describeJSON names the type of a value decoded from JSON in JSON's words; for a boolean or null, the value itself.
func describeJSON(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		if x {
			return "true"
		}
		return "false"
	case string:
		return "a JSON string"
	case json.Number, float64, float32, int64, int:
		return "a JSON number"
	case []any:
		return "a JSON array"
	case map[string]any:
		return "a JSON object"
	}
	return DescribeValue(v)
}

// checkScalar checks a value of a type other than records; msg completes "variable NAME …" when it does not fit.
func checkScalar(t Type, raw any, f ValueFormat) (any, string) {
	w := f.words()
	switch t {
	case TypeString, TypeText:
		s, ok := raw.(string)
		if !ok {
			return nil, fmt.Sprintf("is a %s, so its value must be %s, not %s", t, w.str, w.describe(raw))
		}
		if len(s) > MaxValueBytes {
			return nil, oversize(len(s))
		}
		return s, ""
	case TypeBool:
		if b, ok := raw.(bool); ok {
			return b, ""
		}
		return nil, "is a bool, so its value must be true or false, not " + w.describe(raw)
	case TypeInt:
		if n, ok := wholeNumber(raw); ok {
			return n, ""
		}
		if tooLarge(raw) {
			return nil, fmt.Sprintf("is an int, but %v is out of range: whole numbers must lie within ±2⁶³ (±2⁵³ for JSON numbers, which are not exact beyond)", raw)
		}
		return nil, "is an int, so its value must be a whole number, not " + w.describe(raw)
	case TypeList:
		var out []string
		switch a := raw.(type) {
		case []string:
			out = append([]string(nil), a...)
		case []any:
			out = make([]string, 0, len(a))
			for _, e := range a {
				s, ok := e.(string)
				if !ok {
					return nil, "is a list of strings, but an item is " + w.describe(e)
				}
				out = append(out, s)
			}
		default:
			return nil, fmt.Sprintf("is a list, so its value must be %s, not %s", w.strs, w.describe(raw))
		}
		if n := textBytes(out); n > MaxValueBytes {
			return nil, oversize(n)
		}
		return out, ""
	}
	return raw, ""
}

// oversize completes "variable NAME …" for a value of n bytes, over MaxValueBytes.
func oversize(n int) string {
	return fmt.Sprintf("holds %d bytes, more than the 64 MiB (%d bytes) a value may hold", n, MaxValueBytes)
}

func textBytes(items []string) int {
	n := 0
	for _, s := range items {
		n += len(s)
	}
	return n
}

// checkRecords checks a records value: a list of tables of declared fields.
func (v *Var) checkRecords(raw any, f ValueFormat) (any, []*ValueError) {
	w := f.words()
	var items []any
	switch a := raw.(type) {
	case []any:
		items = a
	case []map[string]any:
		for _, m := range a {
			items = append(items, m)
		}
	case []map[string]string:
		for _, m := range a {
			items = append(items, m)
		}
	case []Values:
		for _, m := range a {
			items = append(items, map[string]any(m))
		}
	default:
		return nil, []*ValueError{{Summary: fmt.Sprintf("variable %s is records, so its value must be %s, not %s", quoteName(v.Name), w.tables, w.describe(raw))}}
	}
	var errs []*ValueError
	size := 0
	out := make([]map[string]any, 0, len(items))
	for i, item := range items {
		rec, ok := recordFields(item)
		if !ok {
			errs = append(errs, &ValueError{Summary: fmt.Sprintf("variable %s is records, but record %d is %s, not %s", quoteName(v.Name), i+1, w.describe(item), w.table), Record: i + 1})
			continue
		}
		where := fmt.Sprintf("variable %s, record %d", quoteName(v.Name), i+1)
		bad := false
		for _, k := range sortedKeys(rec) {
			if v.Field(k) == nil {
				names := make([]string, len(v.Fields))
				for j, f := range v.Fields {
					names[j] = f.Name
				}
				errs = append(errs, &ValueError{Summary: fmt.Sprintf("%s has undeclared field %q%s (declared: %s)", where, k, DidYouMean(k, names), strings.Join(names, ", ")), Record: i + 1, Field: k})
				bad = true
			}
		}
		checked := make(map[string]any, len(v.Fields))
		for _, fd := range v.Fields {
			raw, ok := rec[fd.Name]
			if !ok {
				if fd.Required {
					errs = append(errs, &ValueError{Summary: fmt.Sprintf("%s lacks required field %q", where, fd.Name), Record: i + 1, Field: fd.Name})
					bad = true
				}
				checked[fd.Name] = zeroOf(fd.Type)
				continue
			}
			val, msg := checkScalar(fd.Type, raw, f)
			if msg != "" {
				errs = append(errs, &ValueError{Summary: fmt.Sprintf("%s: field %q %s", where, fd.Name, msg), Record: i + 1, Field: fd.Name})
				bad = true
				continue
			}
			if s, ok := val.(string); ok {
				size += len(s)
			}
			checked[fd.Name] = val
		}
		if !bad {
			out = append(out, checked)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if size > MaxValueBytes {
		return nil, []*ValueError{{Summary: fmt.Sprintf("variable %s %s", quoteName(v.Name), oversize(size))}}
	}
	return out, nil
}

// recordFields returns a record's fields, from any of the map shapes a decoder or a Go caller gives.
func recordFields(item any) (map[string]any, bool) {
	switch m := item.(type) {
	case map[string]any:
		return m, true
	case Values:
		return m, true
	case map[string]string:
		out := make(map[string]any, len(m))
		for k, v := range m {
			out[k] = v
		}
		return out, true
	}
	return nil, false
}

// zeroOf is the canonical value a missing optional field has.
func zeroOf(t Type) any {
	switch t {
	case TypeBool:
		return false
	case TypeInt:
		return int64(0)
	}
	return ""
}

// wholeNumber accepts every Go integer type that fits an int64, and whole float64 values (JSON numbers) up to 2⁵³,
// beyond which a float64 no longer holds every integer.
func wholeNumber(raw any) (int64, bool) {
	switch n := raw.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case int16:
		return int64(n), true
	case int8:
		return int64(n), true
	case uint8:
		return int64(n), true
	case uint16:
		return int64(n), true
	case uint32:
		return int64(n), true
	case uint:
		return int64(n), n <= 1<<63-1
	case uint64:
		return int64(n), n <= 1<<63-1
	case uintptr:
		return int64(n), uint64(n) <= 1<<63-1
	case float64:
		return int64(n), n == float64(int64(n)) && n >= -1<<53 && n <= 1<<53
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return i, true
		}
		if f, err := n.Float64(); err == nil {
			return wholeNumber(f)
		}
	}
	return 0, false
}

// tooLarge reports whether raw is a whole number that wholeNumber refused for its size.
func tooLarge(raw any) bool {
	switch n := raw.(type) {
	case uint, uint64, uintptr:
		return true
	case float64:
		return n == math.Trunc(n) && !math.IsInf(n, 0)
	case json.Number:
		f, err := n.Float64()
		return err == nil && f == math.Trunc(f) && !math.IsInf(f, 0)
	}
	return false
}

// DescribeValue names the type of a decoded value as a sentence does: "a string", "an integer", "a table"; for other
// Go values, their Go type ("a []int").
func DescribeValue(v any) string {
	switch v.(type) {
	case nil:
		return "nothing"
	case string:
		return "a string"
	case int64, int, int8, int16, int32, uint, uint8, uint16, uint32, uint64, uintptr:
		return "an integer"
	case json.Number:
		if _, err := v.(json.Number).Int64(); err == nil {
			return "an integer"
		}
		return "a number"
	case float64, float32:
		return "a float"
	case bool:
		return "a boolean"
	case []any, []map[string]any, []string:
		return "an array"
	case map[string]any:
		return "a table"
	case time.Time:
		return "a date or time"
	}
	return fmt.Sprintf("a %T", v)
}
