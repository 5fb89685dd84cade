package values

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// Check checks a value for variable v and processes it up to its limits: the one walk of a value before a template
// prints it (templates.Prepare calls it once per value, then escapes by trust). val must not be nil (a variable with
// no value is the zero value, which templates.Zero gives).
//
// The value is first checked and converted by TypeCheckShared (the one type check, for fixtures, values files and Go
// callers alike, here in Go's words), then each string (a string or text value, each list item, each string or
// text field of each record) goes through, in this order (docs/reference.md#processing-order):
//
//  1. CRLF and lone CR → LF, unless v.Verbatim (a trusted value that keeps its CRs);
//  2. with v.Trim, leading and trailing white space (unicode.IsSpace) removed;
//  3. v.Pattern, unless the string is empty: a mismatch is a ValueError naming the variable (and the record and
//     field) with v.Invalid = InvalidError; with InvalidEmpty a string or field becomes empty and a list item is
//     left out, before the limits and without counting as dropped;
//  4. the limits: LimitText for strings and fields, LimitList for lists; for records max_items, then max_bytes
//     (counting the UTF-8 bytes of each record's string and text fields after their own cuts, nested fields
//     included) with pin_first; nested records fields have limits of their own, applied first.
//
// The result is a string, a new []string, a new []map[string]any (ints as int; nested records likewise; each with
// room for one record past its last, in its capacity), a new
// map[string]any for a record, a bool or an int. dropped is how many list items or records the limits (max_items
// and max_bytes together) dropped; 0 for other types. A ValueError never echoes a whole value: the caller knows
// where the value came from.
func Check(v *blocks.Var, val any) (value any, dropped int, err *ValueError) {
	// Shared: what is kept is copied below, so a value checked already (from a fixture or a values file) is not
	// copied record by record first.
	checked, verr := TypeCheckShared(v, val, FormatGo)
	if verr != nil {
		return nil, 0, verr
	}
	switch x := checked.(type) {
	case string:
		s, ok := clean(v, x)
		if !ok {
			if v.Invalid != blocks.InvalidEmpty {
				return nil, 0, &ValueError{Summary: mismatch(fmt.Sprintf("variable %q", v.Name), v, "value", s)}
			}
			s = ""
		}
		return LimitText(v, s), 0, nil
	case []string:
		return list(v, x)
	case []map[string]any:
		w := walk{name: v.Name, v: v, root: x}
		out, dropped, _, err := w.records(v, x, path{})
		if err != nil {
			return nil, 0, err
		}
		return out, dropped, nil
	case map[string]any:
		w := walk{name: v.Name, v: v, root: x}
		out, _, err := w.fields(v, x, path{}, true)
		if err != nil {
			return nil, 0, err
		}
		return out, 0, nil
	case int64:
		return int(x), 0, nil
	}
	return checked, 0, nil
}

// clean applies steps 1 to 3 of Check to a string: it returns the string after CRLF→LF and trim, and whether it
// matches v's pattern.
func clean(v *blocks.Var, s string) (string, bool) {
	if !v.Verbatim {
		s = source.NormalizeNewlines(s)
	}
	if v.Trim {
		s = strings.TrimFunc(s, unicode.IsSpace)
	}
	return s, s == "" || v.Pattern == nil || v.Pattern.MatchString(s)
}

// list applies steps 1 to 4 of Check to the items of a list value.
func list(v *blocks.Var, raw []string) ([]string, int, *ValueError) {
	items := make([]string, 0, len(raw))
	for i, it := range raw {
		s, ok := clean(v, it)
		if !ok {
			if v.Invalid == blocks.InvalidEmpty {
				continue
			}
			return nil, 0, &ValueError{Summary: mismatch(fmt.Sprintf("variable %q, item %d,", v.Name, i+1), v, "item", s)}
		}
		items = append(items, s)
	}
	items, dropped := limitList(v, items)
	return items, dropped, nil
}

// mismatch says that a value does not match its variable's pattern. It shows the pattern as written and at most
// the first 20 runes of the value, quoted so that control and format characters show as escapes: a hostile value
// is never echoed whole.
func mismatch(what string, v *blocks.Var, noun, s string) string {
	pattern := strings.TrimSuffix(strings.TrimPrefix(v.Pattern.String(), "^(?:"), ")$")
	excerpt, whole := cutRunes(s, 20)
	if whole {
		excerpt = strconv.Quote(s)
	} else {
		excerpt = strconv.Quote(strings.TrimSuffix(excerpt, ellipsis)) + ellipsis
	}
	return fmt.Sprintf("%s does not match its pattern %s (the %s is %s)", what, pattern, noun, excerpt)
}
