package values

import (
	"strconv"
	"strings"

	"github.com/promptc/promptc/blocks"
)

// ellipsis follows a value or list item cut at its rune limit.
const ellipsis = "…"

// LimitText applies the limits of a string or text variable (docs/reference.md#varsname) to s, the raw value after CRLF→LF and before
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

// LimitList applies the limits of a list variable (docs/reference.md#varsname) to items, the raw values after CRLF→LF and before
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
	out, _ := limitList(v, items)
	return out
}

// limitList is LimitList, also returning how many items steps 2 and 3 dropped.
func limitList(v *blocks.Var, items []string) ([]string, int) {
	out := make([]string, len(items), len(items)+1)
	copy(out, items)
	if v == nil {
		return out, 0
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
	kept = admit(v, kept, func(i int) int { return len(out[i]) })
	dropped := len(out) - kept
	out = out[:kept]
	if dropped > 0 && v.Omitted != "" {
		out = append(out, strings.ReplaceAll(v.Omitted, "{n}", strconv.Itoa(dropped)))
	}
	return out, dropped
}

// admit applies v's max_bytes limit to the first kept items, whose sizes size gives: it returns how many of them
// are admitted in order while their total size is at most v.MaxBytes, the first one always with v.PinFirst.
func admit(v *blocks.Var, kept int, size func(i int) int) int {
	if v.MaxBytes <= 0 {
		return kept
	}
	total := 0
	for i := range kept {
		total += size(i)
		if total > v.MaxBytes && !(i == 0 && v.PinFirst) {
			return i
		}
	}
	return kept
}
