package lint

import (
	"fmt"

	"github.com/promptc/promptc/blocks"
)

func (l *linter) unusedConstants() {
	for _, bd := range l.bodies {
		if bd.uses.DynamicConst || bd.uses.DynamicLookup {
			return // a computed const name may use any constant: nothing can be called unused
		}
	}
	l.ran[UnusedConstant] = true
	for _, ct := range l.consts {
		if len(l.usedBy[ct.Name]) > 0 {
			continue
		}
		if ct.Lookup != nil {
			l.add(UnusedConstant, ct.Range, ct.Name,
				fmt.Sprintf("read it with {{lookup %q KEY}} where it applies, or delete it", ct.Name),
				"lookup table %q is never used: no block reads it with {{lookup %q …}}", ct.Name, ct.Name)
			continue
		}
		l.add(UnusedConstant, ct.Range, ct.Name,
			fmt.Sprintf("emit it with {{const %q}} where the rule applies, or delete it", ct.Name),
			"constant %q is never used: no block emits it with {{const %q}}", ct.Name, ct.Name)
	}
}

func (l *linter) unusedVariables() {
	l.ran[UnusedVariable] = true
	used := map[string]bool{}
	for _, bd := range l.bodies {
		for _, u := range bd.uses.Vars {
			used[u.Name] = true
		}
		for _, name := range bd.b.Cond.Names() {
			used[name] = true
		}
		if bd.uses.Data {
			// . hands every variable in the block's scope to the template.
			for name, v := range l.p.Vars {
				if v.Scope == blocks.ScopeSession || bd.b.Section == blocks.Turn {
					used[name] = true
				}
			}
		}
	}
	for _, name := range lintKeys(l.p.Vars) {
		if used[name] {
			l.unusedFields(l.p.Vars[name])
			continue
		}
		v := l.p.Vars[name]
		l.add(UnusedVariable, v.Range, name,
			fmt.Sprintf("use it in a block ({{.%s}} or when = %q), or delete [vars.%s] and its values in fixtures/", name, name, name),
			"%s variable %q is declared but no block uses it: a value given for it changes no output", v.Scope, name)
	}
}
