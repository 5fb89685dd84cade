package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/BurntSushi/toml"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/keytables"
	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/schema"
	"github.com/promptc/promptc/values"
)

// owners says where each key table of the loader is in the schemas: the schema of kind at JSON pointer ptr lists
// exactly the table's keys as its properties. A new key table must be added here (TestSchemaKeys fails until it is).
var owners = map[string]struct {
	kind schema.FileKind
	ptr  string
}{
	"manifestKeys":  {schema.Manifest, ""},
	"sectionKeys":   {schema.Manifest, "/$defs/section"},
	"varKeys":       {schema.Manifest, "/$defs/var"},
	"fieldKeys":     {schema.Manifest, "/$defs/field"},
	"targetKeys":    {schema.Manifest, "/$defs/target"},
	"lintKeys":      {schema.Manifest, "/$defs/lint"},
	"allowKeys":     {schema.Manifest, "/$defs/allow"},
	"historyKeys":   {schema.Manifest, "/$defs/history"},
	"modelKeys":     {schema.Manifest, "/$defs/model"},
	"trafficKeys":   {schema.Manifest, "/$defs/traffic"},
	"blockFileKeys": {schema.Blocks, ""},
	"blockKeys":     {schema.Blocks, "/$defs/block"},
	"toolKeys":      {schema.Blocks, "/$defs/tool"},
	"fixtureKeys":   {schema.Fixture, ""},
	// A fixture's [[turn]] holds turn variables and one key of its own, read outside the key tables.
	"turnKeys": {schema.Fixture, "/$defs/turn"},
}

// open tables are the tables whose other keys are names (variables), not unknown keys.
var open = map[string]bool{"turnKeys": true}

func load(t *testing.T, kind schema.FileKind) map[string]any {
	t.Helper()
	b, err := schema.Get(kind)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", kind.File(), err)
	}
	return doc
}

// at returns the schema at JSON pointer ptr of doc ("" is the root).
func at(doc map[string]any, ptr string) (map[string]any, bool) {
	cur := any(doc)
	for _, p := range strings.Split(ptr, "/")[1:] {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur = m[p]
	}
	m, ok := cur.(map[string]any)
	return m, ok
}

// propertyMaps calls f for every "properties" keyword in v, with the JSON pointer of the schema holding it.
func propertyMaps(v any, ptr string, f func(ptr string, props map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if k == "properties" {
				if props, ok := v[k].(map[string]any); ok {
					f(ptr, props)
				}
			}
			propertyMaps(v[k], ptr+"/"+k, f)
		}
	case []any:
		for i, e := range v {
			propertyMaps(e, ptr+"/"+strconv.Itoa(i), f)
		}
	}
}

