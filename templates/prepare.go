package templates

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// Zero returns the value a template sees for a variable with no value: "" for string and text (of the variable's
// trust), an empty list, an empty []map[string]any for records, a map[string]any of every field's zero value for a
// record, false for bool and int 0 for int.
func Zero(v *blocks.Var) any {
	switch v.Type {
	case blocks.TypeList:
		if v.Trust == blocks.Trusted {
			return []string{}
		}
		return []any{}
	case blocks.TypeRecords:
		return withZero(nil, []map[string]any{zeroFields(v)}[:0])
	case blocks.TypeRecord:
		return zeroFields(v)
	case blocks.TypeBool:
		return false
	case blocks.TypeInt:
		return 0
	}
	return finish(v, "", nil)
}

// zeroFields is a record of v with every field at its zero value.
func zeroFields(v *blocks.Var) map[string]any {
	r := make(map[string]any, len(v.Fields))
	for _, f := range v.Fields {
		r[f.Name] = Zero(f)
	}
	return r
}

// Prepare turns a value for variable v into the value a template sees; it is the one place where values become
// template data. The value is first checked and converted by v.CheckShared (the one type check, for fixtures, values
// files and Go callers alike), then each string (a string or text value, each list item, each string or text field
// of each record) goes through, in this order (docs/reference.md#processing-order):
//
//  1. CRLF and lone CR → LF, unless v.Verbatim (a trusted value that keeps its CRs);
//  2. with v.Trim, leading and trailing white space (unicode.IsSpace) removed;
//  3. v.Pattern, unless the string is empty: a mismatch is a ValueError naming the variable (and the record and
//     field) with v.Invalid = InvalidError; with InvalidEmpty a string or field becomes empty and a list item is
//     left out, before the limits and without counting as dropped;
//  4. the limits: LimitText for strings and fields, LimitList for lists; for records max_items, then max_bytes
//     (counting the UTF-8 bytes of each record's string and text fields after their own cuts, nested fields
//     included) with pin_first; nested records fields have limits of their own, applied first;
//  5. the trust that escapes it where it is printed: a string of type Untrusted, Background or Markdown, escaped
//     only when an action prints it or a function's result computed from it (docs/values.md, "No function can
//     undo escaping"); a code value fenced now by EscapeCode with v.Lang and neutralised with markers (Fenced),
//     since it can only be printed whole; a background value with quote_empty = "> " quoted and neutralised now
//     too (a Mixed whose raw text functions see); a trusted value only made valid UTF-8 (a plain string).
//
// The result is a string of the variable's trust, a new list ([]string of trusted items, else []any of items of the
// variable's trust), a new []map[string]any (ints as int, each field of its own trust; nested records likewise), a new
// map[string]any for a record, a bool or an int. dropped
// is how many list items or records the limits (max_items and max_bytes together) dropped; 0 for other types. A
// nil val gives Zero(v). A ValueError never echoes a whole value: the caller knows where the value came from.
func Prepare(v *blocks.Var, val any, markers []string) (value any, dropped int, err *blocks.ValueError) {
	if val == nil {
		return Zero(v), 0, nil
	}
	// Shared: what is kept is copied below, so a value checked already (from a fixture or a values file) is not
	// copied record by record first.
	checked, verr := v.CheckShared(val, blocks.FormatGo)
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
		n := nested{name: v.Name, markers: markers, v: v, root: x}
		out, dropped, _, err := n.records(v, x, nestedAt{})
		return out, dropped, err
	case map[string]any:
		n := nested{name: v.Name, markers: markers, v: v, root: x}
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
	if !v.Verbatim {
		s = source.NormalizeNewlines(s)
	}
	if v.Trim {
		s = strings.TrimFunc(s, unicode.IsSpace)
	}
	return s, s == "" || v.Pattern == nil || v.Pattern.MatchString(s)
}

// finish applies step 5 of Prepare to a string after its limits.
func finish(v *blocks.Var, s string, markers []string) any {
	switch v.Trust {
	case blocks.Trusted:
		return ValidUTF8(s)
	case blocks.Code:
		return Fenced(Neutralize(EscapeCode(s, v.Lang), markers))
	case blocks.Background:
		if v.EmptyQuote == blocks.EmptyQuoteSpace {
			return spacedBackground(s, markers)
		}
		return Background(s)
	case blocks.Markdown:
		return Markdown(s)
	}
	return Untrusted(s)
}

// spacedBackground is a background value whose empty lines are quoted as "> " (quote_empty = "> "): escaped and
// neutralised now, as printing a background value alone would, since the printer quotes every background value
// with ">". Functions still see the text before escaping, and their results are escaped as every background
// value's are.
func spacedBackground(s string, markers []string) any {
	text := Neutralize(EscapeBackgroundQuoting(s, blocks.EmptyQuoteSpace), markers)
	if text == "" {
		return ""
	}
	return Mixed{text: text, raw: s, trust: blocks.Background, marks: []span{{0, len(text), blocks.Background}}, block: true}
}

func prepareList(v *blocks.Var, raw []string, markers []string) (any, int, *blocks.ValueError) {
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
	if v.Trust == blocks.Trusted {
		for i, it := range items {
			items[i] = ValidUTF8(it)
		}
		return items, dropped, nil
	}
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = finish(v, it, markers)
	}
	return out, dropped, nil
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
