package explain

import "github.com/promptc/promptc/assemble"

// scopeWhy lists what gives block id its scope (docs/reference.md#scopes), as the compiler decided it: Program.ScopeReasons, the facts
// the compiler computes the scope from.
func scopeWhy(prog *assemble.Program, id string) []Reason {
	var out []Reason
	for _, r := range prog.ScopeReasons(id) {
		out = append(out, Reason{Kind: r.Kind, Text: r.Text, At: r.At})
	}
	return out
}