// TestSchemaKeys keeps the schemas and the loader in step: every key table of the loader is the property list of
// one schema object, with exactly the loader's keys, and every property any schema names (conditional ones
// included) is a key of the table that owns that part of the schema.
func TestSchemaKeys(t *testing.T) {
	loader, err := keytables.Read(filepath.Join("..", "blocks"))
	if err != nil {
		t.Fatal(err)
	}
	loader["turnKeys"] = []string{blocks.ReplyKey, blocks.AfterKey}
	docs := map[schema.FileKind]map[string]any{}
	for _, k := range schema.FileKinds {
		docs[k] = load(t, k)
	}
	for _, name := range slices.Sorted(maps.Keys(loader)) {
		o, ok := owners[name]
		if !ok {
			t.Errorf("the loader has a key table %s (%v) that no schema holds: add it to a schema and to owners", name, loader[name])
			continue
		}
		s, ok := at(docs[o.kind], o.ptr)
		if !ok {
			t.Errorf("%s: no schema at #%s for %s", o.kind.File(), o.ptr, name)
			continue
		}
		props, _ := s["properties"].(map[string]any)
		got := slices.Sorted(maps.Keys(props))
		want := slices.Sorted(slices.Values(loader[name]))
		for _, k := range want {
			if !slices.Contains(got, k) {
				t.Errorf("%s#%s: key %q of %s is accepted by the loader but missing from the schema", o.kind.File(), o.ptr, k, name)
			}
		}
		for _, k := range got {
			if !slices.Contains(want, k) {
				t.Errorf("%s#%s: property %q is not a key of %s, which the loader reads there", o.kind.File(), o.ptr, k, name)
			}
		}
		if ap, ok := s["additionalProperties"].(bool); !open[name] && (!ok || ap) {
			t.Errorf("%s#%s: the loader rejects unknown keys of %s: set additionalProperties to false", o.kind.File(), o.ptr, name)
		}
	}
	for name := range owners {
		if _, ok := loader[name]; !ok {
			t.Errorf("owners names %s, which is not a key table of the loader", name)
		}
	}
	// Conditional subschemas (if/then, dependentSchemas) name properties too: each must be a key of the table that
	// owns the part of the schema it is in, the one at the longest pointer that is a prefix of its own.
	for _, kind := range schema.FileKinds {
		propertyMaps(docs[kind], "", func(ptr string, props map[string]any) {
			owner, best := "", -1
			for name, o := range owners {
				if o.kind == kind && (ptr == o.ptr || strings.HasPrefix(ptr, o.ptr+"/")) && len(o.ptr) > best {
					owner, best = name, len(o.ptr)
				}
			}
			if ptr == owners[owner].ptr {
				return // compared with the whole table above
			}
			for k := range props {
				if !slices.Contains(loader[owner], k) {
					t.Errorf("%s#%s: property %q is not a key of %s, which the loader reads there", kind.File(), ptr, k, owner)
				}
			}
		})
	}
}

// TestSchemaDescriptions: every key has a description, which editors show on hover.
func TestSchemaDescriptions(t *testing.T) {
	for _, kind := range schema.FileKinds {
		doc := load(t, kind)
		if d, _ := doc["description"].(string); d == "" {
			t.Errorf("%s has no description", kind.File())
		}
		for name, o := range owners {
			if o.kind != kind {
				continue
			}
			s, _ := at(doc, o.ptr)
			props, _ := s["properties"].(map[string]any)
			for k, p := range props {
				ps, ok := p.(map[string]any)
				if !ok {
					t.Errorf("%s#%s/properties/%s (%s) is not a schema object", kind.File(), o.ptr, k, name)
					continue
				}
				if d, _ := ps["description"].(string); strings.TrimSpace(d) == "" {
					t.Errorf("%s#%s/properties/%s has no description", kind.File(), o.ptr, k)
				}
			}
		}
	}
}

// compile compiles the schema of kind as draft 2020-12, checking it against the meta-schema.
func compile(t *testing.T, kind schema.FileKind) *jsonschema.Schema {
	t.Helper()
	b, err := schema.Get(kind)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "https://github.com/promptc/promptc/schema/" + kind.File()
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: %v", kind.File(), err)
	}
	return s
}

// instance decodes TOML into the values a JSON Schema validator reads: tables as map[string]any, arrays as []any.
func instance(t *testing.T, src string) any {
	t.Helper()
	var m map[string]any
	if _, err := toml.Decode(src, &m); err != nil {
		t.Fatal(err)
	}
	return jsonValue(m)
}

func jsonValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = jsonValue(e)
		}
		return out
	case []map[string]any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = jsonValue(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = jsonValue(e)
		}
		return out
	}
	return v
}

// kindOf says which schema a source file of a project follows, by its path relative to the project root.
func kindOf(rel string) schema.FileKind {
	switch {
	case rel == blocks.ManifestFile:
		return schema.Manifest
	case strings.HasPrefix(rel, "blocks/"):
		return schema.Blocks
	}
	return schema.Fixture
}

