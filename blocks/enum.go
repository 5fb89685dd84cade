package blocks

import (
	"fmt"
	"strconv"

	"github.com/promptc/promptc/internal/suggest"
)

// The closed sets of the source model are small integer types, each with String and text (un)marshalling, so that a
// string is parsed once, at the loader's edge, and nothing downstream can hold a value outside the set.

// Scope says how often a block's bytes (or a variable's value) change (docs/reference.md#scopes). Scopes are ordered from most to least
// stable, so they compare with < and >.
type Scope uint8

const (
	ScopeGlobal Scope = iota
	ScopeTask
	ScopeSession
	ScopeTurn
)

var scopeNames = []string{"global", "task", "session", "turn"}

func (s Scope) String() string { return enumString(scopeNames, int(s), "Scope") }

// MarshalText writes the scope's name.
func (s Scope) MarshalText() ([]byte, error) { return enumMarshal(scopeNames, int(s), "scope") }

// UnmarshalText reads "global", "task", "session" or "turn".
func (s *Scope) UnmarshalText(b []byte) error { return enumUnmarshal(scopeNames, b, "scope", s) }

// Kind says which order list places a block, and so what an artifact is: part of the runbook or of the per-turn
// message.
type Kind uint8

const (
	// Unplaced is a block in no order list (an error, unless it replaces another block and has not been resolved).
	Unplaced Kind = iota
	Runbook
	Turn
)

var kindNames = []string{"unplaced", "runbook", "turn"}

func (k Kind) String() string { return enumString(kindNames, int(k), "Kind") }

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) { return enumMarshal(kindNames, int(k), "kind") }

// UnmarshalText reads "unplaced", "runbook" or "turn".
func (k *Kind) UnmarshalText(b []byte) error { return enumUnmarshal(kindNames, b, "kind", k) }

// Type is a variable's type (docs/reference.md#varsname).
type Type uint8

const (
	TypeString Type = iota
	TypeText
	TypeBool
	TypeInt
	TypeList
	// TypeRecords is a list of tables with declared fields (docs/reference.md#varsname).
	TypeRecords
	// TypeRecord is one table with declared fields: a nested value (docs/reference.md, "Nested data").
	TypeRecord
)

var typeNames = []string{"string", "text", "bool", "int", "list", "records", "record"}

func (t Type) String() string { return enumString(typeNames, int(t), "Type") }

// MarshalText writes the type's name.
func (t Type) MarshalText() ([]byte, error) { return enumMarshal(typeNames, int(t), "type") }

// UnmarshalText reads a type's name as the manifest writes it.
func (t *Type) UnmarshalText(b []byte) error { return enumUnmarshal(typeNames, b, "type", t) }

// Noun names a value of the type in a sentence: "a string", "text", "a bool", "an int", "a list", "records", "a
// record", as in `variable "note" is text, so its value must be a JSON string`.
func (t Type) Noun() string {
	switch t {
	case TypeText, TypeRecords:
		return t.String()
	}
	return t.Article() + " " + t.String()
}

// Article is the indefinite article of the type's name used before a noun: "an int variable", "a text field".
func (t Type) Article() string {
	if t == TypeInt {
		return "an"
	}
	return "a"
}

// HasFields reports whether values of the type are tables with declared fields: record and records.
func (t Type) HasFields() bool { return t == TypeRecord || t == TypeRecords }

// IsText reports whether values of the type are strings: string and text.
func (t Type) IsText() bool { return t == TypeString || t == TypeText }

// Trust is how a variable's value is escaped before a template sees it (docs/reference.md#trust-levels). The zero value is Untrusted, the
// manifest's default and the safe one.
type Trust uint8

const (
	Untrusted Trust = iota
	Trusted
	Background
	// Code keeps multi-line text verbatim inside a fence it cannot close (docs/reference.md#trust-levels).
	Code
	// Markdown keeps a privileged author's Markdown, nested under the block that prints it (docs/reference.md#trust-levels).
	Markdown
)

var trustNames = []string{"untrusted", "trusted", "background", "code", "markdown"}

func (t Trust) String() string { return enumString(trustNames, int(t), "Trust") }

// MarshalText writes the trust level's name.
func (t Trust) MarshalText() ([]byte, error) { return enumMarshal(trustNames, int(t), "trust") }

// UnmarshalText reads "untrusted", "trusted", "background", "code" or "markdown".
func (t *Trust) UnmarshalText(b []byte) error { return enumUnmarshal(trustNames, b, "trust", t) }

// Decode says how a record or records value given as a string is read (docs/reference.md, "Nested data").
type Decode uint8

const (
	// DecodeNone takes the value as it is given: a string where a table is expected is a type error.
	DecodeNone Decode = iota
	// DecodeJSON reads a string value as a JSON text holding the record (an object) or the records (an array of
	// objects).
	DecodeJSON
)

