package analysis

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/schema"
	"github.com/promptc/promptc/source"
)

// CompletionKind says what a completion inserts: a key of the table at the cursor, or the name of a block,
// constant, lookup table, variable, record field, function, task, template or fixture.
type CompletionKind uint8

// The kinds of completion.
const (
	CompleteKey CompletionKind = iota + 1
	CompleteBlock
	CompleteConst
	CompleteLookup
	CompleteVar
	CompleteField
	CompleteFunction
	CompleteTask
	CompleteTemplate
	CompleteFixture
)

// Completion is one candidate: Label is inserted in place of Range (the partial word before the cursor).
type Completion struct {
	Label  string
	Kind   CompletionKind
	Detail string
	Doc    string
	Range  source.Range
}

var (
	callArg    = regexp.MustCompile(`\b(const|lookup|ref|title|dropped)\s+"([^"]*)$`)
	dotName    = regexp.MustCompile(`(^|[^A-Za-z0-9_\])])\$?\.([A-Za-z0-9_]*)$`)
	identPart  = regexp.MustCompile(`[A-Za-z0-9_]*$`)
	keyValue   = regexp.MustCompile(`^\s*([A-Za-z0-9_.-]+)\s*=\s*(.*)$`)
	openString = regexp.MustCompile(`["']([^"']*)$`)
	bareKey    = regexp.MustCompile(`^\s*([A-Za-z0-9_-]*)$`)
	header     = regexp.MustCompile(`^\s*\[\[?\s*([^\]]*?)\s*\]\]?`)
	arrayOpen  = regexp.MustCompile(`^\s*([A-Za-z0-9_-]+)\s*=\s*\[`)
)

// Complete returns the candidates at byte off of file name, by where the cursor is: inside a template action the
// constants, lookup tables, block ids or variables a function call or a .name takes, or the functions; in a TOML
// string value the block ids, tasks, variables, templates or fixtures its key takes; at the start of a TOML line the
// keys of the table it is in (from the JSON Schemas, which a test keeps in step with the loader's key tables).
func (s *Snapshot) Complete(name string, off int) []Completion {
	f := s.Files[name]
	if f == nil {
		return nil
	}
	off = max(0, min(off, len(f.Text)))
	line := f.Text[strings.LastIndexByte(f.Text[:off], '\n')+1 : off]
	rng := func(partial string) source.Range { return f.Range(off-len(partial), off) }
	if open, ok := actionAt(f.Text, off); ok {
		act := f.Text[open:off]
		if m := callArg.FindStringSubmatch(act); m != nil {
			return s.names(callKind(m[1]), rng(m[2]))
		}
		if m := dotName.FindStringSubmatch(act); m != nil {
			out := s.names(CompleteVar, rng(m[2]))
			out = append(out, Completion{Label: "task", Kind: CompleteVar, Detail: "the task being rendered", Range: rng(m[2])})
			return append(out, s.names(CompleteField, rng(m[2]))...)
		}
		partial := identPart.FindString(act)
		var out []Completion
		for _, fn := range Functions() {
			out = append(out, Completion{Label: fn.Name, Kind: CompleteFunction, Detail: fn.Signature, Doc: fn.Doc, Range: rng(partial)})
		}
		return out
	}
	if !strings.HasSuffix(name, ".toml") {
		return nil
	}
	if m := keyValue.FindStringSubmatch(line); m != nil {
		if sm := openString.FindStringSubmatch(m[2]); sm != nil {
			partial := sm[1]
			if m[1] == "when" {
				partial = condPart(partial) // complete the variable being typed, not the whole condition
			}
			return s.valuesFor(m[1], rng(partial))
		}
		return nil
	}
	if key := openArray(f.Text, off); key != "" {
		if sm := openString.FindStringSubmatch(line); sm != nil {
			return s.valuesFor(key, rng(sm[1]))
		}
		return nil
	}
	if m := bareKey.FindStringSubmatch(line); m != nil {
		path := tableAt(f.Text, off)
		if kindOf(name) == schema.Fixture {
			if out, ok := s.fixtureKeys(path, rng(m[1])); ok {
				if path == "turn" {
					out = append(out, keysFor(schema.Fixture, path, rng(m[1]))...) // assistant and after
				}
				return out
			}
		}
		return keysFor(kindOf(name), path, rng(m[1]))
	}
	return nil
}

