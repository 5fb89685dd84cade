package values

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/enum"
)

// ValueError is a value that does not fit its variable: what is wrong and, inside a records value, which record
// (from 1) and field. Inside nested data, Field is the path below the record: "ref.url", "items[2].name"; for a
// record variable, Record is 0 and Field the path below the variable.
type ValueError struct {
	Summary string
	Record  int
	Field   string
	// Undeclared is set when the problem is a key that no field of the record declares.
	Undeclared bool
}

func (e *ValueError) Error() string { return e.Summary }

// Path names where the problem is in variable name's value: "repos", "repos[2]" or "repos[2].url".
func (e *ValueError) Path(name string) string {
	switch {
	case e.Record == 0 && e.Field == "":
		return name
	case e.Record == 0:
		return name + "." + e.Field
	case e.Field == "":
		return fmt.Sprintf("%s[%d]", name, e.Record)
	}
	return fmt.Sprintf("%s[%d].%s", name, e.Record, e.Field)
}

// TypeCheck converts a decoded TOML or JSON value, or a Go value, for v into its canonical form: a string for string
// and text variables, a bool, an int64, a []string for list variables (a new slice), for records a new []map[string]any
// holding every declared field of each record in its canonical form (a missing optional field is its zero value), and
// for a record one such map[string]any. Nested record fields are maps and nested records fields []map[string]any, to
// blocks.MaxRecordDepth; a record or records with Decode = blocks.DecodeJSON may be given as a string holding a JSON
// text of its shape, which is decoded (one that is not valid JSON, or does not fit, is an error, or with Invalid =
// blocks.InvalidEmpty the zero record or no records). JSON numbers (float64 or json.Number) are accepted for int
// variables when they are whole. A value of the wrong type, a record with an undeclared field or without a required
// one, or a value of more than blocks.MaxValueBytes, is a ValueError saying what was expected; the caller says where
// the value came from. Messages name types in TOML's words ("a string", "an integer", "a table"); TypeCheckIn names
// them in another format's.
func TypeCheck(v *blocks.Var, raw any) (any, *ValueError) { return TypeCheckIn(v, raw, FormatTOML) }

// TypeCheckIn is TypeCheck for a value decoded from format f: its messages name types in f's words. When the value has
// several problems (records may), the ValueError is the first of them, as TypeCheckAll reports them; the others are not
// put into words.
func TypeCheckIn(v *blocks.Var, raw any, f Format) (any, *ValueError) {
	return checkFirst(v, raw, f, copyRecords)
}

// TypeCheckShared is TypeCheckIn for a caller that only reads the value it returns and copies what it keeps, as Check
// does: a record already in canonical form is returned as it is, not copied, and a records value whose records all are,
// as the slice given. So the result may share maps and slices with raw: a value checked once already (by ReadFile, or
// Load for a fixture) is checked again without a copy of each record.
func TypeCheckShared(v *blocks.Var, raw any, f Format) (any, *ValueError) {
	return checkFirst(v, raw, f, shareRecords)
}

// checkFirst is TypeCheckIn, with records handled as mode says.
func checkFirst(v *blocks.Var, raw any, f Format, mode recordMode) (any, *ValueError) {
	first := true
	val, errs, ok := check(v, raw, f, func(int, string) bool { was := first; first = false; return was }, mode)
	switch {
	case !ok && len(errs) == 0: // not reached: the first problem is always put into words
		return nil, &ValueError{Summary: fmt.Sprintf("variable %s has a value that is not valid", quoteName(v.Name))}
	case !ok:
		return nil, errs[0]
	}
	return val, nil
}

// TypeCheckAll is TypeCheckIn reporting every problem of the value, not only the first: for records, each undeclared,
// mistyped or missing field of each record, in record order and, within a record, undeclared fields by name first,
// then the declared fields by name. The value is returned only when there is no problem.
func TypeCheckAll(v *blocks.Var, raw any, f Format) (any, []*ValueError) {
	val, errs, _ := check(v, raw, f, nil, copyRecords)
	return val, errs
}

// recordMode says what the check of a record or records value makes of the records it is given.
type recordMode uint8

const (
	// copyRecords makes a new map of each record: the caller keeps the result, and may change what it gave.
	copyRecords recordMode = iota
	// ownRecords makes each record the checked one, changed in place: the maps were made by promptc's own decoder
	// for this check alone, and a million records are not held twice.
	ownRecords
	// shareRecords returns a record already in canonical form as it is, and copies the others.
	shareRecords
)

// check is TypeCheckAll, with two more arguments for a reader of many values. report, when not nil, is asked about each
// problem of a record or records value, by record (from 1; 0 for none) and field, before it is put into words: a
// problem it refuses is only counted, so that a million bad records cost no million messages (ReadFile lists the
// first MaxDiagnostics). ok says whether the value passed. mode says what to make of the records given.
func check(v *blocks.Var, raw any, f Format, report func(record int, field string) bool, mode recordMode) (val any, errs []*ValueError, ok bool) {
	if v.Broken() {
		return raw, nil, true
	}
	orig := raw
	if f == FormatGo {
		raw = goValue(raw)
	}
	if v.Type.HasFields() {
		val, errs, ok := checkNested(v, raw, f, report, mode)
		if len(errs) == 1 && errs[0].Record == 0 && errs[0].Field == "" && f == FormatGo {
			// The value as a whole is refused: name the type the caller passed, not the one it was converted to.
			errs[0].Summary = strings.Replace(errs[0].Summary, describeGo(raw), describeGo(orig), 1)
		}
		return val, errs, ok
	}
	val, msg := checkScalar(v.Type, raw, f)
	if msg != "" && f == FormatGo {
		_, msg = checkScalar(v.Type, orig, f)
	}
	if msg != "" {
		if report != nil && !report(0, "") {
			return nil, nil, false
		}
		return nil, []*ValueError{{Summary: fmt.Sprintf("variable %s %s", quoteName(v.Name), msg)}}, false
	}
	return val, nil, true
}