// projectFiles lists the TOML source files of the project at root: promptc.toml, blocks/**/*.toml, fixtures/*.toml.
func projectFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{blocks.ManifestFile}
	err := filepath.WalkDir(filepath.Join(root, "blocks"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".toml") {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	fixtures, _ := filepath.Glob(filepath.Join(root, "fixtures", "*.toml"))
	for _, f := range fixtures {
		files = append(files, "fixtures/"+filepath.Base(f))
	}
	return files
}

// TestExamplesValidate: every source file of every example project, and of the project promptc init writes,
// validates against its schema.
func TestExamplesValidate(t *testing.T) {
	schemas := map[schema.FileKind]*jsonschema.Schema{}
	for _, k := range schema.FileKinds {
		schemas[k] = compile(t, k)
	}
	roots, _ := filepath.Glob(filepath.Join("..", "examples", "*"))
	roots = append(roots, filepath.Join("..", "scaffold", "project"))
	n := 0
	for _, root := range roots {
		if _, err := os.Stat(filepath.Join(root, blocks.ManifestFile)); err != nil {
			continue
		}
		for _, rel := range projectFiles(t, root) {
			src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
			if err != nil {
				t.Fatal(err)
			}
			if err := schemas[kindOf(rel)].Validate(instance(t, string(src))); err != nil {
				t.Errorf("%s/%s: %v", root, rel, err)
			}
			n++
		}
	}
	if n < 10 {
		t.Errorf("validated only %d files", n)
	}
}

// TestBadFiles: files the loader rejects are rejected by the schemas too, at the key that is wrong.
func TestBadFiles(t *testing.T) {
	const manifest = "name = \"x\"\ntasks = [\"chat\"]\n"
	tests := []struct {
		name string
		kind schema.FileKind
		src  string
		// want is in the validation error: where it is, and the key it names.
		want string
	}{
		{name: "unknown manifest key", kind: schema.Manifest, src: manifest + "taks = 1\n", want: "additional properties 'taks' not allowed"},
		{name: "missing tasks", kind: schema.Manifest, src: "name = \"x\"\n", want: "at ''"},
		{name: "bad task name", kind: schema.Manifest, src: "name = \"x\"\ntasks = [\"Chat\"]\n", want: "at '/tasks/0'"},
		{name: "unknown runbook key", kind: schema.Manifest, src: manifest + "[runbook]\nordre = []\n", want: "at '/runbook': additional properties 'ordre'"},
		{name: "bad scope", kind: schema.Manifest, src: manifest + "[vars.a]\nscope = \"sesion\"\ntype = \"string\"\n", want: "at '/vars/a/scope'"},
		{name: "bad type", kind: schema.Manifest, src: manifest + "[vars.a]\nscope = \"turn\"\ntype = \"str\"\n", want: "at '/vars/a/type'"},
		{name: "bad trust", kind: schema.Manifest, src: manifest + "[vars.a]\nscope = \"turn\"\ntype = \"text\"\ntrust = \"safe\"\n", want: "at '/vars/a/trust'"},
		{name: "bad overflow", kind: schema.Manifest, src: manifest + "[vars.a]\nscope = \"turn\"\ntype = \"text\"\noverflow = \"drop\"\n", want: "at '/vars/a/overflow'"},
		{name: "max_runes of the wrong type", kind: schema.Manifest, src: manifest + "[vars.a]\nscope = \"turn\"\ntype = \"text\"\nmax_runes = \"10\"\n", want: "at '/vars/a/max_runes'"},
		{name: "list key on a string", kind: schema.Manifest, src: manifest + "[vars.a]\nscope = \"turn\"\ntype = \"string\"\nmax_items = 3\n", want: "at '/vars/a/max_items'"},
		{name: "unknown variable key", kind: schema.Manifest, src: manifest + "[vars.a]\nscope = \"turn\"\ntype = \"string\"\nmax_rune = 3\n", want: "at '/vars/a': additional properties 'max_rune'"},
		{name: "reserved variable name", kind: schema.Manifest, src: manifest + "[vars.task]\nscope = \"turn\"\ntype = \"string\"\n", want: "invalid propertyName 'task'"},
		{name: "unknown field key", kind: schema.Manifest, src: manifest + "[vars.r]\nscope = \"turn\"\ntype = \"records\"\n[vars.r.fields.u]\ntype = \"string\"\nscope = \"turn\"\n", want: "at '/vars/r/fields/u': additional properties 'scope'"},
		{name: "final_newline not a bool", kind: schema.Manifest, src: manifest + "final_newline = \"no\"\n", want: "at '/final_newline'"},
		{name: "turn final_newline not a bool", kind: schema.Manifest, src: manifest + "[turn]\nfinal_newline = 0\n", want: "at '/turn/final_newline'"},
		{name: "verbatim on an untrusted value", kind: schema.Manifest, src: manifest + "[vars.a]\nscope = \"turn\"\ntype = \"text\"\ntrust = \"untrusted\"\nverbatim = true\n", want: "at '/vars/a/trust'"},
		{name: "keep_newlines with trim", kind: schema.Manifest, src: manifest + "[vars.a]\nscope = \"turn\"\ntype = \"text\"\ntrust = \"trusted\"\ntrim = true\nkeep_newlines = true\n", want: "at '/vars/a'"},
		{name: "keep_newlines on a background value", kind: schema.Manifest, src: manifest + "[vars.a]\nscope = \"turn\"\ntype = \"text\"\ntrust = \"background\"\nkeep_newlines = true\n", want: "at '/vars/a/trust'"},
		{name: "bad quote_empty", kind: schema.Manifest, src: manifest + "[vars.a]\nscope = \"turn\"\ntype = \"text\"\ntrust = \"background\"\nquote_empty = \">>\"\n", want: "at '/vars/a/quote_empty'"},
		{name: "unknown without decode", kind: schema.Manifest, src: manifest + "[vars.r]\nscope = \"turn\"\ntype = \"record\"\nunknown = \"ignore\"\n[vars.r.fields.u]\ntype = \"string\"\n", want: "at '/vars/r'"},
		{name: "key on a list", kind: schema.Manifest, src: manifest + "[vars.a]\nscope = \"turn\"\ntype = \"list\"\nkey = \"name\"\n", want: "at '/vars/a/type'"},
		{name: "raw with invalid", kind: schema.Manifest, src: manifest + "[vars.r]\nscope = \"turn\"\ntype = \"records\"\n[vars.r.fields.m]\ntype = \"record\"\ndecode = \"json\"\ninvalid = \"empty\"\nraw = \"t\"\n[vars.r.fields.m.fields.u]\ntype = \"string\"\n[vars.r.fields.t]\ntype = \"text\"\n", want: "at '/vars/r/fields/m/invalid'"},
		{name: "target without end", kind: schema.Manifest, src: manifest + "[[target]]\nname = \"c\"\nfile = \"C.md\"\nbegin = \"<!-- B -->\"\n", want: "at '/target/0'"},
		{name: "bad provider", kind: schema.Manifest, src: manifest + "[[model]]\nprovider = \"anthropik\"\nname = \"m\"\n", want: "at '/model/0/provider'"},
		{name: "unknown block key", kind: schema.Blocks, src: "[[block]]\nid = \"a\"\nbody = \"x\"\ntitel = \"A\"\n", want: "at '/block/0': additional properties 'titel'"},
		{name: "bad block id", kind: schema.Blocks, src: "[[block]]\nid = \"A b\"\nbody = \"x\"\n", want: "at '/block/0/id'"},
		{name: "level out of range", kind: schema.Blocks, src: "[[block]]\nid = \"a\"\nbody = \"x\"\nlevel = 7\n", want: "at '/block/0/level'"},
		{name: "body and template", kind: schema.Blocks, src: "[[block]]\nid = \"a\"\nbody = \"x\"\ntemplate = \"a.md\"\n", want: "at '/block/0/template'"},
		{name: "bad tool name", kind: schema.Blocks, src: "[[tool]]\nname = \"a b\"\ndescription = \"d\"\n", want: "at '/tool/0/name'"},
		{name: "lookup entry not a string", kind: schema.Blocks, src: "[const.t]\na = 1\n", want: "at '/const/t/a'"},
		{name: "unknown fixture key", kind: schema.Fixture, src: "sesion = {}\n", want: "additional properties 'sesion' not allowed"},
		{name: "turn value of the wrong type", kind: schema.Fixture, src: "[[turn]]\nissue = 1.5\n", want: "at '/turn/0/issue'"},
		{name: "assistant not a string", kind: schema.Fixture, src: "[[turn]]\nassistant = 1\n", want: "at '/turn/0/assistant'"},
		{name: "after not a duration", kind: schema.Fixture, src: "[[turn]]\nafter = \"soon\"\n", want: "at '/turn/0/after'"},
	}
	schemas := map[schema.FileKind]*jsonschema.Schema{}
	for _, k := range schema.FileKinds {
		schemas[k] = compile(t, k)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := schemas[tt.kind].Validate(instance(t, tt.src))
			if _, ok := errors.AsType[*jsonschema.ValidationError](err); !ok {
				t.Fatalf("%s accepts\n%s", tt.kind.File(), tt.src)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("the error does not say %q:\n%v", tt.want, err)
			}
			// The loader rejects it too: the schema is no stricter than promptc.
			if tt.kind == schema.Manifest {
				if _, diags := blocks.Load(fstest.MapFS{blocks.ManifestFile: {Data: []byte(tt.src)}}); len(diags) == 0 {
					t.Errorf("the loader accepts what the schema rejects:\n%s", tt.src)
				}
			}
		})
	}
}

