package assemble

import (
	"fmt"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/templates"
)

// printUse checks a value a body prints whole, or hands whole to print, printf, … (docs/reference.md, "Bodies: the
// template language"): a list, records or a record has no text of its own, and fmt would write it as Go syntax
// ([a b], map[n:x]), so printing one is a compile error with what to write instead, as printing a list constant is.
func (ck *checker) printUse(b *blocks.Block, u templates.PrintUse) source.Diagnostics {
	var diags source.Diagnostics
	// Most prints are fine: where one is written is computed only for a diagnostic.
	rng := func() source.Range { return b.SourceRange(u.Off, u.End) }
	whole := func(what string) string {
		if u.Func == "" {
			return "prints " + what + " whole"
		}
		return fmt.Sprintf("passes %s whole to %s", what, u.Func)
	}
	if u.Data {
		diags.Errorf(rng(), "block %q %s ({{.}} where dot holds every variable), which has no text of its own: print the variables one by one ({{.name}}), or json one", b.ID, whole("the data"))
		return diags
	}
	v := ck.p.Vars[u.Var]
	if v == nil {
		return nil // an undeclared variable, reported as such
	}
	name := u.Var
	if u.Path != "" {
		for _, part := range strings.Split(u.Path, ".") {
			if !v.Type.HasFields() {
				return nil // reported where that part is read
			}
			if v = v.Field(part); v == nil {
				return nil
			}
		}
		name += "." + u.Path
	}
	switch {
	case v.Type == blocks.TypeRecords && hasCodeField(v):
		// The code rule refuses records with code fields used whole, with its own fix (codeUse, Uses.Items).
	case u.Item && v.Type == blocks.TypeRecords:
		diags.Errorf(rng(), "block %q %s, which has no text of its own: print its fields one by one (its fields are: %s), or json it", b.ID, whole(fmt.Sprintf("a record of %q", name)), fieldNames(v))
	case u.Item:
	case v.Type == blocks.TypeList:
		diags.Errorf(rng(), "block %q %s, which has no text of its own: lay it out with {{join .%s \", \"}} or {{bullets .%s}}, or walk it with {{range .%s}}…{{end}}", b.ID, whole(fmt.Sprintf("list %q", name)), name, name, name)
	case v.Type == blocks.TypeRecords:
		diags.Errorf(rng(), "block %q %s, which have no text of their own: walk them with range and print their fields (their fields are: %s)", b.ID, whole(fmt.Sprintf("records %q", name)), fieldNames(v))
	case v.Type == blocks.TypeRecord:
		diags.Errorf(rng(), "block %q %s, which has no text of its own: print its fields one by one (its fields are: %s), or json it", b.ID, whole(fmt.Sprintf("record %q", name)), fieldNames(v))
	}
	return diags
}

// fieldNames lists the declared fields of a record or records variable or field, for messages.
func fieldNames(v *blocks.Var) string {
	names := make([]string, len(v.Fields))
	for i, f := range v.Fields {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}
