package blocks

// The tool schema check against the JSON Schema library promptc used to compile tool schemas with: the two agree on
// which schemas are valid, and on the message when there is one problem.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/promptc/promptc/source"
)

// noFetch is the schema compiler's loader: promptc reads nothing but the project, so a $ref to any other document
// (a URL, a file, a relative path) is an error, never a download.
type noFetch struct{}

func (noFetch) Load(string) (any, error) { return nil, errNoFetch }

var errNoFetch = errors.New("promptc never fetches schemas")

// compileSchema compiles params as JSON Schema draft 2020-12 and returns what is wrong with it, or "".
func libraryCheck(name string, params map[string]any) string {
	// The compiler reads JSON as encoding/json decodes it with UseNumber; a round trip gives it exactly that.
	data, err := CanonicalJSON(params, "")
	if err != nil {
		return err.Error()
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err.Error()
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noFetch{})
	url := schemaBase + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return err.Error()
	}
	_, err = c.Compile(url)
	if err == nil {
		return ""
	}
	return schemaError(err, url)
}

// schemaError words a compile error of the schema compiler for a diagnostic: where in the schema (a JSON pointer),
// what is wrong, and what to do.
func schemaError(err error, url string) string {
	var load *jsonschema.LoadURLError
	if errors.As(err, &load) {
		ref := strings.TrimPrefix(load.URL, schemaBase)
		return fmt.Sprintf("it refers to %q, outside itself, and promptc never fetches schemas: define the subschema under $defs and refer to it as \"#/$defs/NAME\"", ref)
	}
	var missing *jsonschema.JSONPointerNotFoundError
	if errors.As(err, &missing) {
		ref := strings.TrimPrefix(missing.URL, url)
		return fmt.Sprintf("$ref %q points at nothing in the schema: define what it names (under $defs), or correct the reference", ref)
	}
	var sve *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	if errors.As(err, &sve) && errors.As(sve.Err, &ve) {
		leaf := firstLeaf(ve)
		var at strings.Builder
		for _, p := range leaf.InstanceLocation {
			at.WriteByte('/')
			at.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
		}
		msg := leaf.ErrorKind.LocalizedString(message.NewPrinter(language.English))
		where := "at the top level"
		if at.Len() > 0 {
			where = "at " + source.QuoteName(at.String())
		}
		return fmt.Sprintf("%s: %s; fix it so the schema validates against the draft 2020-12 meta-schema", where, msg)
	}
	return strings.ReplaceAll(err.Error(), url, "") + "; correct the schema"
}

// firstLeaf returns the first error of ve's tree that has no causes: the most specific one.
func firstLeaf(ve *jsonschema.ValidationError) *jsonschema.ValidationError {
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	return ve
}

// randomSchema builds a schema of depth at most depth from r: keywords of every vocabulary with values of the right
// type and of wrong ones, references inside and outside the schema.
func randomSchema(r *rand.Rand, depth int) any {
	if depth == 0 || r.IntN(6) == 0 {
		switch r.IntN(4) {
		case 0:
			return r.IntN(2) == 0
		case 1:
			return map[string]any{}
		}
		return map[string]any{"type": pick(r, "string", "integer", "object")}
	}
	s := map[string]any{}
	for range 1 + r.IntN(3) {
		k := pick(r, schemaKeywordNames...)
		s[k] = randomValue(r, k, depth-1)
	}
	return s
}

var schemaKeywordNames = []string{"type", "properties", "items", "prefixItems", "allOf", "anyOf", "not", "$defs",
	"definitions", "$ref", "$dynamicRef", "$id", "$anchor", "required", "minLength", "maxItems", "multipleOf",
	"minimum", "pattern", "patternProperties", "enum", "const", "title", "uniqueItems", "dependencies",
	"dependentRequired", "$vocabulary", "$comment", "format", "additionalProperties", "if", "then", "examples",
	"x-custom", "contentSchema", "$schema"}

func pick(r *rand.Rand, xs ...string) string { return xs[r.IntN(len(xs))] }