func TestGetUnknown(t *testing.T) {
	_, err := schema.Get("manifests")
	if want := `no schema "manifests" (did you mean "manifest"?): the schemas are manifest, blocks, fixture`; err == nil || err.Error() != want {
		t.Errorf("Get(manifests) = %v, want %s", err, want)
	}
}

// TestSchemaProviders: the manifest schema's [[model]] provider enum is the loader's list of providers, in order, so
// an editor validating with the schema accepts every provider the loader does (bedrock, gemini and deepseek were once
// missing here).
func TestSchemaProviders(t *testing.T) {
	doc := load(t, schema.Manifest)
	defs := doc["$defs"].(map[string]any)
	props := defs["model"].(map[string]any)["properties"].(map[string]any)
	var got []string
	for _, p := range props["provider"].(map[string]any)["enum"].([]any) {
		got = append(got, p.(string))
	}
	if !slices.Equal(got, provider.Names()) {
		t.Errorf("schema providers %q, loader's %q", got, provider.Names())
	}
}

// TestGoodOptions: a manifest that uses the keys for a platform's own bytes (final_newline, verbatim,
// keep_newlines, quote_empty, unknown, raw, key) validates against the schema, and the loader accepts it: the
// schema is no stricter than promptc.
func TestGoodOptions(t *testing.T) {
	const src = `name = "x"
tasks = ["chat"]
final_newline = false

[runbook]
order = ["a"]
final_newline = true

[turn]
order = []
final_newline = false

[vars.message]
scope = "turn"
type = "text"
trust = "trusted"
verbatim = true
keep_newlines = true

[vars.context]
scope = "session"
type = "text"
trust = "background"
quote_empty = "> "

[vars.hosts]
scope = "session"
type = "records"
key = "name"
decode = "json"
unknown = "ignore"
[vars.hosts.fields.name]
type = "string"
trust = "trusted"
[vars.hosts.fields.meta]
type = "record"
decode = "json"
unknown = "ignore"
raw = "meta_text"
[vars.hosts.fields.meta.fields.url]
type = "string"
[vars.hosts.fields.meta_text]
type = "text"
trust = "background"
quote_empty = "> "
`
	if err := compile(t, schema.Manifest).Validate(instance(t, src)); err != nil {
		t.Errorf("the schema rejects it: %v", err)
	}
	fsys := fstest.MapFS{
		blocks.ManifestFile: {Data: []byte(src)},
		"blocks/a.toml":     {Data: []byte("[[block]]\nid = \"a\"\nbody = \"{{.context}}{{range .hosts}}{{.name}}{{.meta.url}}{{.meta_text}}{{end}}\"\n")},
	}
	if _, diags := values.Load(fsys); len(diags) > 0 {
		t.Errorf("the loader rejects it:\n%s", diags)
	}
}