// fixtureKeys lists the keys a fixture's table at path takes from the project's declarations: in [session] the
// session variables, in a [[turn]] the turn variables, and in a table of a record or records value
// ([[session.repos]], [session.resources.ref], [[turn.changed]]) the fields declared for that part of the value. ok
// is false for the other tables, whose keys the schema gives.
func (s *Snapshot) fixtureKeys(path string, r source.Range) (out []Completion, ok bool) {
	parts := strings.Split(path, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	var scope blocks.Scope
	switch parts[0] {
	case "session":
		scope = blocks.ScopeSession
	case "turn":
		scope = blocks.ScopeTurn
	default:
		return nil, false
	}
	if len(parts) == 1 {
		for _, n := range sortedKeys(s.Project.Vars) {
			if v := s.Project.Vars[n]; v.Scope == scope {
				out = append(out, Completion{Label: n, Kind: CompleteVar, Detail: v.Scope.String() + " " + v.Type.String(), Range: r})
			}
		}
		return out, true
	}
	v := s.Project.Vars[parts[1]]
	named := v != nil && v.Key != "" // the next part names a record of keyed records, not a field
	for _, p := range parts[2:] {
		if v == nil {
			break
		}
		if named {
			named = false
			continue
		}
		v = v.Field(p)
		named = v != nil && v.Key != ""
	}
	if v == nil || named {
		return nil, true // not a declared variable or field, or a table of keyed records by name: nothing fits
	}
	for _, f := range v.Fields {
		if f.Name == v.Key {
			continue // a keyed record's name is its key in the table
		}
		out = append(out, Completion{Label: f.Name, Kind: CompleteField, Detail: fmt.Sprintf("%s field of %s", f.Type, strings.Join(parts[1:], ".")), Range: r})
	}
	return out, true
}

func callKind(fn string) CompletionKind {
	switch fn {
	case "const":
		return CompleteConst
	case "lookup":
		return CompleteLookup
	case "dropped":
		return CompleteVar
	}
	return CompleteBlock
}

// condPart returns the end of a when condition being typed that a completion replaces: the variable name after the
// last operator or parenthesis, with a "!" just before it ("a && !re" gives "!re").
func condPart(typed string) string {
	i := len(typed)
	for i > 0 && (typed[i-1] >= 'a' && typed[i-1] <= 'z' || typed[i-1] >= '0' && typed[i-1] <= '9' || typed[i-1] == '_') {
		i--
	}
	for i > 0 && typed[i-1] == '!' {
		i--
	}
	return typed[i:]
}

// valuesFor lists what the string value of key may be.
func (s *Snapshot) valuesFor(key string, r source.Range) []Completion {
	switch key[strings.LastIndexByte(key, '.')+1:] {
	case "order", "replaces", "ref", "block":
		return s.names(CompleteBlock, r)
	case "tasks", "except", "required":
		out := []Completion{{Label: "*", Kind: CompleteTask, Detail: "every task", Range: r}}
		for _, t := range s.Project.Tasks {
			out = append(out, Completion{Label: t, Kind: CompleteTask, Detail: "task", Range: r})
		}
		return out
	case "when":
		out := s.names(CompleteVar, r)
		for _, c := range s.names(CompleteVar, r) {
			c.Label = "!" + c.Label
			c.Detail = "not " + c.Detail
			out = append(out, c)
		}
		return out
	case "template":
		return s.names(CompleteTemplate, r)
	case "extends":
		return s.names(CompleteFixture, r)
	}
	return nil
}

// names lists the defined names of one kind.
func (s *Snapshot) names(kind CompletionKind, r source.Range) []Completion {
	p := s.Project
	var out []Completion
	switch kind {
	case CompleteBlock:
		for _, id := range sortedKeys(p.ByID) {
			b := p.ByID[id]
			out = append(out, Completion{Label: id, Kind: kind, Detail: b.Heading(), Doc: fmt.Sprintf("%s block, %s", b.Section, b.Range), Range: r})
		}
	case CompleteConst, CompleteLookup:
		for _, n := range sortedKeys(p.Consts) {
			c := p.Consts[n]
			if (c.Lookup != nil) != (kind == CompleteLookup) {
				continue
			}
			out = append(out, Completion{Label: n, Kind: kind, Detail: clip(c.Value, 60), Doc: c.Value, Range: r})
		}
	case CompleteVar:
		for _, n := range sortedKeys(p.Vars) {
			v := p.Vars[n]
			out = append(out, Completion{Label: n, Kind: kind, Detail: v.Scope.String() + " " + v.Type.String(), Range: r})
		}
	case CompleteField:
		for _, n := range sortedKeys(p.Vars) {
			for _, f := range p.Vars[n].Fields {
				out = append(out, Completion{Label: f.Name, Kind: kind, Detail: fmt.Sprintf("%s field of %s", f.Type, n), Range: r})
			}
		}
	case CompleteTemplate:
		for _, n := range sortedKeys(p.Templates) {
			out = append(out, Completion{Label: n, Kind: kind, Detail: "templates/" + n, Range: r})
		}
	case CompleteFixture:
		for _, f := range p.Fixtures {
			if !f.Implicit {
				out = append(out, Completion{Label: f.Name, Kind: kind, Detail: f.Range.Filename, Range: r})
			}
		}
	}
	return out
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// kindOf is the schema of a source file.
func kindOf(name string) schema.FileKind {
	switch {
	case name == blocks.ManifestFile:
		return schema.Manifest
	case strings.HasPrefix(name, "fixtures/"):
		return schema.Fixture
	}
	return schema.Blocks
}

// tableAt returns the header of the TOML table holding byte off of text, as its dotted path ("" for the root).
func tableAt(text string, off int) string {
	lines := strings.Split(text[:off], "\n")
	for i := len(lines) - 2; i >= 0; i-- {
		if m := header.FindStringSubmatch(lines[i]); m != nil {
			return m[1]
		}
	}
	return ""
}

// openArray returns the key of the array value that byte off of text is inside, when the array spans lines.
func openArray(text string, off int) string {
	lines := strings.Split(text[:off], "\n")
	depth := 0
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if j := strings.IndexByte(l, '#'); j >= 0 && !strings.ContainsAny(l[:j], `"'`) {
			l = l[:j]
		}
		depth += strings.Count(l, "]") - strings.Count(l, "[")
		if depth < 0 {
			if m := arrayOpen.FindStringSubmatch(l); m != nil {
				return m[1]
			}
			return ""
		}
		if i < len(lines)-1 && header.MatchString(l) {
			return ""
		}
	}
	return ""
}

type schemaNode struct {
	Ref         string                 `json:"$ref"`
	Description string                 `json:"description"`
	Properties  map[string]*schemaNode `json:"properties"`
	Additional  json.RawMessage        `json:"additionalProperties"`
	Items       *schemaNode            `json:"items"`
	Defs        map[string]*schemaNode `json:"$defs"`
}

var schemas = sync.OnceValue(func() map[schema.FileKind]*schemaNode {
	out := map[schema.FileKind]*schemaNode{}
	for _, k := range schema.FileKinds {
		data, err := schema.Get(k)
		if err != nil {
			continue
		}
		var n schemaNode
		if json.Unmarshal(data, &n) == nil {
			out[k] = &n
		}
	}
	return out
})

// keysFor lists the keys of the table at dotted path of a file of kind, with their descriptions.
func keysFor(kind schema.FileKind, path string, r source.Range) []Completion {
	root := schemas()[kind]
	if root == nil {
		return nil
	}
	resolve := func(n *schemaNode) *schemaNode {
		for i := 0; n != nil && n.Ref != "" && i < 8; i++ {
			def := strings.TrimPrefix(n.Ref, "#/$defs/")
			n = root.Defs[def]
		}
		for n != nil && n.Items != nil && n.Properties == nil {
			n = n.Items
			for i := 0; n != nil && n.Ref != "" && i < 8; i++ {
				n = root.Defs[strings.TrimPrefix(n.Ref, "#/$defs/")]
			}
		}
		return n
	}
	n := resolve(root)
	if path != "" {
		for _, seg := range strings.Split(path, ".") {
			if n == nil {
				return nil
			}
			seg = strings.Trim(strings.TrimSpace(seg), `"'`)
			if c, ok := n.Properties[seg]; ok {
				n = resolve(c)
				continue
			}
			var add schemaNode
			if len(n.Additional) == 0 || json.Unmarshal(n.Additional, &add) != nil {
				return nil
			}
			n = resolve(&add)
		}
	}
	if n == nil {
		return nil
	}
	names := make([]string, 0, len(n.Properties))
	for k := range n.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]Completion, 0, len(names))
	for _, k := range names {
		out = append(out, Completion{Label: k, Kind: CompleteKey, Detail: "key", Doc: n.Properties[k].Description, Range: r})
	}
	return out
}
