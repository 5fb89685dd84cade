package templates

import (
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
	if v.Overflow == blocks.OverflowNotice {
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

// Zero returns the value a template sees for a variable with no value: "" for string and text, an empty []string
// for list, false for bool and int 0 for int.
func Zero(v *blocks.Var) any {
	switch v.Type {
	case blocks.TypeList:
		return []string{}
	case blocks.TypeBool:
		return false
	case blocks.TypeInt:
		return 0
	}
	return ""
}

// Prepare turns a value for variable v into the value a template sees. The value is first checked and converted
// by v.Check (the one place values are type-checked, for fixtures, values files and Go callers alike), then:
//   - string and text: CRLF→LF, then LimitText, then Escape by v.Trust;
//   - list: each item CRLF→LF, then LimitList, then each item escaped by v.Trust; the result is always a new
//     []string;
//   - bool: a bool; int: an int.
//
// A nil val gives Zero(v). A value of the wrong type is a ValueError: the caller knows where the value came from.
func Prepare(v *blocks.Var, val any) (any, *blocks.ValueError) {
	if val == nil {
		return Zero(v), nil
	}
	checked, d := v.Check(val)
	if d != nil {
		return nil, d
	}
	switch x := checked.(type) {
	case string:
		return Escape(v.Trust, LimitText(v, blocks.NormalizeNewlines(x))), nil
	case []string:
		items := make([]string, len(x))
		for i, it := range x {
			items[i] = blocks.NormalizeNewlines(it)
		}
		items = LimitList(v, items)
		for i, it := range items {
			items[i] = Escape(v.Trust, it)
		}
		return items, nil
	case int64:
		return int(x), nil
	}
	return checked, nil
}
