package analysis

import (
	"slices"
	"strings"
)

// WorkspaceSymbols returns the symbols of every file of the project (Symbols, fields included, each with its
// file in Range) whose name contains query, ignoring case; "" matches all. They are sorted by name, then file and
// position, and at most limit are returned (0: no limit).
func (s *Snapshot) WorkspaceSymbols(query string, limit int) []DocSymbol {
	q := strings.ToLower(query)
	var out []DocSymbol
	var walk func(ds []DocSymbol)
	walk = func(ds []DocSymbol) {
		for _, d := range ds {
			if strings.Contains(strings.ToLower(d.Name), q) {
				c := d
				c.Children = nil
				out = append(out, c)
			}
			walk(d.Children)
		}
	}
	for _, name := range sortedKeys(s.Files) {
		if strings.HasSuffix(name, ".toml") {
			walk(s.Symbols(name))
		}
	}
	slices.SortStableFunc(out, func(a, b DocSymbol) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		if c := strings.Compare(a.Range.Filename, b.Range.Filename); c != 0 {
			return c
		}
		return a.Selection.Start.Byte - b.Selection.Start.Byte
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}
