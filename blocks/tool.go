package blocks

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/source"
)

// Tool is a tool the agent may call, declared by a [[tool]] table in a blocks/ file. Provider projection sends the
// tools a task admits with each request (sorted by name, see ToolsFor); the template function tools renders them
// as text.
type Tool struct {
	// Name matches ^[A-Za-z0-9_-]{1,64}$ (what every provider accepts) and is unique across the project.
	Name        string
	Description string
	// Parameters is the JSON Schema (draft 2020-12) of the tool's arguments: an object schema, checked when the
	// project loads. Its values are JSON's: map[string]any, []any, string, bool, int64 (TOML integers), float64.
	Parameters map[string]any
	// Tasks and Except are the tool's gate, as a block's: Tasks is ["*"] when not set.
	Tasks, Except []string
	// Range is the [[tool]] header; Table is where the table and its keys are written.
	Range source.Range
	Table *Table
}

// DefaultParameters is the schema of a tool that sets no parameters: an object with no properties.
func DefaultParameters() map[string]any {
	return map[string]any{"type": "object", "properties": map[string]any{}}
}

// AdmitsTask reports whether the tool's gate (tasks and except) admits task.
func (t *Tool) AdmitsTask(task string) bool {
	if slices.Contains(t.Except, task) {
		return false
	}
	return slices.Contains(t.Tasks, "*") || slices.Contains(t.Tasks, task)
}

// SchemaJSON returns Parameters as canonical JSON: compact, object keys sorted, no HTML escaping, no final newline.
// The same schema always gives the same bytes, whatever the layout of its TOML source. The loader admits only
// values that JSON encodes; SchemaJSON panics on a Tool built by hand whose Parameters hold anything else (a
// function, a channel, a NaN).
func (t *Tool) SchemaJSON() []byte {
	b, err := CanonicalJSON(t.Parameters, "")
	if err != nil {
		panic("blocks: tool " + strconv.Quote(t.Name) + ": parameters are not JSON: " + err.Error())
	}
	return b
}

// CanonicalJSON encodes v as encoding/json does, with map keys sorted, but without HTML escaping and without the
// final newline, indented by indent ("" for compact) (provider.CanonicalJSON).
func CanonicalJSON(v any, indent string) ([]byte, error) { return provider.CanonicalJSON(v, indent) }

