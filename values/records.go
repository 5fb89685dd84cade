package values

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/promptc/promptc/blocks"
)

// Record and records values are processed field by field, each field as a variable of its own (docs/reference.md,
// "Records" and "Nested data"); a nested record or records field is processed the same way, one level down.

// walk processes the record and records parts of one variable's value.
type walk struct {
	name string // the variable
	// v and root are the variable and its checked value, for messages to name the records of keyed records by
	// their names (nil: by number).
	v    *blocks.Var
	root any
}

// path is where a part of the value is: the record (from 1) of a records variable, and the path below it
// ("owner", "tags[2]").
type path struct {
	record int
	field  string
}

// at names the part of the value at p in messages: `variable "repos", record 2, field "owner"`. It is built only
// for a message, so that processing a value builds no strings.
func (n *walk) at(p path) string {
	s := fmt.Sprintf("variable %q", n.name)
	v, val := n.v, n.root
	// record says which record of the records val (of v) number i is: by its name for keyed records.
	record := func(i int) string {
		recs, _ := val.([]map[string]any)
		if v != nil && v.Key != "" && i >= 1 && i <= len(recs) {
			if name, ok := recs[i-1][v.Key].(string); ok {
				val = recs[i-1]
				return fmt.Sprintf(", record %q", name)
			}
		}
		if i >= 1 && i <= len(recs) {
			val = recs[i-1]
		} else {
			val = nil
		}
		return fmt.Sprintf(", record %d", i)
	}
	if p.record > 0 {
		s += record(p.record)
	}
	for rest := p.field; rest != ""; {
		var part string
		part, rest, _ = strings.Cut(rest, ".")
		name, idx, indexed := strings.Cut(part, "[")
		s += fmt.Sprintf(", field %q", name)
		if v != nil {
			v = v.Field(name)
		}
		rec, _ := val.(map[string]any)
		val = rec[name]
		if indexed {
			i, _ := strconv.Atoi(strings.TrimSuffix(idx, "]"))
			s += record(i)
		}
	}
	return s
}

func (p path) dot(name string) string {
	if p.field == "" {
		return name
	}
	return p.field + "." + name
}

// records processes a records value of v: each record, then max_items and max_bytes with pin_first. It returns the
// records kept (with room for one more past the last, where templates keeps the zero record), how many the limits
// dropped, and the bytes of the string and text fields of those kept. A record
// past max_items, dropped whatever the sizes, is only checked (a bad value in it is reported as in any other), not
// processed: a million records with max_items = 10 make ten copies, not a million.
func (n *walk) records(v *blocks.Var, raw []map[string]any, p path) ([]map[string]any, int, int, *ValueError) {
	limit := len(raw)
	if v.MaxItems > 0 && limit > v.MaxItems {
		limit = v.MaxItems
	}
	out := make([]map[string]any, limit, limit+1)
	sizes := make([]int, limit)
	for i, rec := range raw {
		at := path{record: i + 1}
		if p.record > 0 || p.field != "" {
			at.record, at.field = p.record, fmt.Sprintf("%s[%d]", p.field, i+1)
		}
		r, size, err := n.fields(v, rec, at, i < limit)
		if err != nil {
			return nil, 0, 0, err
		}
		if i < limit {
			out[i], sizes[i] = r, size
		}
	}
	kept := admit(v, limit, func(i int) int { return sizes[i] })
	total := 0
	for _, s := range sizes[:kept] {
		total += s
	}
	return out[: kept : kept+1], len(raw) - kept, total, nil
}

// fields processes the fields of one record up to their limits (steps 1 to 4 of Check), ints becoming int, and
// returns the bytes of its string and text fields after their cuts, nested ones included. Fields go in
// declaration order (sorted by name), so that of two bad fields the same one is reported every time. With keep
// false the record is only checked: no copy is made, and the map and size returned are nil and 0.
func (n *walk) fields(v *blocks.Var, rec map[string]any, p path, keep bool) (map[string]any, int, *ValueError) {
	var r map[string]any
	if keep {
		r = make(map[string]any, len(rec))
		for name, val := range rec {
			if x, isInt := val.(int64); isInt {
				val = int(x)
			}
			r[name] = val
		}
	}
	size := 0
	for _, f := range v.Fields {
		switch x := rec[f.Name].(type) {
		case string:
			s, ok := clean(f, x)
			if !ok {
				if f.Invalid != blocks.InvalidEmpty {
					where := fmt.Sprintf("%s: field %q", n.at(p), f.Name)
					return nil, 0, &ValueError{Summary: mismatch(where, f, "value", s), Record: p.record, Field: p.dot(f.Name)}
				}
				s = ""
			}
			if keep {
				s = LimitText(f, s)
				size += len(s)
				r[f.Name] = s
			}
		case map[string]any:
			sub, sz, err := n.fields(f, x, path{p.record, p.dot(f.Name)}, keep)
			if err != nil {
				return nil, 0, err
			}
			if keep {
				size += sz
				r[f.Name] = sub
			}
		case []map[string]any:
			if !keep {
				for i, sub := range x {
					if _, _, err := n.fields(f, sub, path{p.record, fmt.Sprintf("%s[%d]", p.dot(f.Name), i+1)}, false); err != nil {
						return nil, 0, err
					}
				}
				continue
			}
			sub, _, sz, err := n.records(f, x, path{p.record, p.dot(f.Name)})
			if err != nil {
				return nil, 0, err
			}
			size += sz
			r[f.Name] = sub
		}
	}
	if !keep {
		return nil, 0, nil
	}
	return r, size, nil
}
