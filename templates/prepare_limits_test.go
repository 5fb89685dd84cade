package templates

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/promptc/promptc/blocks"
)

// listLimits are the limits of a list variable, as the tests of package values write them too.
type listLimits struct {
	itemMaxRunes int
	maxItems     int
	maxBytes     int
	pinFirst     bool
	omitted      string
}

func (l listLimits) v() *blocks.Var {
	return &blocks.Var{Name: "x", Type: blocks.TypeList, ItemMaxRunes: l.itemMaxRunes, MaxItems: l.maxItems,
		MaxBytes: l.maxBytes, PinFirst: l.pinFirst, Omitted: l.omitted}
}

func TestPrepare(t *testing.T) {
	str := func(trust blocks.Trust, maxRunes int) *blocks.Var {
		return &blocks.Var{Name: "x", Type: blocks.TypeString, Trust: trust, MaxRunes: maxRunes}
	}
	list := func(trust blocks.Trust, l listLimits) *blocks.Var {
		v := l.v()
		v.Trust = trust
		return v
	}
	typed := func(typ blocks.Type) *blocks.Var { return &blocks.Var{Name: "x", Type: typ} }
	tests := []struct {
		name string
		v    *blocks.Var
		in   any
		want any
	}{
		{name: "string untrusted", v: str(blocks.Untrusted, 0), in: "a\r\n*b*", want: `a \*b\*`},
		{name: "string zero trust", v: str(0, 0), in: "<x>", want: `\<x\>`},
		{name: "string trusted", v: str(blocks.Trusted, 0), in: "<b>\r\n", want: "<b>\n"},
		{name: "text background", v: &blocks.Var{Name: "x", Type: blocks.TypeText, Trust: blocks.Background},
			in: "a\r\n<b>", want: "> a\n> \\<b\\>"},
		{name: "limit before escaping", v: str(blocks.Untrusted, 3), in: "<<<<", want: `\<\<\<…`},
		{name: "CRLF is one rune", v: str(blocks.Trusted, 3), in: "a\r\nb", want: "a\nb"},
		{name: "notice is escaped", v: &blocks.Var{Name: "x", Type: blocks.TypeText, Trust: blocks.Background,
			MaxRunes: 2, Overflow: blocks.OverflowNotice, Notice: "(see <url>)"}, in: "abc", want: `> (see \<url\>)`},
		{name: "empty background", v: &blocks.Var{Name: "x", Type: blocks.TypeText, Trust: blocks.Background},
			in: "", want: ""},
		{name: "list untrusted", v: list(blocks.Untrusted, listLimits{}), in: []string{"a*", "b\r\nc"},
			want: []string{`a\*`, "b c"}},
		{name: "list of any", v: list(blocks.Trusted, listLimits{}), in: []any{"a", "b"}, want: []string{"a", "b"}},
		{name: "list empty", v: list(blocks.Trusted, listLimits{}), in: []string{}, want: []string{}},
		{name: "list background", v: list(blocks.Background, listLimits{}), in: []string{"x", "y\r\nz", ""},
			want: []string{"> x", "> y\n> z", ""}},
		{name: "list CRLF before limits", v: list(blocks.Trusted, listLimits{maxBytes: 3}),
			in: []string{"a\r\nb", "c"}, want: []string{"a\nb"}},
		{name: "list limits then escape", v: list(blocks.Untrusted, listLimits{itemMaxRunes: 2, maxItems: 1,
			omitted: "_{n}_"}), in: []string{"<<<", "b"}, want: []string{`\<\<…`, `\_1\_`}},
		{name: "bool", v: typed(blocks.TypeBool), in: true, want: true},
		{name: "int", v: typed(blocks.TypeInt), in: 3, want: 3},
		{name: "int8", v: typed(blocks.TypeInt), in: int8(-8), want: -8},
		{name: "int16", v: typed(blocks.TypeInt), in: int16(16), want: 16},
		{name: "int32", v: typed(blocks.TypeInt), in: int32(-32), want: -32},
		{name: "int64", v: typed(blocks.TypeInt), in: int64(42), want: 42},
		{name: "int64 min", v: typed(blocks.TypeInt), in: int64(math.MinInt64), want: math.MinInt64},
		{name: "uint", v: typed(blocks.TypeInt), in: uint(7), want: 7},
		{name: "uint8", v: typed(blocks.TypeInt), in: uint8(255), want: 255},
		{name: "uint16", v: typed(blocks.TypeInt), in: uint16(65535), want: 65535},
		{name: "uint32", v: typed(blocks.TypeInt), in: uint32(1 << 31), want: 1 << 31},
		{name: "uint64", v: typed(blocks.TypeInt), in: uint64(1 << 40), want: 1 << 40},
		{name: "uintptr", v: typed(blocks.TypeInt), in: uintptr(9), want: 9},
		{name: "integral float64", v: typed(blocks.TypeInt), in: 3.0, want: 3},
		{name: "negative float64", v: typed(blocks.TypeInt), in: -2e3, want: -2000},
		{name: "json number", v: typed(blocks.TypeInt), in: json.Number("12"), want: 12},
		{name: "json number exponent", v: typed(blocks.TypeInt), in: json.Number("1e3"), want: 1000},
		{name: "nil string", v: typed(blocks.TypeString), in: nil, want: ""},
		{name: "nil text", v: typed(blocks.TypeText), in: nil, want: ""},
		{name: "nil list", v: typed(blocks.TypeList), in: nil, want: []string{}},
		{name: "nil bool", v: typed(blocks.TypeBool), in: nil, want: false},
		{name: "nil int", v: typed(blocks.TypeInt), in: nil, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := Prepare(tt.v, tt.in, nil)
			if err != nil {
				t.Fatalf("Prepare(%#v) error: %v", tt.in, err)
			}
			got = Printed(got, nil) // what the value prints alone
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Prepare(%#v) = %#v (%T), want %#v (%T)", tt.in, got, got, tt.want, tt.want)
			}
		})
	}
	t.Run("input list not modified", func(t *testing.T) {
		in := []string{"a\r\nb", "<c>"}
		if _, _, err := Prepare(list(blocks.Background, listLimits{}), in, nil); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(in, []string{"a\r\nb", "<c>"}) {
			t.Errorf("Prepare modified its input: %q", in)
		}
	})
}