// ToolsFor returns the tools whose gate admits task, sorted by name: an order that does not depend on how the
// project's files are laid out, so that moving a [[tool]] between files never changes a request's bytes.
func (p *Project) ToolsFor(task string) []*Tool {
	var out []*Tool
	for _, t := range p.Tools {
		if t.AdmitsTask(task) {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b *Tool) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// The keys of a [[tool]] table, in the order they are read and listed in "known keys" hints.
var toolKeys = []key[*Tool]{
	{name: "name", kind: kindString, need: needText[*Tool](`[[tool]] needs a name: add name = "…" (letters, digits, '_' and '-', at most 64)`), set: setToolName},
	{name: "description", kind: kindString, need: func(t *Tool) string {
		return toolWhat(t) + ` needs a description: add description = "…" saying what the tool does and when to call it`
	}, set: func(r *tableReader, t *Tool, v value) {
		if strings.TrimSpace(v.str) == "" {
			r.errorf("description", "the description of %s is empty: say what the tool does and when to call it", toolWhat(t))
			return
		}
		t.Description = v.str
	}},
	{name: "parameters", kind: kindTable, set: setToolParameters},
	{name: "tasks", kind: kindStrings, set: func(r *tableReader, t *Tool, v value) {
		if len(v.list) == 0 {
			r.errorf("tasks", `tasks is empty, so %s would never be offered: list task kinds, or "*" for all`, toolWhat(t))
		}
		t.Tasks = v.list
		r.l.checkTaskNames(r, "tasks", v.list, true)
	}},
	{name: "except", kind: kindStrings, set: func(r *tableReader, t *Tool, v value) {
		t.Except = v.list
		r.l.checkTaskNames(r, "except", v.list, false)
	}},
}

func setTools(r *tableReader, l *loader, v value) {
	for i, m := range v.tables {
		l.tool(r, i, m)
	}
}

// tool reads the n-th [[tool]] of a blocks/ file.
func (l *loader) tool(parent *tableReader, n int, m map[string]any) {
	r := l.table(parent.file, parent.ix, "tool", n, "[[tool]]", m)
	t := &Tool{Tasks: []string{"*"}, Range: r.src.Header, Table: r.src}
	problems := len(l.diags)
	decode(r, t, toolKeys)
	if _, ok := m["parameters"]; !ok {
		t.Parameters = DefaultParameters()
	}
	if t.Name == "" {
		return
	}
	at := r.keyRange("name")
	if prev, dup := l.toolRange[t.Name]; dup {
		l.errorf(at, "tool %q is defined twice: here and at %s; tool names are unique across the project", t.Name, prev)
		return
	}
	l.toolRange[t.Name] = at
	// A tool with a problem is left out (the project is invalid anyway): every tool in Tools is whole.
	if len(l.diags) == problems {
		l.p.Tools = append(l.p.Tools, t)
	}
}

// toolWhat names a tool in messages: by its name, or as [[tool]] when it has none.
func toolWhat(t *Tool) string {
	if t.Name == "" {
		return "[[tool]]"
	}
	return "tool " + quoted(t.Name)
}

// MaxToolName is the longest tool name every provider accepts.
const MaxToolName = 64

func setToolName(r *tableReader, t *Tool, v value) {
	if !isToolName(v.str) {
		r.l.errorf(r.valueRange("name"), "tool name %q is not valid: tool names match ^[A-Za-z0-9_-]{1,64}$, which is what the providers' APIs accept", v.str)
		return
	}
	t.Name = v.str
	r.what = "tool " + quoted(v.str)
}

// isBareKey reports whether s can be written as a bare TOML key.
func isBareKey(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isBareKeyByte(int(s[i])) {
			return false
		}
	}
	return s != ""
}

// isToolName reports whether s matches ^[A-Za-z0-9_-]{1,64}$.
func isToolName(s string) bool {
	if s == "" || len(s) > MaxToolName {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// draft2020 is the $schema a tool's parameters may name: the draft they are compiled as.
const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// schemaBase is the URL a tool's parameters are compiled at. It is hierarchical, so that a relative $ref resolves
// to a URL (and is refused) rather than to the schema itself, and .invalid can never resolve (RFC 2606): nothing
// is ever fetched anyway, since the compiler's loader refuses every URL.
const schemaBase = "https://promptc.invalid/tools/"

// setToolParameters reads parameters: TOML mapped to JSON, an object schema, compiled as JSON Schema draft 2020-12.
func setToolParameters(r *tableReader, t *Tool, v value) {
	what := "the parameters schema of " + toolWhat(t)
	doc, path, err := tomlToJSON(v.table, nil)
	if err != nil {
		r.l.errorf(r.pathRange(append([]string{"parameters"}, path...)), "%s of %s %s", "parameters."+dotted(path), toolWhat(t), err)
		return
	}
	params := doc.(map[string]any)
	at := func() source.Range { return r.pathRange([]string{"parameters"}) } // found only for a diagnostic
	if typ, ok := params["type"]; !ok || typ != "object" {
		r.l.errorf(at(), `%s must describe an object: set type = "object" at its top level (a tool's arguments are a JSON object)`, what)
		return
	}
	if s, ok := params["$schema"]; ok && s != draft2020 && s != draft2020+"#" {
		r.l.errorf(at(), "%s names $schema %s, but promptc checks tool schemas as JSON Schema draft 2020-12: remove $schema, or set it to %q", what, describeSchemaValue(s), draft2020)
		return
	}
	if msg := checkToolSchema(t.Name, params); msg != "" {
		r.l.errorf(at(), "%s is not valid JSON Schema (draft 2020-12): %s", what, msg)
		return
	}
	t.Parameters = params
}

// describeSchemaValue names a value of a schema in a message: a string quoted, anything else by its kind.
func describeSchemaValue(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return DescribeValue(v)
}

// dotted writes a path of keys and array indexes ("[2]") as TOML would: a.b[2].c, quoting keys that are not bare.
func dotted(path []string) string {
	var b strings.Builder
	for i, p := range path {
		if strings.HasPrefix(p, "[") {
			b.WriteString(p)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		if isBareKey(p) {
			b.WriteString(p)
		} else {
			b.WriteString(strconv.Quote(p))
		}
	}
	return b.String()
}

// tomlToJSON maps a decoded TOML value to JSON's values: tables to map[string]any, arrays (arrays of tables too) to
// []any, strings, booleans, int64 and finite float64 as they are. A date or time, or a float that is not finite, is
// an error, returned with the path of keys (and array indexes) to the value.
func tomlToJSON(v any, path []string) (any, []string, error) {
	switch x := v.(type) {
	case string, bool, int64:
		return x, nil, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, path, fmt.Errorf("is %v, which is not a JSON number: write a finite number", x)
		}
		return x, nil, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for _, k := range sortedKeys(x) {
			e, at, err := tomlToJSON(x[k], append(slices.Clip(path), k))
			if err != nil {
				return nil, at, err
			}
			out[k] = e
		}
		return out, nil, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			j, at, err := tomlToJSON(e, append(slices.Clip(path), "["+strconv.Itoa(i)+"]"))
			if err != nil {
				return nil, at, err
			}
			out[i] = j
		}
		return out, nil, nil
	case []map[string]any:
		out := make([]any, len(x))
		for i, e := range x {
			j, at, err := tomlToJSON(e, append(slices.Clip(path), "["+strconv.Itoa(i)+"]"))
			if err != nil {
				return nil, at, err
			}
			out[i] = j
		}
		return out, nil, nil
	case time.Time:
		return nil, path, errors.New(`is a TOML date or time, which JSON has no type for: write it as a string ("2025-01-31")`)
	}
	return nil, path, fmt.Errorf("is %s, which is not a JSON value", DescribeValue(v))
}

// pathRange is where the value at path (keys relative to this table, array indexes as "[i]") is written: the key or
// the table header that names it within this occurrence of the table, else the nearest enclosing one that can be
// found, else the key path[0]. It costs a binary search per enclosing name, not a scan of the file's keys: a file
// of thousands of [[tool]] tables is read in time linear in its size.
func (r *tableReader) pathRange(path []string) source.Range {
	if i := slices.IndexFunc(path, func(p string) bool { return strings.HasPrefix(p, "[") }); i > 0 {
		path = path[:i] // the items of an array are not indexed by key: the array's key is as near as it gets
	}
	start, end := 0, len(r.file.Text)
	if r.n > 0 || r.name != "" {
		h, ok := r.ix.headerRange(r.name, r.n)
		if !ok {
			return r.keyRange(path[0])
		}
		start = h.Start.Byte
		if next, ok := r.ix.headerRange(r.name, r.n+1); ok {
			end = next.Start.Byte
		}
	}
	for n := len(path); n > 0; n-- {
		// The first key or header of that name written at or after start, if it is before end.
		rs := r.ix.named.get(r.ix, joinKey(r.name, strings.Join(path[:n], ".")))
		k, _ := slices.BinarySearchFunc(rs, start, func(rng source.Range, at int) int { return rng.Start.Byte - at })
		if k < len(rs) && rs[k].Start.Byte < end {
			return rs[k]
		}
	}
	return r.keyRange(path[0])
}

// namedRanges indexes the keys and table headers of a file by their full dotted name ("tool.parameters.type"),
// each name's ranges in the order written. It is built on first use, once per file.
type namedRanges struct {
	once sync.Once
	m    map[string][]source.Range
}

func (nr *namedRanges) get(ix *tomlIndex, name string) []source.Range {
	nr.once.Do(func() {
		nr.m = make(map[string][]source.Range, len(ix.keys)+len(ix.tables))
		for k, i := range ix.keys {
			full := joinKey(k.table.name, k.key)
			nr.m[full] = append(nr.m[full], ix.entries[i].Key)
		}
		for ref, rng := range ix.tables {
			nr.m[ref.name] = append(nr.m[ref.name], rng)
		}
		for _, rs := range nr.m {
			slices.SortFunc(rs, func(a, b source.Range) int { return a.Start.Byte - b.Start.Byte })
		}
	})
	return nr.m[name]
}
