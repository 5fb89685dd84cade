package assemble

import (
	"fmt"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/templates"
)

// checker holds what the static checks of block bodies need: the project, and suggesters for its names.
type checker struct {
	p                    *blocks.Project
	vars, consts, tables *suggest.Suggester
}

// codeRule is the fix a diagnostic of the code rule (docs/reference.md#trust-levels) gives.
const codeRule = "a code value must be printed by an action alone on its line ({{.name}}, with only white space and if, else, end, range, with or comments beside it, and no trim markers there), never through a function, a template variable or beside other text, since its fence works only on lines of its own"

// block checks what a body uses against the project (docs/reference.md#functions, docs/reference.md#the-static-scope-rule, docs/reference.md#trust-levels): variables and their scope, fields of records,
// constants and lookup tables, refs and titles, dropped, and where code values are printed.
func (ck *checker) block(b *blocks.Block, body *templates.Body) source.Diagnostics {
	var diags source.Diagnostics
	p := ck.p
	at := func(u templates.Use) source.Range { return b.SourceRange(u.Off, u.End) }
	for _, u := range body.Uses.Vars {
		v, ok := p.Vars[u.Name]
		switch {
		case !ok:
			diags.Errorf(at(u), "block %q uses undeclared variable %q%s: declare it under [vars.%s] in promptc.toml", b.ID, u.Name, ck.vars.DidYouMean(u.Name), u.Name)
			continue
		case b.Section == blocks.Runbook && v.Scope == blocks.ScopeTurn:
			diags.Errorf(at(u), "runbook block %q uses turn variable %q: runbook bytes must not depend on the turn; move this text into a turn block", b.ID, u.Name)
		}
		if msg := codeUse(v, u.Kind, u.Alone); msg != "" {
			diags.Errorf(at(u), "block %q %s: %s", b.ID, msg, codeRule)
		}
		if msg := markdownUse(v, u.Kind, u.Alone, false); msg != "" {
			diags.Errorf(at(u), "block %q %s: %s", b.ID, msg, markdownRule)
		}
	}
	for _, u := range body.Uses.Items {
		v := p.Vars[u.Name]
		if v == nil {
			continue
		}
		switch {
		case v.Type == blocks.TypeList && markdownUse(v, u.Kind, u.Alone, true) != "":
			diags.Errorf(at(u), "block %q %s: %s", b.ID, markdownUse(v, u.Kind, u.Alone, true), markdownRule)
		case v.Type == blocks.TypeList && v.Trust == blocks.Code && !(u.Kind == templates.UsePrinted && u.Alone):
			diags.Errorf(at(u), "block %q uses an item of code variable %q where its fence cannot hold: %s", b.ID, u.Name, codeRule)
		case v.Type == blocks.TypeRecords && hasCodeField(v):
			diags.Errorf(at(u), "block %q uses a record of %q whole, which would print its code fields without their fence: read its fields one by one ({{.field}})", b.ID, u.Name)
		}
	}
	for _, f := range body.Uses.Fields {
		diags = append(diags, ck.field(b, f)...)
	}
	for _, u := range body.Uses.Prints {
		diags = append(diags, ck.printUse(b, u)...)
	}
	for _, u := range body.Uses.Consts {
		c, ok := p.Consts[u.Name]
		switch {
		case ok && c.Lookup != nil:
			diags.Errorf(at(u), "block %q reads lookup table %q with const: read an entry with {{lookup %q KEY}}", b.ID, u.Name, u.Name)
		case !ok && !p.Incomplete:
			diags.Errorf(at(u), "block %q uses unknown constant %q%s: define it under [const] in a blocks/ file", b.ID, u.Name, ck.consts.DidYouMean(u.Name))
		default:
			diags = append(diags, listConstUse(b, c, u, at)...)
		}
	}
	for _, u := range body.Uses.Lookups {
		c, ok := p.Consts[u.Name]
		switch {
		case ok && c.List != nil:
			diags.Errorf(at(u), "block %q calls lookup on %q, a list constant, not a lookup table: walk it with {{range const %q}}", b.ID, u.Name, u.Name)
		case ok && c.Lookup == nil:
			diags.Errorf(at(u), "block %q calls lookup on %q, a text constant, not a lookup table: use {{const %q}}", b.ID, u.Name, u.Name)
		case !ok && !p.Incomplete:
			diags.Errorf(at(u), "block %q looks up unknown table %q%s: define it as [const.%s] with name = \"text\" entries in a blocks/ file", b.ID, u.Name, ck.tables.DidYouMean(u.Name), u.Name)
		}
	}
	for _, u := range append(append([]templates.Use(nil), body.Uses.Refs...), body.Uses.Titles...) {
		// A ref to an unknown id is checked when it runs, like every ref (docs/reference.md#functions); lint reports it statically.
		if target, ok := p.ByID[u.Name]; ok && b.Section == blocks.Runbook && target.Section == blocks.Turn {
			diags.Errorf(at(u), "runbook block %q refers to turn block %q: a runbook must not point into the per-turn message", b.ID, u.Name)
		}
	}
	// The tools a task offers depend on the task alone: their text belongs in the runbook, the stable prefix, and
	// never in a turn message that would repeat it every turn.
	for _, u := range body.Uses.Tools {
		if b.Section == blocks.Turn {
			diags.Errorf(at(u), "turn block %q calls tools: the tool list depends only on the task, so it belongs in the runbook; move this text into a runbook block", b.ID)
		}
	}
	for _, u := range body.Uses.Dropped {
		v, ok := p.Vars[u.Name]
		switch {
		case !ok:
			diags.Errorf(at(u), "block %q asks how many items of undeclared variable %q were dropped%s", b.ID, u.Name, ck.vars.DidYouMean(u.Name))
		case v.Type != blocks.TypeList && v.Type != blocks.TypeRecords:
			diags.Errorf(at(u), "block %q asks how many items of %q were dropped, but only list and records values have items; %q is %s", b.ID, u.Name, u.Name, v.Type.Noun())
		case b.Section == blocks.Runbook && v.Scope == blocks.ScopeTurn:
			diags.Errorf(at(u), "runbook block %q uses turn variable %q: runbook bytes must not depend on the turn; move this text into a turn block", b.ID, u.Name)
		}
	}
	return diags
}