func randomValue(r *rand.Rand, k string, depth int) any {
	if r.IntN(8) == 0 { // a value of any type, often the wrong one
		return []any{"x", json.Number("-1"), json.Number("1.5"), true, nil, []any{}, map[string]any{}, "(?<x", []any{"a", "a"}}[r.IntN(9)]
	}
	switch k {
	case "type":
		return []any{"string", "strng", []any{"string", "null"}, []any{}, []any{"a"}, []any{"string", "string"}}[r.IntN(6)]
	case "properties", "$defs", "definitions", "patternProperties", "dependencies":
		m := map[string]any{}
		for range r.IntN(3) {
			m[pick(r, "a", "b", "q", "(?<x", "^a+$")] = randomSchema(r, depth)
		}
		if k == "dependencies" && r.IntN(3) == 0 {
			m["d"] = []any{"a", "b"}
		}
		return m
	case "items", "not", "additionalProperties", "if", "then", "contentSchema":
		return randomSchema(r, depth)
	case "prefixItems", "allOf", "anyOf":
		a := []any{}
		for range r.IntN(3) {
			a = append(a, randomSchema(r, depth))
		}
		return a
	case "$ref", "$dynamicRef":
		return pick(r, "#", "#/$defs/a", "#/$defs/b", "#/properties/q", "#/definitions/a", "#a", "#nope",
			"https://example.com/x.json", "q.json", "#/$defs/a/type", "#/required", "https://json-schema.org/draft/2020-12/schema",
			"sub.json", "sub.json#/$defs/a", `a\b`, "%zz", "#/$defs/a~1b")
	case "$id":
		return pick(r, "sub.json", "https://example.com/s.json", "x#frag", "other/", "sub.json#")
	case "$anchor":
		return pick(r, "a", "1bad", "b")
	case "required":
		return []any{[]any{"a"}, []any{"a", "a"}, []any{json.Number("1")}, []any{}}[r.IntN(4)]
	case "minLength", "maxItems":
		return json.Number(pick(r, "0", "3", "-1", "1.5", "2.0"))
	case "multipleOf", "minimum":
		return json.Number(pick(r, "0", "2", "-1", "0.5"))
	case "pattern":
		return pick(r, "^a$", "(?<=x)", "[", `\d+`)
	case "enum", "examples":
		return []any{"a", json.Number("1")}
	case "uniqueItems":
		return true
	case "dependentRequired":
		return map[string]any{"a": []any{"b"}}
	case "$vocabulary":
		return map[string]any{pick(r, "https://example.com/v", "rel"): r.IntN(2) == 0}
	case "$schema":
		return pick(r, "https://json-schema.org/draft/2020-12/schema", "rel")
	}
	return "text"
}

// TestToolSchemaAgainstLibrary: on random schemas, checkToolSchema and the JSON Schema library agree on which are
// valid, and word a schema's only problem the same.
func TestToolSchemaAgainstLibrary(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 5000
	if testing.Short() {
		n = 500
	}
	for i := range n {
		s := randomSchema(r, 4)
		m, ok := s.(map[string]any)
		if !ok {
			continue
		}
		m["type"] = "object"
		delete(m, "$schema")
		got := checkToolSchema("a", m)
		want := libraryCheck("a", m)
		data, _ := CanonicalJSON(m, "")
		if (got == "") != (want == "") {
			t.Fatalf("%d: %s\n got %q\nwant %q", i, data, got, want)
		}
		// The library places a bad property name (of $vocabulary, of patternProperties) at the top level; promptc at
		// the keyword.
		quirk := strings.HasPrefix(want, "at the top level: ") && strings.TrimPrefix(want, "at the top level: ") == got[strings.Index(got, ": ")+2:]
		// Which of two subschemas with the same $id or anchor is named first depends on the library's walk.
		dup := strings.HasPrefix(want, "duplicate ") && want[:strings.Index(want, " at ")] == got[:max(0, strings.Index(got, " at "))]
		if got != want && !quirk && !dup && onlyProblem("a", m) {
			t.Errorf("%d: %s\n got %q\nwant %q", i, data, got, want)
		}
	}
}

// onlyProblem reports whether the schema has at most one problem against the meta-schema, so that the message is
// not a choice between several.
func onlyProblem(name string, m map[string]any) bool {
	data, _ := CanonicalJSON(m, "")
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	_ = dec.Decode(&doc)
	var mc metaChecker
	mc.schema(doc, nil)
	return len(mc.errs) <= 1 && strings.Count(string(data), `ef":`) <= 1
}

// FuzzToolSchema: on any JSON object, the tool schema check never panics and agrees with the JSON Schema library on
// whether the schema is valid. Inputs nest no deeper than a project's files can (MaxNesting).
func FuzzToolSchema(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 64 {
		if data, err := CanonicalJSON(randomSchema(r, 3), ""); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`))
	f.Add([]byte(`{"properties":{"x":{"$ref":"#"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if nesting(data) > MaxNesting {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var m map[string]any
		if dec.Decode(&m) != nil || m == nil || dec.More() {
			return
		}
		m["type"] = "object"
		delete(m, "$schema")
		got := checkToolSchema("a", m)
		want := libraryCheck("a", m)
		if (got == "") != (want == "") {
			t.Fatalf("%s\n got %q\nwant %q", data, got, want)
		}
	})
}

// nesting is how deeply arrays and objects nest in JSON text (brackets inside strings counted too: an upper bound).
func nesting(data []byte) int {
	depth, most := 0, 0
	for _, c := range data {
		switch c {
		case '[', '{':
			depth++
			most = max(most, depth)
		case ']', '}':
			depth--
		}
	}
	return most
}
