package templates

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/promptc/promptc/blocks"
)

// ellipsis follows a value or list item cut at its rune limit.
const ellipsis = "…"

// LimitText applies the limits of a string or text variable (§2.1) to s, the raw value after CRLF→LF and before
// escaping. When v.MaxRunes > 0 and s holds more than MaxRunes runes, the result is v.Notice if v.Overflow is
// "notice", and otherwise the first MaxRunes runes of s followed by "…". Each invalid UTF-8 byte counts as one
// rune. A nil v or a zero limit means no limit.
func LimitText(v *blocks.Var, s string) string {
	if v == nil || v.MaxRunes <= 0 {
		return s
	}
	cut, ok := cutRunes(s, v.MaxRunes)
	if ok {
		return s
	}
	if v.Overflow == "notice" {
		return v.Notice
	}
	return cut
}

// cutRunes returns s and true when s holds at most n runes, and otherwise its first n runes followed by "…" and
// false. It counts runes as a range loop does, so each invalid UTF-8 byte is one rune.
func cutRunes(s string, n int) (string, bool) {
	if len(s) <= n { // a rune is at least one byte
		return s, true
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i] + ellipsis, false
		}
		count++
	}
	return s, true
}

// LimitList applies the limits of a list variable (§2.1) to items, the raw values after CRLF→LF and before
// escaping, in this order:
//  1. each item longer than v.ItemMaxRunes runes keeps its first ItemMaxRunes runes, followed by "…";
//  2. only the first v.MaxItems items are kept;
//  3. items are admitted in order while the sum of their UTF-8 lengths is at most v.MaxBytes; the first item that
//     does not fit, and every item after it, is dropped. With v.PinFirst the first item is always admitted, even
//     alone over MaxBytes;
//  4. when steps 2 and 3 dropped n > 0 items and v.Omitted is not "", one final item is appended: Omitted with every
//     "{n}" replaced by n in decimal.
//
// A nil v or a zero limit means no limit. LimitList never modifies items; it returns a new slice, never nil.
func LimitList(v *blocks.Var, items []string) []string {
	out := make([]string, len(items), len(items)+1)
	copy(out, items)
	if v == nil {
		return out
	}
	if v.ItemMaxRunes > 0 {
		for i, it := range out {
			out[i], _ = cutRunes(it, v.ItemMaxRunes)
		}
	}
	kept := len(out)
	if v.MaxItems > 0 && kept > v.MaxItems {
		kept = v.MaxItems
	}
	if v.MaxBytes > 0 {
		total := 0
		for i := 0; i < kept; i++ {
			total += len(out[i])
			if total > v.MaxBytes && !(i == 0 && v.PinFirst) {
				kept = i
				break
			}
		}
	}
	dropped := len(out) - kept
	out = out[:kept]
	if dropped > 0 && v.Omitted != "" {
		out = append(out, strings.ReplaceAll(v.Omitted, "{n}", strconv.Itoa(dropped)))
	}
	return out
}

// Zero returns the zero value a template sees for a variable with no value: "" for string and text, an empty
// []string for list, false for bool and int 0 for int. It returns nil for an unknown type.
func Zero(v *blocks.Var) any {
	switch v.Type {
	case blocks.TypeString, blocks.TypeText:
		return ""
	case blocks.TypeList:
		return []string{}
	case blocks.TypeBool:
		return false
	case blocks.TypeInt:
		return 0
	}
	return nil
}

// Prepare turns a Go value for variable v into the value a template sees:
//   - string and text: a string; CRLF→LF, then LimitText, then Escape by v.Trust;
//   - list: a []string, or a []any holding only strings; each item CRLF→LF, then LimitList, then each item
//     escaped by v.Trust; the result is always a new []string;
//   - bool: a bool;
//   - int: any Go integer type, a float64 with an integral value (how JSON decodes numbers) or a json.Number
//     holding an integer, returned as an int.
//
// A nil val gives Zero(v). Any other value is an error saying what v expects, such as
// `variable "x" is a list of strings, got int`.
func Prepare(v *blocks.Var, val any) (any, error) {
	if val == nil {
		if z := Zero(v); z != nil {
			return z, nil
		}
		return nil, fmt.Errorf("variable %q has unknown type %q", v.Name, v.Type)
	}
	switch v.Type {
	case blocks.TypeString, blocks.TypeText:
		s, ok := val.(string)
		if !ok {
			return nil, wrongType(v, val)
		}
		return Escape(v.Trust, LimitText(v, blocks.NormalizeNewlines(s))), nil
	case blocks.TypeList:
		items, ok := listItems(val)
		if !ok {
			return nil, wrongType(v, val)
		}
		items = LimitList(v, items) // a new slice, so the escaping below cannot reach the caller's
		for i, it := range items {
			items[i] = Escape(v.Trust, it)
		}
		return items, nil
	case blocks.TypeBool:
		b, ok := val.(bool)
		if !ok {
			return nil, wrongType(v, val)
		}
		return b, nil
	case blocks.TypeInt:
		return prepareInt(v, val)
	}
	return nil, fmt.Errorf("variable %q has unknown type %q", v.Name, v.Type)
}

