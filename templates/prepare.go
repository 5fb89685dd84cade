package templates

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/promptc/promptc/blocks"
)

// Zero returns the value a template sees for a variable with no value: "" for string and text, an empty []string
// for list, an empty []map[string]any for records, a map[string]any of every field's zero value for a record, false
// for bool and int 0 for int.
func Zero(v *blocks.Var) any {
	switch v.Type {
	case blocks.TypeList:
		return []string{}
	case blocks.TypeRecords:
		return []map[string]any{}
	case blocks.TypeRecord:
		return zeroRecord(v)
	case blocks.TypeBool:
		return false
	case blocks.TypeInt:
		return 0
	}
	return ""
}

// Prepare turns a value for variable v into the value a template sees; it is the one place where values become
// template data. The value is first checked and converted by v.Check (the one type check, for fixtures, values
// files and Go callers alike), then each string (a string or text value, each list item, each string or text field
// of each record) goes through, in this order (§2.1):
//
//  1. CRLF and lone CR → LF;
//  2. with v.Trim, leading and trailing white space (unicode.IsSpace) removed;
//  3. v.Pattern, unless the string is empty: a mismatch is a ValueError naming the variable (and the record and
//     field) with v.Invalid = InvalidError; with InvalidEmpty a string or field becomes empty and a list item is
//     left out, before the limits and without counting as dropped;
//  4. the limits: LimitText for strings and fields, LimitList for lists; for records max_items, then max_bytes
//     (counting the UTF-8 bytes of each record's string and text fields after their own cuts, nested fields
//     included) with pin_first; nested records fields have limits of their own, applied first;
//  5. escaping by trust (Escape; a code value is fenced by EscapeCode with v.Lang; a field by its own trust);
//  6. Neutralize with markers, for every trust level but trusted: trusted values only become valid UTF-8.
//
// The result is a string, a new []string, a new []map[string]any (ints as int; nested records and records likewise), a
// new map[string]any for a record, a bool or an int. dropped is how
// many list items or records the limits (max_items and max_bytes together) dropped; 0 for other types. A nil val
// gives Zero(v). A ValueError never echoes a whole value: the caller knows where the value came from.
func Prepare(v *blocks.Var, val any, markers []string) (value any, dropped int, err *blocks.ValueError) {
	if val == nil {
		return Zero(v), 0, nil
	}
	checked, verr := v.CheckIn(val, blocks.FormatGo)
	if verr != nil {
		return nil, 0, verr
	}
	switch x := checked.(type) {
	case string:
		s, ok := clean(v, x)
		if !ok {
			if v.Invalid != blocks.InvalidEmpty {
				return nil, 0, &blocks.ValueError{Summary: mismatch(fmt.Sprintf("variable %q", v.Name), v, "value", s)}
			}
			s = ""
		}
		return finish(v, LimitText(v, s), markers), 0, nil
	case []string:
		return prepareList(v, x, markers)
	case []map[string]any:
		n := nested{name: v.Name, markers: markers}
		out, dropped, _, err := n.records(v, x, nestedAt{})
		return out, dropped, err
	case map[string]any:
		n := nested{name: v.Name, markers: markers}
		out, _, err := n.record(v, x, nestedAt{})
		return out, 0, err
	case int64:
		return int(x), 0, nil
	}
	return checked, 0, nil
}

// clean applies steps 1 to 3 of Prepare to a string: it returns the string after CRLF→LF and trim, and whether it
// matches v's pattern.
func clean(v *blocks.Var, s string) (string, bool) {
	s = blocks.NormalizeNewlines(s)
	if v.Trim {
		s = strings.TrimFunc(s, unicode.IsSpace)
	}
	return s, s == "" || v.Pattern == nil || v.Pattern.MatchString(s)
}

// finish applies steps 5 and 6 of Prepare to a string after its limits.
func finish(v *blocks.Var, s string, markers []string) string {
	switch v.Trust {
	case blocks.Trusted:
		return ValidUTF8(s)
	case blocks.Code:
		s = EscapeCode(s, v.Lang)
	default:
		s = Escape(v.Trust, s)
	}
	return BreakMarkerEdges(Neutralize(s, markers), markers)
}

func prepareList(v *blocks.Var, raw []string, markers []string) ([]string, int, *blocks.ValueError) {
	items := make([]string, 0, len(raw))
	for i, it := range raw {
		s, ok := clean(v, it)
		if !ok {
			if v.Invalid == blocks.InvalidEmpty {
				continue
			}
			return nil, 0, &blocks.ValueError{Summary: mismatch(fmt.Sprintf("variable %q, item %d,", v.Name, i+1), v, "item", s)}
		}
		items = append(items, s)
	}
	items, dropped := limitList(v, items)
	for i, it := range items {
		items[i] = finish(v, it, markers)
	}
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
