package templates

import (
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/values"
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
// template data. The value is checked and processed by values.Check, once (the type check, CRLF→LF, trim, pattern
// and limits: steps 1 to 4 of docs/reference.md#processing-order, for fixtures, values files and Go callers alike),
// and then each string goes through step 5:
//
//  5. the trust that escapes it where it is printed: a string of type Untrusted, Background or Markdown, escaped
//     only when an action prints it or a function's result computed from it (docs/values.md, "No function can
//     undo escaping"); a code value fenced now by EscapeCode with v.Lang and neutralised with markers (Fenced),
//     since it can only be printed whole; a background value with quote_empty = "> " quoted and neutralised now
//     too (a Mixed whose raw text functions see); a trusted value only made valid UTF-8 (a plain string).
//
// The result is a string of the variable's trust, a new list ([]string of trusted items, else []any of items of the
// variable's trust), a new []map[string]any (ints as int, each field of its own trust; nested records likewise), a new
// map[string]any for a record, a bool or an int. dropped is how many list items or records the limits (max_items and
// max_bytes together) dropped; 0 for other types. A nil val gives Zero(v). A ValueError never echoes a whole value:
// the caller knows where the value came from.
func Prepare(v *blocks.Var, val any, markers []string) (value any, dropped int, err *values.ValueError) {
	if val == nil {
		return Zero(v), 0, nil
	}
	checked, dropped, verr := values.Check(v, val)
	if verr != nil {
		return nil, 0, verr
	}
	switch x := checked.(type) {
	case string:
		return finish(v, x, markers), 0, nil
	case []string:
		return finishList(v, x, markers), dropped, nil
	case []map[string]any:
		return escapeRecords(v, x, markers), dropped, nil
	case map[string]any:
		escape(v, x, markers)
		return x, 0, nil
	}
	return checked, 0, nil
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

// finishList applies step 5 of Prepare to the items of a list that values.Check kept.
func finishList(v *blocks.Var, items []string, markers []string) any {
	if v.Trust == blocks.Trusted {
		for i, it := range items {
			items[i] = ValidUTF8(it)
		}
		return items
	}
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = finish(v, it, markers)
	}
	return out
}
