package templates

import "slices"

// empty is empty V, sprig's test (docs/reference.md, "empty"): whether V holds nothing. Text is empty when it is ""
// before escaping, whatever its trust; an int when 0, a bool when false; a list, records or a dict when it has no
// item; a record when every field of it is empty, nested records included. So it tells a record that is present
// but empty (a platform's object with no field set, which Jinja's {% if obj %} still takes as true) from one with
// something to print; a missing record is its zero record, and empty too. A code value is empty when it was: its
// fence is added only to a value with text in it.
func empty(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, f := range x {
			if !empty(f) {
				return false
			}
		}
		return true
	case Dict:
		return len(x) == 0
	}
	return isZero(v)
}

func init() { FuncNames = append(FuncNames, "empty"); slices.Sort(FuncNames) }
