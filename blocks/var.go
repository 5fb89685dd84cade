package blocks

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/promptc/promptc/source"
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
	// Shrink lets the turn budget drop items from the end of the value, one at a time, in the turn blocks that
	// use it (docs/reference.md, "Turn budget").
	Shrink bool

	// Value processing (docs/reference.md#processing-order), in this order after CRLF→LF: Trim removes leading and trailing white space; a value
	// that Pattern (compiled as ^(?:pattern)$) does not match is an error, or with Invalid = InvalidEmpty dropped;
	// empty values skip the pattern.
	Trim    bool
	Pattern *regexp.Regexp
	Invalid Invalid
	// RequiredFor, when not nil, lists the tasks for which the value is required (Required is then false).
	RequiredFor []string
	// Lang is the info string of a code value's fence (trust = "code" only).
	Lang string
	// Fields are the declared fields of a record or records variable (or field), sorted by name. Each is a Var of
	// its own (Name is the field name; Scope is unset) with Required meaning every record must have it.
	Fields []*Var
	// Decode, for a record or records variable or field, says how a value given as a string is read: with
	// DecodeJSON, as a JSON text of the declared shape (a mismatch follows Invalid).
	Decode Decode
	// Unknown, with DecodeJSON, says what a key of the JSON text that no field declares does, at every depth of
	// that text: an error (UnknownError), or left out (UnknownIgnore, as Go's json.Unmarshal reads it).
	Unknown Unknown
	// Raw, for a record or records field with DecodeJSON, names a string or text field of the same record that
	// receives the JSON text when it does not decode or fit (the field itself then being its zero value), in place
	// of any value the record gives that field; "" when the field has none.
	Raw string
	// Key, for a records variable or field, makes it keyed: its value is a table of records by name instead of an
	// array of them, walked in the byte order of the names, and Key names the declared string field that holds
	// each record's name (docs/reference.md#keyed-records). "" for an array of records.
	Key string

	// Verbatim keeps a trusted value's CR characters (a CRLF, a lone CR) as they are given, instead of turning
	// them into LF (docs/reference.md#processing-order).
	Verbatim bool
	// KeepNewlines keeps the newlines (and other white space) that an action naming the variable writes at the
	// start or the end of a block's output, which the block's trim would otherwise remove
	// (docs/reference.md#how-a-runbook-is-assembled).
	KeepNewlines bool
	// EmptyQuote is what an empty line of a background value becomes: ">" (the default) or "> ".
	EmptyQuote EmptyQuote

	// Range is the variable's [vars.NAME] header (or its key, for a variable declared inline); Table is where its
	// keys are written.
	Range source.Range
	Table *Table

	// broken is set when the declaration itself is wrong (already reported): values are not checked against it, so
	// that one mistake is not reported again for every fixture.
	broken bool
	// typeSet is set once the declaration's type has been read: Type's zero value is a type too.
	typeSet bool
	// record names the records variable a field belongs to ("" for a variable): "repos", or "repos.owner" for a
	// field of a nested field.
	record string
	// depth is 1 for a variable, and one more for each level of fields.
	depth int
}

// Path names a variable ("repos") or a field by the fields that lead to it from its variable ("repos.owner.login").
func (v *Var) Path() string {
	if v.record == "" {
		return v.Name
	}
	return v.record + "." + v.Name
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

// Broken reports whether the declaration itself is wrong (and reported): a value is not checked against it, so that
// one mistake is not reported again for every value (package values' type check passes it as it is).
func (v *Var) Broken() bool { return v.broken }