// Format is the format a value was decoded from, so that messages about it use that format's words.
type Format uint8

const (
	// FormatTOML is for values from TOML, and from Go: "a string", "an integer", "an array", "a table".
	FormatTOML Format = iota
	// FormatJSON is for values from JSON: "a JSON string", "a JSON number", "a JSON array", "a JSON object", "true"
	// or "false", "null".
	FormatJSON
	// FormatGo is for values a Go program passes: messages name Go types ("a []main.Repo", "a map[string]any or a
	// struct"), and the value may be any of the Go shapes blocks.Values documents (structs with json tags, pointers,
	// slices and maps of them), converted first.
	FormatGo
)

var valueFormats = enum.New[Format]("Format", "value format", "TOML", "JSON", "Go")

func (f Format) String() string { return valueFormats.String(f) }

// words are how messages about values name the types of a format.
type words struct {
	describe func(any) string
	// str, strs, table and tables are what a string, a list, a record and a records value must be; keyed what a
	// keyed records value must be.
	str, strs, table, tables, keyed string
}

var (
	tomlWords = words{describe: blocks.DescribeValue, str: "a string", strs: "an array of strings", table: "a table", tables: "an array of tables",
		keyed: "a table of tables, one record per name"}
	goWords = words{describe: describeGo, str: "a string", strs: "a []string (or a []any of strings)", table: "a map[string]any, a map[string]string or a struct", tables: "a slice of maps or structs ([]map[string]any, []map[string]string, []any, []T or []*T of a struct T)",
		keyed: "a map with string keys of maps or structs (map[string]map[string]any, map[string]T or map[string]*T of a struct T)"}
	jsonWords = words{describe: describeJSON, str: "a JSON string", strs: "a JSON array of strings", table: "a JSON object", tables: "a JSON array of objects",
		keyed: "a JSON object of objects, one record per name"}
)

func (f Format) words() words {
	switch f {
	case FormatJSON:
		return jsonWords
	case FormatGo:
		return goWords
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
	return blocks.DescribeValue(v)
}

// checkScalar checks a value of a type other than records; msg completes "variable NAME …" when it does not fit.
func checkScalar(t blocks.Type, raw any, f Format) (any, string) {
	w := f.words()
	switch t {
	case blocks.TypeString, blocks.TypeText:
		s, ok := raw.(string)
		if !ok {
			return nil, fmt.Sprintf("is %s, so its value must be %s, not %s", t.Noun(), w.str, w.describe(raw))
		}
		if len(s) > blocks.MaxValueBytes {
			return nil, oversize(len(s))
		}
		return s, ""
	case blocks.TypeBool:
		if b, ok := raw.(bool); ok {
			return b, ""
		}
		return nil, "is a bool, so its value must be true or false, not " + w.describe(raw)
	case blocks.TypeInt:
		if n, ok := wholeNumber(raw); ok {
			return n, ""
		}
		if tooLarge(raw) {
			return nil, fmt.Sprintf("is an int, but %s is out of range: whole numbers must lie within ±2⁶³ (±2⁵³ for JSON numbers, which are not exact beyond)", shortNumber(fmt.Sprint(raw)))
		}
		return nil, "is an int, so its value must be a whole number, not " + w.describe(raw)
	case blocks.TypeList:
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
		if n := textBytes(out); n > blocks.MaxValueBytes {
			return nil, oversize(n)
		}
		return out, ""
	}
	return raw, ""
}

// oversize completes "variable NAME …" for a value of n bytes, over blocks.MaxValueBytes.
func oversize(n int) string {
	return fmt.Sprintf("holds %d bytes, more than the 64 MiB (%d bytes) a value may hold", n, blocks.MaxValueBytes)
}

func textBytes(items []string) int {
	n := 0
	for _, s := range items {
		n += len(s)
	}
	return n
}

// recordFields returns a record's fields, from any of the map shapes a decoder or a Go caller gives.
func recordFields(item any) (map[string]any, bool) {
	switch m := item.(type) {
	case map[string]any:
		return m, true
	case blocks.Values:
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
		if f, err := n.Float64(); err == nil && (f != 0 || zeroDigits(string(n))) {
			return wholeNumber(f) // 1e-400 reads as 0 without an error: it is no whole number
		}
	}
	return 0, false
}

// zeroDigits reports whether a number's digits before its exponent are all 0: whether it is zero as written.
func zeroDigits(n string) bool {
	mantissa, _, _ := strings.Cut(strings.ToLower(n), "e")
	return strings.Trim(mantissa, "0.-+") == ""
}

// tooLarge reports whether raw is a whole number that wholeNumber refused for its size.
func tooLarge(raw any) bool {
	switch n := raw.(type) {
	case uint, uint64, uintptr:
		return true
	case float64:
		return n == math.Trunc(n) && !math.IsInf(n, 0)
	case json.Number:
		// A number beyond every float64 (10⁴⁰⁰) is whole at that size; one below the smallest (10⁻⁴⁰⁰) is not.
		f, err := strconv.ParseFloat(string(n), 64)
		if errors.Is(err, strconv.ErrRange) {
			return math.IsInf(f, 0)
		}
		return err == nil && f != 0 && f == math.Trunc(f)
	}
	return false
}

// shortNumber is a number as a message shows it: its first 40 characters and "…" when it is longer.
func shortNumber(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