// listItems returns the items of a []string or of a []any holding only strings, each with CRLF→LF.
func listItems(val any) ([]string, bool) {
	switch l := val.(type) {
	case []string:
		out := make([]string, len(l))
		for i, s := range l {
			out[i] = blocks.NormalizeNewlines(s)
		}
		return out, true
	case []any:
		out := make([]string, len(l))
		for i, it := range l {
			s, ok := it.(string)
			if !ok {
				return nil, false
			}
			out[i] = blocks.NormalizeNewlines(s)
		}
		return out, true
	}
	return nil, false
}

func prepareInt(v *blocks.Var, val any) (any, error) {
	switch n := val.(type) {
	case int:
		return n, nil
	case int8:
		return int(n), nil
	case int16:
		return int(n), nil
	case int32:
		return int(n), nil
	case int64:
		if int64(int(n)) != n {
			return nil, outOfRange(v, val)
		}
		return int(n), nil
	case uint:
		if n > math.MaxInt {
			return nil, outOfRange(v, val)
		}
		return int(n), nil
	case uint8:
		return int(n), nil
	case uint16:
		return int(n), nil
	case uint32:
		if uint64(n) > math.MaxInt {
			return nil, outOfRange(v, val)
		}
		return int(n), nil
	case uint64:
		if n > math.MaxInt {
			return nil, outOfRange(v, val)
		}
		return int(n), nil
	case uintptr:
		if uint64(n) > math.MaxInt {
			return nil, outOfRange(v, val)
		}
		return int(n), nil
	case float64:
		return floatToInt(v, n)
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return prepareInt(v, i)
		}
		f, err := n.Float64()
		if err != nil {
			return nil, fmt.Errorf("variable %q is an int, got %q", v.Name, string(n))
		}
		return floatToInt(v, f)
	}
	return nil, wrongType(v, val)
}

func floatToInt(v *blocks.Var, f float64) (any, error) {
	if f != math.Trunc(f) { // also NaN and ±Inf
		return nil, fmt.Errorf("variable %q is an int, got %v", v.Name, f)
	}
	// -2⁶³ and 2⁶³ are exact float64 values; the int64 conversion is defined only between them.
	if f < -(1<<63) || f >= 1<<63 {
		return nil, outOfRange(v, f)
	}
	return prepareInt(v, int64(f))
}

func outOfRange(v *blocks.Var, val any) error {
	return fmt.Errorf("variable %q is an int, got %v (out of range)", v.Name, val)
}

// wrongType is the error for a value of the wrong Go type for v.
func wrongType(v *blocks.Var, val any) error {
	want := map[string]string{
		blocks.TypeString: "a string",
		blocks.TypeText:   "a string",
		blocks.TypeList:   "a list of strings",
		blocks.TypeBool:   "a bool",
		blocks.TypeInt:    "an int",
	}[v.Type]
	got := typeName(val)
	if l, ok := val.([]any); ok && v.Type == blocks.TypeList {
		for i, it := range l {
			if _, ok := it.(string); !ok {
				got = fmt.Sprintf("a list whose item %d is %s", i, typeName(it))
				break
			}
		}
	}
	return fmt.Errorf("variable %q is %s, got %s", v.Name, want, got)
}

// typeName names val's Go type as a Go programmer writes it: "[]any", not "[]interface {}"; "nil" for nil.
func typeName(val any) string {
	if val == nil {
		return "nil"
	}
	return strings.ReplaceAll(fmt.Sprintf("%T", val), "interface {}", "any")
}