var decodeNames = []string{"none", "json"}

func (d Decode) String() string { return enumString(decodeNames, int(d), "Decode") }

// MarshalText writes "none" or "json".
func (d Decode) MarshalText() ([]byte, error) { return enumMarshal(decodeNames, int(d), "decode") }

// UnmarshalText reads "none" or "json".
func (d *Decode) UnmarshalText(b []byte) error { return enumUnmarshal(decodeNames, b, "decode", d) }

// Unknown is what a key of a JSON text does when no field of its record declares it (decode = "json";
// docs/reference.md#nested-data).
type Unknown uint8

const (
	// UnknownError makes an undeclared key a value error naming the field, as everywhere else.
	UnknownError Unknown = iota
	// UnknownIgnore leaves an undeclared key out, at every depth of the text, as Go's json.Unmarshal does.
	UnknownIgnore
)

var unknownNames = []string{"error", "ignore"}

func (u Unknown) String() string { return enumString(unknownNames, int(u), "Unknown") }

// MarshalText writes "error" or "ignore".
func (u Unknown) MarshalText() ([]byte, error) { return enumMarshal(unknownNames, int(u), "unknown") }

// UnmarshalText reads "error" or "ignore".
func (u *Unknown) UnmarshalText(b []byte) error { return enumUnmarshal(unknownNames, b, "unknown", u) }

// EmptyQuote is what an empty line of a background value becomes once quoted (docs/reference.md#trust-levels).
type EmptyQuote uint8

const (
	// EmptyQuoteBare writes ">" alone, as the quote function does.
	EmptyQuoteBare EmptyQuote = iota
	// EmptyQuoteSpace writes "> ", the quote marker and its space, as every other line begins.
	EmptyQuoteSpace
)

var emptyQuoteNames = []string{">", "> "}

func (q EmptyQuote) String() string { return enumString(emptyQuoteNames, int(q), "EmptyQuote") }

// MarshalText writes ">" or "> ".
func (q EmptyQuote) MarshalText() ([]byte, error) {
	return enumMarshal(emptyQuoteNames, int(q), "quote_empty")
}

// UnmarshalText reads ">" or "> ".
func (q *EmptyQuote) UnmarshalText(b []byte) error {
	return enumUnmarshal(emptyQuoteNames, b, "quote_empty", q)
}

// Invalid is what happens to a value that does not match its variable's pattern.
type Invalid uint8

const (
	// InvalidError makes a mismatch a value error naming the variable.
	InvalidError Invalid = iota
	// InvalidEmpty drops the value: a string becomes empty, a list item or record field is left out.
	InvalidEmpty
)

var invalidNames = []string{"error", "empty"}

func (i Invalid) String() string { return enumString(invalidNames, int(i), "Invalid") }

// MarshalText writes "error" or "empty".
func (i Invalid) MarshalText() ([]byte, error) { return enumMarshal(invalidNames, int(i), "invalid") }

// UnmarshalText reads "error" or "empty".
func (i *Invalid) UnmarshalText(b []byte) error { return enumUnmarshal(invalidNames, b, "invalid", i) }

// Overflow is what happens to a string or text value longer than its max_runes.
type Overflow uint8

const (
	// OverflowCut keeps the first max_runes runes, followed by "…".
	OverflowCut Overflow = iota
	// OverflowNotice replaces the whole value by the variable's notice.
	OverflowNotice
)

var overflowNames = []string{"cut", "notice"}

func (o Overflow) String() string { return enumString(overflowNames, int(o), "Overflow") }

// MarshalText writes "cut" or "notice".
func (o Overflow) MarshalText() ([]byte, error) {
	return enumMarshal(overflowNames, int(o), "overflow")
}

// UnmarshalText reads "cut" or "notice".
func (o *Overflow) UnmarshalText(b []byte) error {
	return enumUnmarshal(overflowNames, b, "overflow", o)
}

func enumString(names []string, v int, typ string) string {
	if v >= 0 && v < len(names) {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(v) + ")"
}

func enumMarshal(names []string, v int, what string) ([]byte, error) {
	if v >= 0 && v < len(names) {
		return []byte(names[v]), nil
	}
	return nil, fmt.Errorf("invalid %s %d", what, v)
}

func enumUnmarshal[T ~uint8](names []string, b []byte, what string, dst *T) error {
	for i, n := range names {
		if n == string(b) {
			*dst = T(i)
			return nil
		}
	}
	return fmt.Errorf("unknown %s %q%s", what, b, suggest.DidYouMean(string(b), names))
}

// parseEnum returns the value named s among names, and whether there is one.
func parseEnum[T ~uint8](names []string, s string) (T, bool) {
	for i, n := range names {
		if n == s {
			return T(i), true
		}
	}
	return 0, false
}
