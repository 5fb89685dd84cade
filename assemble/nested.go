package assemble

import (
	"fmt"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/templates"
)

// field checks one field a body reads (docs/reference.md, "Records" and "Nested data"): from an item of a records
// value inside a range over it, or from a record value; at any depth, the field must be declared. A read along the
// way that is wrong is reported at that read, once.
func (ck *checker) field(b *blocks.Block, f templates.FieldUse) source.Diagnostics {
	var diags source.Diagnostics
	v := ck.p.Vars[f.Var]
	if v == nil {
		return nil // the variable itself is reported as undeclared
	}
	from, name := v, f.Var
	if f.Path != "" {
		for _, part := range strings.Split(f.Path, ".") {
			if !from.Type.HasFields() {
				return nil // reported where that part is read
			}
			if from = from.Field(part); from == nil {
				return nil
			}
		}
		name += "." + f.Path
	}
	rng := func() source.Range { return b.SourceRange(f.Off, f.End) } // only a diagnostic needs it
	switch {
	case f.Item && from.Type == blocks.TypeRecord:
		diags.Errorf(rng(), "block %q ranges over record %q to read its field %q, but a record is one table, not a list: read {{.%s.%s}} without range", b.ID, name, f.Name, name, f.Name)
		return diags
	case f.Item && from.Type != blocks.TypeRecords:
		diags.Errorf(rng(), "block %q reads field %q of the items of %q, but %q is %s %s %s: only records have fields", b.ID, f.Name, name, name, from.Type.Article(), from.Type, kindOf(from))
		return diags
	case !f.Item && from.Type == blocks.TypeRecords:
		diags.Errorf(rng(), "block %q reads field %q of records %q without ranging over them: read it for each record, {{range .%s}}{{.%s}}{{end}}", b.ID, f.Name, name, name, f.Name)
		return diags
	case !f.Item && from.Type != blocks.TypeRecord:
		diags.Errorf(rng(), "block %q reads field %q of %q, but %q is %s %s %s: only record and records values have fields", b.ID, f.Name, name, name, from.Type.Article(), from.Type, kindOf(from))
		return diags
	}
	fd := from.Field(f.Name)
	if fd == nil {
		names := make([]string, len(from.Fields))
		for i, fl := range from.Fields {
			names[i] = fl.Name
		}
		diags.Errorf(rng(), "block %q reads undeclared field %q of %s %q%s; its fields are: %s", b.ID, f.Name, from.Type, name, suggest.DidYouMean(f.Name, names), strings.Join(names, ", "))
		return diags
	}
	if msg := codeUse(fd, f.Kind, f.Alone); msg != "" {
		diags.Errorf(rng(), "block %q %s: %s", b.ID, strings.Replace(msg, "variable", "field of "+quote(name), 1), codeRule)
	}
	if msg := markdownUse(fd, f.Kind, f.Alone, false); msg != "" {
		diags.Errorf(rng(), "block %q %s: %s", b.ID, strings.Replace(msg, "variable", "field of "+quote(name), 1), markdownRule)
	}
	return diags
}

// kindOf says whether v is a variable or a field, for messages.
func kindOf(v *blocks.Var) string {
	if strings.Contains(v.Path(), ".") {
		return "field"
	}
	return "variable"
}

// trustedFieldMarker reports whether a trusted field of record rec of v, at any depth, holds marker, and the path of
// the field below the record.
func trustedFieldMarker(v *blocks.Var, rec map[string]any, marker string) (string, bool) {
	for _, f := range v.Fields {
		switch x := rec[f.Name].(type) {
		case string:
			if f.Trust == blocks.Trusted && strings.Contains(x, marker) {
				return f.Name, true
			}
		case map[string]any:
			if p, ok := trustedFieldMarker(f, x, marker); ok {
				return f.Name + "." + p, true
			}
		case []map[string]any:
			for i, r := range x {
				if p, ok := trustedFieldMarker(f, r, marker); ok {
					return fmt.Sprintf("%s[%d].%s", f.Name, i+1, p), true
				}
			}
		}
	}
	return "", false
}
