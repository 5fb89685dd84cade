package templates

import "github.com/promptc/promptc/blocks"

// Record and records values come from values.Check processed field by field up to their limits; here each string
// and text field is escaped by its own trust (docs/reference.md, "Records" and "Nested data"), a nested record or
// records field the same way, one level down.

// escapeRecords applies step 5 of Prepare to the records of v that values.Check kept, and keeps the zero record of v
// in their capacity, which first and last give for no records (see zeroRecord): in place, in the room values.Check
// leaves past the last record, so that the slice is not copied; a slice without that room is copied (withZero).
func escapeRecords(v *blocks.Var, records []map[string]any, markers []string) []map[string]any {
	for _, r := range records {
		escape(v, r, markers)
	}
	if n := len(records); cap(records) > n {
		records[:n+1][n] = zeroFields(v)
		return records
	}
	return withZero(records, []map[string]any{zeroFields(v)}[:0])
}

// escape applies step 5 of Prepare to the string and text fields of a record that values.Check processed, nested
// records included.
func escape(v *blocks.Var, r map[string]any, markers []string) {
	for _, f := range v.Fields {
		switch x := r[f.Name].(type) {
		case string:
			r[f.Name] = finish(f, x, markers)
		case map[string]any:
			escape(f, x, markers)
		case []map[string]any:
			if out := escapeRecords(f, x, markers); cap(out) != cap(x) {
				r[f.Name] = out // copied: there was no room for the zero record
			}
		}
	}
}
