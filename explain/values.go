package explain

import (
	"fmt"
	"reflect"
	"sort"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/templates"
)

// DefaultFixture is the fixture Block samples a task with when none is given: the only fixture rendering the task,
// else the first by name of those that do (ok is false when several could be meant, so the caller can say which one
// it took), else nil.
func DefaultFixture(p *blocks.Project, task string) (f *blocks.Fixture, ok bool) {
	if f, names := p.DefaultFixture(task); f != nil {
		return f, true
	} else if len(names) > 0 {
		return p.Fixture(names[0]), false
	}
	return nil, false
}

// values are the prepared values of one fixture's session, or of one of its turns on top of it.
type values map[string]any

// prepare returns what templates see for the fixture's session values (turn 0) or its turn k: the values go through
// templates.Prepare as rendering does, so truthiness and text match what rendering decides.
func prepare(prog *assemble.Program, f *blocks.Fixture, k int) values {
	p := prog.Project
	out := values{}
	var markers []string
	for _, t := range p.Targets {
		for _, m := range []string{t.Begin, t.End} {
			if m != "" {
				markers = append(markers, m)
			}
		}
	}
	for name, v := range p.Vars {
		var raw any
		if f != nil {
			switch {
			case v.Scope == blocks.ScopeSession:
				raw = f.Session[name]
			case k >= 1 && k <= len(f.Turns):
				raw = f.Turns[k-1][name]
			}
		}
		val, _, err := templates.Prepare(v, raw, markers)
		if err != nil {
			continue // reported by rendering
		}
		out[name] = val
	}
	return out
}

// truthy is the truth of a when condition's variable, as rendering decides it: bool true, a non-empty string or
// list, a non-zero int.
func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case int:
		return v != 0
	case int64:
		return v != 0
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Map:
		return rv.Len() > 0
	}
	return true
}

// texts lists every string a prepared value holds (list items, record fields), in a fixed order, to find which
// value a line of output shows. Numbers count as their decimal text.
func texts(v any) []string {
	var out []string
	var walk func(reflect.Value)
	walk = func(rv reflect.Value) {
		switch rv.Kind() {
		case reflect.Interface, reflect.Pointer:
			if !rv.IsNil() {
				walk(rv.Elem())
			}
		case reflect.String:
			out = append(out, rv.String())
		case reflect.Int, reflect.Int64:
			out = append(out, fmt.Sprint(rv.Int()))
		case reflect.Slice, reflect.Array:
			for i := 0; i < rv.Len(); i++ {
				walk(rv.Index(i))
			}
		case reflect.Map:
			keys := rv.MapKeys()
			sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
			for _, k := range keys {
				walk(rv.MapIndex(k))
			}
		}
	}
	if v != nil {
		walk(reflect.ValueOf(v))
	}
	return out
}
