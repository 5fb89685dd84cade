package blocks

import "github.com/promptc/promptc/internal/enum"

// The closed sets of the source model are small integer types, each with String and text (un)marshalling over one
// enum.Set (internal/enum), so that a string is parsed once, at the loader's edge, and nothing downstream can hold a
// value outside the set.

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

var scopes = enum.New[Scope]("Scope", "scope", scopeNames...)

func (s Scope) String() string { return scopes.String(s) }

// MarshalText writes the scope's name.
func (s Scope) MarshalText() ([]byte, error) { return scopes.Marshal(s) }

// UnmarshalText reads "global", "task", "session" or "turn".
func (s *Scope) UnmarshalText(b []byte) error { return scopes.Set(s, string(b)) }

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

var kinds = enum.New[Kind]("Kind", "kind", kindNames...)

func (k Kind) String() string { return kinds.String(k) }

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) { return kinds.Marshal(k) }

// UnmarshalText reads "unplaced", "runbook" or "turn".
func (k *Kind) UnmarshalText(b []byte) error { return kinds.Set(k, string(b)) }

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

var types = enum.New[Type]("Type", "type", typeNames...)

func (t Type) String() string { return types.String(t) }

// MarshalText writes the type's name.
func (t Type) MarshalText() ([]byte, error) { return types.Marshal(t) }

// UnmarshalText reads a type's name as the manifest writes it.
func (t *Type) UnmarshalText(b []byte) error { return types.Set(t, string(b)) }

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

var trusts = enum.New[Trust]("Trust", "trust", trustNames...)

func (t Trust) String() string { return trusts.String(t) }

// MarshalText writes the trust level's name.
func (t Trust) MarshalText() ([]byte, error) { return trusts.Marshal(t) }

// UnmarshalText reads "untrusted", "trusted", "background", "code" or "markdown".
func (t *Trust) UnmarshalText(b []byte) error { return trusts.Set(t, string(b)) }

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

var decodes = enum.New[Decode]("Decode", "decode", decodeNames...)

func (d Decode) String() string { return decodes.String(d) }

// MarshalText writes "none" or "json".
func (d Decode) MarshalText() ([]byte, error) { return decodes.Marshal(d) }

// UnmarshalText reads "none" or "json".
func (d *Decode) UnmarshalText(b []byte) error { return decodes.Set(d, string(b)) }

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

var unknowns = enum.New[Unknown]("Unknown", "unknown", unknownNames...)

func (u Unknown) String() string { return unknowns.String(u) }

// MarshalText writes "error" or "ignore".
func (u Unknown) MarshalText() ([]byte, error) { return unknowns.Marshal(u) }

// UnmarshalText reads "error" or "ignore".
func (u *Unknown) UnmarshalText(b []byte) error { return unknowns.Set(u, string(b)) }

// EmptyQuote is what an empty line of a background value becomes once quoted (docs/reference.md#trust-levels).
type EmptyQuote uint8

const (
	// EmptyQuoteBare writes ">" alone, as the quote function does.
	EmptyQuoteBare EmptyQuote = iota
	// EmptyQuoteSpace writes "> ", the quote marker and its space, as every other line begins.
	EmptyQuoteSpace
)

var emptyQuoteNames = []string{">", "> "}

var emptyQuotes = enum.New[EmptyQuote]("EmptyQuote", "quote_empty", emptyQuoteNames...)

func (q EmptyQuote) String() string { return emptyQuotes.String(q) }

// MarshalText writes ">" or "> ".
func (q EmptyQuote) MarshalText() ([]byte, error) {
	return emptyQuotes.Marshal(q)
}

// UnmarshalText reads ">" or "> ".
func (q *EmptyQuote) UnmarshalText(b []byte) error {
	return emptyQuotes.Set(q, string(b))
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

var invalids = enum.New[Invalid]("Invalid", "invalid", invalidNames...)

func (i Invalid) String() string { return invalids.String(i) }

// MarshalText writes "error" or "empty".
func (i Invalid) MarshalText() ([]byte, error) { return invalids.Marshal(i) }

// UnmarshalText reads "error" or "empty".
func (i *Invalid) UnmarshalText(b []byte) error { return invalids.Set(i, string(b)) }

// Overflow is what happens to a string or text value longer than its max_runes.
type Overflow uint8

const (
	// OverflowCut keeps the first max_runes runes, followed by "…".
	OverflowCut Overflow = iota
	// OverflowNotice replaces the whole value by the variable's notice.
	OverflowNotice
)

var overflowNames = []string{"cut", "notice"}

var overflows = enum.New[Overflow]("Overflow", "overflow", overflowNames...)

func (o Overflow) String() string { return overflows.String(o) }

// MarshalText writes "cut" or "notice".
func (o Overflow) MarshalText() ([]byte, error) {
	return overflows.Marshal(o)
}

// UnmarshalText reads "cut" or "notice".
func (o *Overflow) UnmarshalText(b []byte) error {
	return overflows.Set(o, string(b))
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
