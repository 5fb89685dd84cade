package blocks

import (
	"fmt"
	"strings"

	"github.com/promptc/promptc/internal/suggest"
)

// The keys of a variable or field that choose how its value is read and printed where the defaults do not fit a
// platform being ported (docs/reference.md#varsname): verbatim, keep_newlines and quote_empty for text, unknown and
// raw for JSON texts (decode = "json").

var (
	verbatimKey = key[*Var]{name: "verbatim", kind: kindBool, only: func(v *Var) string {
		if msg := onlyTextOrList(v); msg != "" {
			return msg
		}
		if v.Trust != Trusted {
			return fmt.Sprintf(`applies only to trusted values (trust = "trusted"): every other trust turns CR into LF when it escapes; %s has trust %s`, v.what(), v.Trust)
		}
		return ""
	}, set: func(_ *tableReader, v *Var, val value) { v.Verbatim = val.b }}

	keepNewlinesKey = key[*Var]{name: "keep_newlines", kind: kindBool, only: func(v *Var) string {
		if msg := onlyText(v); msg != "" {
			return msg
		}
		if v.Trust != Trusted && v.Trust != Markdown {
			return fmt.Sprintf(`applies only to trusted and markdown values, which print their newlines (untrusted values print none, background and code values begin and end with their quote or fence); %s has trust %s`, v.what(), v.Trust)
		}
		return ""
	}, set: func(r *tableReader, v *Var, val value) {
		if val.b && v.Trim {
			r.errorf("keep_newlines", "keep_newlines keeps the white space at the edges of %s, which trim = true removes: remove one of them", v.what())
			return
		}
		v.KeepNewlines = val.b
	}}

	quoteEmptyKey = key[*Var]{name: "quote_empty", kind: kindString, only: func(v *Var) string {
		if msg := onlyTextOrList(v); msg != "" {
			return msg
		}
		if v.Trust != Background {
			return fmt.Sprintf(`applies only to background values (trust = "background"), which are quoted; %s has trust %s`, v.what(), v.Trust)
		}
		return ""
	}, set: func(r *tableReader, v *Var, val value) {
		q, ok := parseEnum[EmptyQuote](emptyQuoteNames, val.str)
		if !ok {
			r.l.errorf(r.valueRange("quote_empty"), `quote_empty must be ">" (an empty line of the value is quoted as ">") or "> " (as "> ", with the space every other line has), not %q`, val.str)
			return
		}
		v.EmptyQuote = q
	}}

	unknownKey = key[*Var]{name: "unknown", kind: kindString, only: onlyFields, set: func(r *tableReader, v *Var, val value) {
		u, ok := parseEnum[Unknown](unknownNames, val.str)
		if !ok {
			r.l.errorf(r.valueRange("unknown"), `unknown must be "error" (a key of the JSON text that no field declares is a value error) or "ignore" (it is left out, as Go's json.Unmarshal does), not %q%s`, val.str, suggest.DidYouMean(val.str, unknownNames))
			return
		}
		if _, decode := r.m["decode"]; !decode {
			r.errorf("unknown", `unknown says what a key of a JSON text that no field declares does, but %s has no decode: add decode = "json", or remove unknown`, v.what())
			return
		}
		v.Unknown = u
	}}
)

// setRaw reads raw, the sibling field that receives a JSON text that does not decode. Which fields the record has is
// known once all of them are read: checkRaw checks the name then.
func setRaw(r *tableReader, v *Var, val value) {
	_, decode := r.m["decode"]
	_, invalid := r.m["invalid"]
	switch {
	case !decode:
		r.errorf("raw", `raw names the field that receives a JSON text that does not decode, but %s has no decode: add decode = "json", or remove raw`, v.what())
	case invalid:
		r.errorf("raw", `raw already says what a JSON text that does not decode does (%s is left at its zero value and the text goes to field %q): remove invalid`, v.what(), val.str)
	case val.str == v.Name:
		r.l.errorf(r.valueRange("raw"), "raw of %s names the field itself: name a string or text field of the same record that receives the text", v.what())
	default:
		v.Raw = val.str
	}
}

// checkRaw checks, once every field of v is read, that each raw names a string or text field of the same record,
// one that no other raw names and that is not the record's key.
func (v *Var) checkRaw(l *loader) {
	var texts []string
	for _, f := range v.Fields {
		if f.Type.IsText() {
			texts = append(texts, f.Name)
		}
	}
	taken := map[string]string{}
	for _, f := range v.Fields {
		if f.Raw == "" {
			continue
		}
		at := f.Table.Value("raw")
		to := v.Field(f.Raw)
		switch {
		case to == nil:
			l.errorf(at, "raw of %s names %q, which is not a field of the same record%s: declare [%s.fields.%s] with type = \"text\"", f.what(), f.Raw, suggest.DidYouMean(f.Raw, texts), fieldsTable(v), f.Raw)
		case !to.Type.IsText():
			l.errorf(at, "raw of %s names field %q, which is of type %s: the text it receives needs a string or text field", f.what(), f.Raw, to.Type)
		case to.Name == v.Key:
			l.errorf(at, "raw of %s names field %q, which holds the record's key (key = %q): name another field", f.what(), f.Raw, v.Key)
		case to.Required:
			l.errorf(at, "raw of %s names field %q, which is required: a field filled only when a text does not decode cannot be required; remove required = true from it", f.what(), f.Raw)
		case taken[f.Raw] != "":
			l.errorf(at, "raw of %s names field %q, which field %q names already: give each its own field", f.what(), f.Raw, taken[f.Raw])
		default:
			taken[f.Raw] = f.Name
			continue
		}
		f.Raw = ""
		v.broken = true
	}
}

// fieldsTable names the table that declares v's fields, without brackets: "vars.repos", "vars.repos.fields.owner".
func fieldsTable(v *Var) string { return "vars." + strings.ReplaceAll(v.Path(), ".", ".fields.") }