// markdownRule is the fix a diagnostic of the markdown rule (docs/reference.md#trust-levels) gives.
const markdownRule = "a markdown value must be printed by an action alone on its line ({{.name}}, with only white space and if, else, end, range, with or comments beside it, and no trim markers there, and in a range with a line break between items), since its headings, lists and fences work only on lines of their own"

// markdownUse says what is wrong with a printed use of v (a variable, a field, or a list's item when item is set)
// under the markdown rule, or "" when nothing is.
func markdownUse(v *blocks.Var, kind templates.UseKind, alone, item bool) string {
	if v.Trust != blocks.Markdown || kind != templates.UsePrinted || alone || v.Type.HasFields() || !item && v.Type == blocks.TypeList {
		return ""
	}
	if item {
		return fmt.Sprintf("prints an item of markdown variable %q beside other text on its line", v.Name)
	}
	return fmt.Sprintf("prints markdown variable %q beside other text on its line", v.Name)
}

// codeUse says what is wrong with a use of v of the given kind under the code rule, or "" when nothing is.
func codeUse(v *blocks.Var, kind templates.UseKind, alone bool) string {
	switch {
	case v.Type.HasFields():
		if hasCodeField(v) && kind != templates.UseRange && kind != templates.UseCondition && kind != templates.UsePart {
			return fmt.Sprintf("uses %s variable %q, which has code fields, other than by ranging over it or reading its fields", v.Type, v.Name)
		}
	case v.Trust != blocks.Code:
	case v.Type == blocks.TypeList:
		if kind != templates.UseRange && kind != templates.UseCondition {
			return fmt.Sprintf("uses code variable %q other than by ranging over it and printing each item alone on its line", v.Name)
		}
	case kind == templates.UseCondition:
	case kind != templates.UsePrinted:
		return fmt.Sprintf("passes code variable %q through a function, a template variable or a range", v.Name)
	case !alone:
		return fmt.Sprintf("prints code variable %q beside other text on its line", v.Name)
	}
	return ""
}

func hasCodeField(v *blocks.Var) bool {
	for _, f := range v.Fields {
		if f.Trust == blocks.Code || hasCodeField(f) {
			return true
		}
	}
	return false
}
