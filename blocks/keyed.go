package blocks

import (
	"github.com/promptc/promptc/internal/suggest"
)

// Keyed records (docs/reference.md#keyed-records): a records variable or field with key = "NAME" takes a table of
// records by name (a TOML table of tables, a JSON object of objects, a Go map) instead of an array of them. Its
// records are walked in the byte order of their names, and each holds its name in the declared string field NAME,
// so that templates read it as any other field and every later stage (limits, escaping, static checks) sees plain
// records.

// keyKey reads key: the field that holds each record's name. The fields are read before it (varKeys' order), but
// whether it names one is checked with the rest of the fields (checkKey).
var keyKey = key[*Var]{name: "key", kind: kindString, only: onlyRecords, set: func(r *tableReader, v *Var, val value) {
	if !isName(val.str) {
		r.l.errorf(r.valueRange("key"), "key of %s must name one of its fields ([a-z][a-z0-9_]*), not %q", v.what(), val.str)
		v.broken = true
		return
	}
	v.Key = val.str
}}

// checkKey checks that a keyed records value's key names one of its string or text fields, which no raw fills.
func (v *Var) checkKey(l *loader) {
	if v.Key == "" {
		return
	}
	at := v.Table.Value("key")
	f := v.Field(v.Key)
	switch {
	case f == nil:
		var texts []string
		for _, f := range v.Fields {
			if f.Type.IsText() {
				texts = append(texts, f.Name)
			}
		}
		l.errorf(at, "key of %s names %q, which is not one of its fields%s: declare [%s.fields.%s] with type = \"string\" (and the trust its names deserve)", v.what(), v.Key, suggest.DidYouMean(v.Key, texts), fieldsTable(v), v.Key)
	case !f.Type.IsText():
		l.errorf(at, "key of %s names field %q, which is of type %s: a record's name is a string; declare it with type = \"string\"", v.what(), v.Key, f.Type)
	default:
		return
	}
	v.Key = ""
	v.broken = true
}