// TestPrepareErrors: a value of the wrong type is a diagnostic from the one value check, values.TypeCheck, whether it
// comes from a fixture, a values file or Go.
func TestPrepareErrors(t *testing.T) {
	typed := func(typ blocks.Type) *blocks.Var { return &blocks.Var{Name: "x", Type: typ} }
	tests := []struct {
		name string
		v    *blocks.Var
		in   any
		want string
	}{
		{name: "string got int", v: typed(blocks.TypeString), in: 1, want: `variable "x" is a string, so its value must be a string, not an int`},
		{name: "text got bool", v: typed(blocks.TypeText), in: true, want: `variable "x" is text, so its value must be a string, not a bool`},
		{name: "string got list", v: typed(blocks.TypeString), in: []any{"a"}, want: `variable "x" is a string, so its value must be a string, not a []any`},
		{name: "list got int", v: typed(blocks.TypeList), in: 1, want: `variable "x" is a list, so its value must be a []string (or a []any of strings), not an int`},
		{name: "list got []int", v: typed(blocks.TypeList), in: []int{1}, want: `variable "x" is a list, so its value must be a []string (or a []any of strings), not a []int`},
		{name: "list item not a string", v: typed(blocks.TypeList), in: []any{"a", 2}, want: `variable "x" is a list of strings, but an item is an int`},
		{name: "list item nil", v: typed(blocks.TypeList), in: []any{nil}, want: `variable "x" is a list of strings, but an item is nil`},
		{name: "bool got string", v: typed(blocks.TypeBool), in: "true", want: `variable "x" is a bool, so its value must be true or false, not a string`},
		{name: "int got string", v: typed(blocks.TypeInt), in: "1", want: `variable "x" is an int, so its value must be a whole number, not a string`},
		{name: "int got map", v: typed(blocks.TypeInt), in: map[string]any{}, want: `variable "x" is an int, so its value must be a whole number, not a map[string]any`},
		{name: "int got fraction", v: typed(blocks.TypeInt), in: 1.5, want: `variable "x" is an int, so its value must be a whole number, not a float64`},
		{name: "int got NaN", v: typed(blocks.TypeInt), in: math.NaN(), want: `variable "x" is an int, so its value must be a whole number, not a float64`},
		{name: "int got Inf", v: typed(blocks.TypeInt), in: math.Inf(1), want: `variable "x" is an int, so its value must be a whole number, not a float64`},
		{name: "int got float32", v: typed(blocks.TypeInt), in: float32(1), want: `variable "x" is an int, so its value must be a whole number, not a float32`},
		{name: "float over range", v: typed(blocks.TypeInt), in: 1e300, want: `variable "x" is an int, but 1e+300 is out of range: whole numbers must lie within ±2⁶³ (±2⁵³ for JSON numbers, which are not exact beyond)`},
		{name: "float beyond 2^53", v: typed(blocks.TypeInt), in: 9007199254740994.0, want: `variable "x" is an int, but 9.007199254740994e+15 is out of range: whole numbers must lie within ±2⁶³ (±2⁵³ for JSON numbers, which are not exact beyond)`},
		{name: "uint64 over range", v: typed(blocks.TypeInt), in: uint64(math.MaxUint64), want: `variable "x" is an int, but 18446744073709551615 is out of range: whole numbers must lie within ±2⁶³ (±2⁵³ for JSON numbers, which are not exact beyond)`},
		{name: "json number fraction", v: typed(blocks.TypeInt), in: json.Number("1.5"), want: `variable "x" is an int, so its value must be a whole number, not a json.Number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, d := Prepare(tt.v, tt.in, nil)
			if d == nil {
				t.Fatalf("Prepare(%#v) = %#v, want error %q", tt.in, got, tt.want)
			}
			if d.Summary != tt.want {
				t.Errorf("Prepare(%#v) error:\n got %s\nwant %s", tt.in, d, tt.want)
			}
		})
	}
}

func TestZero(t *testing.T) {
	tests := []struct {
		name string
		typ  blocks.Type
		want any
	}{
		{name: "string", typ: blocks.TypeString, want: ""},
		{name: "text", typ: blocks.TypeText, want: ""},
		{name: "list", typ: blocks.TypeList, want: []string{}},
		{name: "bool", typ: blocks.TypeBool, want: false},
		{name: "int", typ: blocks.TypeInt, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Printed(Zero(&blocks.Var{Type: tt.typ}), nil); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Zero(%s) = %#v, want %#v", tt.typ, got, tt.want)
			}
		})
	}
}
