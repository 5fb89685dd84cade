package blocks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/promptc/promptc/source"
)

// This file checks a tool's parameters as JSON Schema draft 2020-12, as docs/tools.md describes: the schema must
// validate against the draft's meta-schema (every vocabulary's keywords with the types the meta-schema gives them,
// patterns as RE2 regular expressions, URIs where it wants URIs), and every $ref and $dynamicRef the schema
// applies must land inside the schema itself. It is the part of a JSON Schema implementation promptc needs, written
// here so that no command pays at start for a schema library's meta-schemas: it costs nothing until a tool is
// loaded, and a walk over the schema when one is. Its messages word each problem as that library did.

// checkToolSchema checks params, a tool's parameters, as JSON Schema draft 2020-12 and returns what is wrong with
// it, or "". name is the tool's: a relative $ref resolves against the URL it names.
func checkToolSchema(name string, params map[string]any) string {
	// The schema is read as encoding/json decodes it with UseNumber: a round trip through the canonical JSON gives
	// exactly that, numbers as json.Number (1.0 is the integer 1).
	data, err := CanonicalJSON(params, "")
	if err != nil {
		return err.Error()
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return err.Error()
	}
	rc := newRefChecker(schemaBase+name+".json", doc)
	if rc.problem != "" {
		return rc.problem
	}
	var mc metaChecker
	mc.schema(doc, nil)
	if len(mc.errs) > 0 {
		e := mc.errs[0]
		where := "at the top level"
		if len(e.loc) > 0 {
			where = "at " + source.QuoteName(jsonPointer(e.loc))
		}
		return fmt.Sprintf("%s: %s; fix it so the schema validates against the draft 2020-12 meta-schema", where, e.msg)
	}
	rc.apply(doc, rc.base, nil)
	return rc.problem
}

// jsonPointer writes loc as a JSON pointer (RFC 6901): "/properties/q".
func jsonPointer(loc []string) string {
	var b strings.Builder
	for _, p := range loc {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
	}
	return b.String()
}

// schemaProblem is a place in the schema that breaks the meta-schema, and what is wrong there.
type schemaProblem struct {
	loc []string
	msg string
}

// metaChecker validates a schema against the draft 2020-12 meta-schema, collecting its problems in a fixed order:
// an object's keywords in byte order, depth first. The first is the one reported.
type metaChecker struct {
	errs []schemaProblem
}

func (mc *metaChecker) fail(loc []string, format string, args ...any) {
	mc.errs = append(mc.errs, schemaProblem{slices.Clone(loc), fmt.Sprintf(format, args...)})
}

// at is loc extended by key, in a fresh slice.
func at(loc []string, key ...string) []string {
	return append(slices.Clip(loc), key...)
}

// jsonTypeOf names v's JSON type as the meta-schema's messages do: every number is a "number".
func jsonTypeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "invalid"
}

// schema checks that v is a schema: a boolean, or an object whose keywords are as the meta-schema wants them.
func (mc *metaChecker) schema(v any, loc []string) {
	switch v := v.(type) {
	case bool:
		return
	case map[string]any:
		for _, k := range sortedKeys(v) {
			mc.keyword(k, v[k], at(loc, k))
		}
	default:
		mc.fail(loc, "got %s, want boolean or object", jsonTypeOf(v))
	}
}

// simpleTypes are the names the type keyword accepts.
var simpleTypes = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// anchorPattern is what $anchor and $dynamicAnchor must match; idPattern, what $id must (no non-empty fragment).
const (
	anchorPattern = "^[A-Za-z_][-A-Za-z0-9._]*$"
	idPattern     = "^[^#]*#?$"
)

func (mc *metaChecker) keyword(k string, v any, loc []string) {
	switch k {
	case "items", "contains", "additionalProperties", "propertyNames", "if", "then", "else", "not",
		"unevaluatedItems", "unevaluatedProperties", "contentSchema":
		mc.schema(v, loc)
	case "$defs", "definitions", "properties", "dependentSchemas":
		if m, ok := mc.object(v, loc); ok {
			for _, name := range sortedKeys(m) {
				mc.schema(m[name], at(loc, name))
			}
		}
	case "patternProperties":
		if m, ok := mc.object(v, loc); ok {
			for _, name := range sortedKeys(m) {
				if _, err := regexp.Compile(name); err != nil {
					mc.fail(loc, "%s is not valid regex: %v", quoteValue(name), err)
				}
			}
			for _, name := range sortedKeys(m) {
				mc.schema(m[name], at(loc, name))
			}
		}
	case "prefixItems", "allOf", "anyOf", "oneOf":
		if a, ok := mc.array(v, loc); ok {
			if len(a) < 1 {
				mc.fail(loc, "minItems: got 0, want 1")
			}
			for i, s := range a {
				mc.schema(s, at(loc, strconv.Itoa(i)))
			}
		}
	case "dependencies":
		// Each value is a schema or a string array; a value that is neither is reported as the schema it is not.
		if m, ok := mc.object(v, loc); ok {
			for _, name := range sortedKeys(m) {
				var sub metaChecker
				sub.schema(m[name], at(loc, name))
				if len(sub.errs) > 0 {
					var arr metaChecker
					arr.stringArray(m[name], at(loc, name))
					if len(arr.errs) > 0 {
						mc.errs = append(mc.errs, sub.errs...)
					}
				}
			}
		}
	case "type":
		if !isTypeValue(v) {
			mc.fail(loc, "value must be one of %s", quoteList(simpleTypes))
		}
	case "enum", "examples":
		mc.array(v, loc)
	case "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum":
		mc.number(v, loc)
	case "multipleOf":
		if n, ok := mc.number(v, loc); ok {
			if r, ok := new(big.Rat).SetString(string(n)); ok && r.Sign() <= 0 {
				f, _ := r.Float64()
				mc.fail(loc, "exclusiveMinimum: got %v, want 0", f)
			}
		}
	case "maxLength", "minLength", "maxItems", "minItems", "maxContains", "minContains", "maxProperties",
		"minProperties":
		mc.nonNegativeInteger(v, loc)
	case "uniqueItems", "deprecated", "readOnly", "writeOnly":
		mc.boolean(v, loc)
	case "required":
		mc.stringArray(v, loc)
	case "dependentRequired":
		if m, ok := mc.object(v, loc); ok {
			for _, name := range sortedKeys(m) {
				mc.stringArray(m[name], at(loc, name))
			}
		}
	case "title", "description", "format", "contentEncoding", "contentMediaType", "$comment":
		mc.string(v, loc)
	case "pattern":
		if s, ok := mc.string(v, loc); ok {
			if _, err := regexp.Compile(s); err != nil {
				mc.fail(loc, "%s is not valid regex: %v", quoteValue(s), err)
			}
		}
	case "$ref", "$dynamicRef", "$recursiveRef":
		mc.uriReference(v, loc)
	case "$id":
		if s, ok := mc.uriReference(v, loc); ok {
			mc.pattern(s, idPattern, loc)
		}
	case "$schema":
		if s, ok := mc.string(v, loc); ok {
			if err := checkURI(s); err != nil {
				mc.fail(loc, "%s is not valid uri: %v", quoteValue(s), err)
			}
		}
	case "$anchor", "$dynamicAnchor", "$recursiveAnchor":
		if s, ok := mc.string(v, loc); ok {
			mc.pattern(s, anchorPattern, loc)
		}
	case "$vocabulary":
		if m, ok := mc.object(v, loc); ok {
			for _, name := range sortedKeys(m) {
				if err := checkURI(name); err != nil {
					mc.fail(loc, "%s is not valid uri: %v", quoteValue(name), err)
				}
			}
			for _, name := range sortedKeys(m) {
				mc.boolean(m[name], at(loc, name))
			}
		}
	}
	// Any other keyword is an annotation the meta-schema allows with any value (const and default among them).
}

func (mc *metaChecker) object(v any, loc []string) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		mc.fail(loc, "got %s, want object", jsonTypeOf(v))
	}
	return m, ok
}

func (mc *metaChecker) array(v any, loc []string) ([]any, bool) {
	a, ok := v.([]any)
	if !ok {
		mc.fail(loc, "got %s, want array", jsonTypeOf(v))
	}
	return a, ok
}

func (mc *metaChecker) string(v any, loc []string) (string, bool) {
	s, ok := v.(string)
	if !ok {
		mc.fail(loc, "got %s, want string", jsonTypeOf(v))
	}
	return s, ok
}

func (mc *metaChecker) boolean(v any, loc []string) {
	if _, ok := v.(bool); !ok {
		mc.fail(loc, "got %s, want boolean", jsonTypeOf(v))
	}
}

func (mc *metaChecker) number(v any, loc []string) (json.Number, bool) {
	n, ok := v.(json.Number)
	if !ok {
		mc.fail(loc, "got %s, want number", jsonTypeOf(v))
	}
	return n, ok
}

func (mc *metaChecker) nonNegativeInteger(v any, loc []string) {
	n, ok := v.(json.Number)
	if !ok {
		mc.fail(loc, "got %s, want integer", jsonTypeOf(v))
		return
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok || !r.IsInt() {
		mc.fail(loc, "got number, want integer")
		return
	}
	if r.Sign() < 0 {
		f, _ := r.Float64()
		mc.fail(loc, "minimum: got %v, want 0", f)
	}
}

// stringArray: an array of strings, no two equal.
func (mc *metaChecker) stringArray(v any, loc []string) {
	a, ok := mc.array(v, loc)
	if !ok {
		return
	}
	if i, j, dup := firstDuplicate(a); dup {
		mc.fail(loc, "items at %d and %d are equal", i, j)
	}
	for i, e := range a {
		mc.string(e, at(loc, strconv.Itoa(i)))
	}
}

func (mc *metaChecker) uriReference(v any, loc []string) (string, bool) {
	s, ok := mc.string(v, loc)
	if !ok {
		return "", false
	}
	if strings.Contains(s, `\`) {
		mc.fail(loc, `%s is not valid uri-reference: contains \`, quoteValue(s))
		return s, false
	}
	if _, err := url.Parse(s); err != nil {
		mc.fail(loc, "%s is not valid uri-reference: %v", quoteValue(s), err)
		return s, false
	}
	return s, true
}

func (mc *metaChecker) pattern(s, pattern string, loc []string) {
	if !regexp.MustCompile(pattern).MatchString(s) {
		mc.fail(loc, "%s does not match pattern %s", quoteValue(s), quoteValue(pattern))
	}
}

// checkURI is the meta-schema's format "uri": an absolute URL.
func checkURI(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if !u.IsAbs() {
		return fmt.Errorf("relative url")
	}
	return nil
}

// isTypeValue reports whether v is what the type keyword accepts: a simple type's name, or a non-empty array of
// distinct ones.
func isTypeValue(v any) bool {
	switch v := v.(type) {
	case string:
		return slices.Contains(simpleTypes, v)
	case []any:
		if len(v) == 0 {
			return false
		}
		if _, _, dup := firstDuplicate(v); dup {
			return false
		}
		for _, e := range v {
			if s, ok := e.(string); !ok || !slices.Contains(simpleTypes, s) {
				return false
			}
		}
		return true
	}
	return false
}

// firstDuplicate finds the first pair of equal items of a (JSON equality: 1 and 1.0 are equal).
func firstDuplicate(a []any) (int, int, bool) {
	for j := range a {
		for i := range j {
			if jsonEqual(a[i], a[j]) {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

func jsonEqual(x, y any) bool {
	switch x := x.(type) {
	case json.Number:
		y, ok := y.(json.Number)
		if !ok {
			return false
		}
		rx, ok1 := new(big.Rat).SetString(string(x))
		ry, ok2 := new(big.Rat).SetString(string(y))
		return ok1 && ok2 && rx.Cmp(ry) == 0
	case []any:
		y, ok := y.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := y.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !jsonEqual(xv, yv) {
				return false
			}
		}
		return true
	}
	return x == y
}

// quoteValue quotes s in single quotes, as the meta-schema's messages do.
func quoteValue(s string) string {
	s = strconv.Quote(s)
	s = strings.ReplaceAll(s, `\"`, `"`)
	s = strings.ReplaceAll(s, `'`, `\'`)
	return "'" + s[1:len(s)-1] + "'"
}

func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = quoteValue(s)
	}
	return strings.Join(q, ", ")
}

// refChecker resolves the references of a schema that validates against the meta-schema: its resources (the schema
// itself at root, and every subschema with an $id), their anchors, and every $ref and $dynamicRef the schema applies,
// each of which must land inside the schema.
type refChecker struct {
	root      string                    // the URL the schema is checked at
	base      string                    // the root's base URL: root, or where its $id points
	resources map[string]any            // resource URL (no fragment) → its schema
	anchors   map[string]map[string]any // resource URL → anchor name → its schema
	ptrs      map[string]string         // resource URL → the JSON pointer of its schema in the document
	anchorAt  map[string]string         // resource URL + "#" + anchor → the JSON pointer that declares it
	visited   map[string]bool
	problem   string
}

// newRefChecker collects the resources and anchors of doc, checked at the URL root; a problem with them (two
// resources or anchors of the same name, a $schema other than draft 2020-12's) is in the result's problem.
func newRefChecker(root string, doc any) *refChecker {
	rc := &refChecker{root: root, base: root, resources: map[string]any{}, anchors: map[string]map[string]any{},
		ptrs: map[string]string{}, anchorAt: map[string]string{}, visited: map[string]bool{}}
	rc.resources[root] = doc
	rc.ptrs[root] = ""
	if m, ok := doc.(map[string]any); ok {
		if id := schemaID(m); id != "" {
			rc.base = resolveURL(root, id)
			rc.resources[rc.base] = doc
			rc.ptrs[rc.base] = ""
		}
	}
	rc.collect(doc, rc.base, nil)
	return rc
}

// resolveURL resolves ref against base, without its fragment.
func resolveURL(base, ref string) string {
	b, err := url.Parse(base)
	if err != nil {
		return ref
	}
	r, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	u := b.ResolveReference(r)
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// schemaKeywords are the keywords whose value is a schema, and schemaMapKeywords and schemaArrayKeywords those whose
// value holds schemas by name or by index. $defs and definitions only hold them; the others apply them.
var (
	schemaKeywords = []string{"items", "contains", "additionalProperties", "propertyNames", "if", "then", "else",
		"not", "unevaluatedItems", "unevaluatedProperties"}
	schemaMapKeywords   = []string{"properties", "patternProperties", "dependentSchemas", "dependencies"}
	schemaArrayKeywords = []string{"prefixItems", "allOf", "anyOf", "oneOf"}
)

// subschemas calls f with each subschema of s and its location, in a fixed order; with defs, those under $defs and
// definitions and contentSchema too (contentSchema is only an annotation in draft 2020-12: it applies nothing).
func subschemas(s map[string]any, loc []string, defs bool, f func(sub any, loc []string)) {
	for _, k := range sortedKeys(s) {
		v := s[k]
		switch {
		case slices.Contains(schemaKeywords, k) || defs && k == "contentSchema":
			f(v, at(loc, k))
		case slices.Contains(schemaMapKeywords, k) || defs && (k == "$defs" || k == "definitions"):
			m, _ := v.(map[string]any)
			for _, name := range sortedKeys(m) {
				if isSchema(m[name]) {
					f(m[name], at(loc, k, name))
				}
			}
		case slices.Contains(schemaArrayKeywords, k):
			a, _ := v.([]any)
			for i, e := range a {
				f(e, at(loc, k, strconv.Itoa(i)))
			}
		}
	}
}

func isSchema(v any) bool {
	switch v.(type) {
	case bool, map[string]any:
		return true
	}
	return false
}

// collect registers the resources and anchors under s, whose base URL is base.
func (rc *refChecker) collect(s any, base string, loc []string) {
	m, ok := s.(map[string]any)
	if !ok || rc.problem != "" {
		return
	}
	if sch, ok := m["$schema"].(string); ok && len(loc) > 0 {
		// A subschema may not switch drafts: promptc checks the whole schema as draft 2020-12.
		if u := resolveURL(rc.root, sch); u != draft2020 {
			if isMetaSchemaURL(u) {
				rc.problem = fmt.Sprintf("at %s: $schema %q names another draft than 2020-12, which promptc checks tool schemas as: remove it, or set it to %q", source.QuoteName(jsonPointer(at(loc, "$schema"))), sch, draft2020)
			} else {
				rc.problem = fmt.Sprintf("it refers to %q, outside itself, and promptc never fetches schemas: define the subschema under $defs and refer to it as \"#/$defs/NAME\"", strings.TrimPrefix(u, schemaBase))
			}
			return
		}
	}
	// An empty $id, or one that is a fragment alone, names no resource (schemaID).
	if id := schemaID(m); len(loc) > 0 && id != "" {
		base = resolveURL(base, id)
		if prev, dup := rc.ptrs[base]; dup {
			rc.problem = fmt.Sprintf("duplicate id %q in %q at %q and %q", base, "", jsonPointer(loc), prev) + "; correct the schema"
			return
		}
		rc.resources[base] = m
		rc.ptrs[base] = jsonPointer(loc)
	}
	for _, key := range []string{"$anchor", "$dynamicAnchor"} {
		name, ok := m[key].(string)
		if !ok {
			continue
		}
		if prev, dup := rc.anchorAt[base+"#"+name]; dup && prev != jsonPointer(loc) {
			rc.problem = fmt.Sprintf("duplicate anchor %q in %q at %q and %q", name, strings.ReplaceAll(base, rc.root, ""), prev, jsonPointer(loc)) + "; correct the schema"
			return
		}
		rc.anchorAt[base+"#"+name] = jsonPointer(loc)
		if rc.anchors[base] == nil {
			rc.anchors[base] = map[string]any{}
		}
		rc.anchors[base][name] = m
	}
	subschemas(m, loc, true, func(sub any, l []string) { rc.collect(sub, base, l) })
}

// apply follows the references of s, whose base URL is base, and those of every subschema s applies.
func (rc *refChecker) apply(s any, base string, loc []string) {
	m, ok := s.(map[string]any)
	if !ok || rc.problem != "" {
		return
	}
	if id := schemaID(m); len(loc) > 0 && id != "" {
		base = resolveURL(base, id)
	}
	key := base + "#" + jsonPointer(loc)
	if rc.visited[key] {
		return
	}
	rc.visited[key] = true
	for _, kw := range []string{"$dynamicRef", "$ref"} {
		ref, ok := m[kw].(string)
		if !ok {
			continue
		}
		target, tbase, tloc, msg := rc.resolve(base, ref)
		if msg != "" {
			rc.problem = msg
			return
		}
		if target != nil {
			rc.apply(target, tbase, tloc)
		}
	}
	subschemas(m, loc, false, func(sub any, l []string) {
		// then and else apply only with an if.
		if k := l[len(l)-1]; (k == "then" || k == "else") && m["if"] == nil {
			return
		}
		rc.apply(sub, base, l)
	})
}

// resolve finds what ref, written in a schema whose base URL is base, refers to: the schema, its base URL and its
// location in the document; or, when it lands outside the schema or on nothing, the message that says so. A ref to
// one of the meta-schemas of JSON Schema itself resolves to nothing to check (nil, no message).
func (rc *refChecker) resolve(base, ref string) (any, string, []string, string) {
	b, _ := url.Parse(base)
	r, _ := url.Parse(ref) // the meta-schema checked it is a URI reference
	u := b.ResolveReference(r)
	frag, raw := u.Fragment, u.EscapedFragment()
	u.Fragment, u.RawFragment = "", ""
	res := u.String()
	doc, ok := rc.resources[res]
	if !ok {
		if isMetaSchemaURL(res) {
			return nil, "", nil, ""
		}
		return nil, "", nil, fmt.Sprintf("it refers to %q, outside itself, and promptc never fetches schemas: define the subschema under $defs and refer to it as \"#/$defs/NAME\"", strings.TrimPrefix(res, schemaBase))
	}
	full := res + "#" + raw
	if frag == "" {
		return doc, res, pointerLoc(rc.ptrs[res]), ""
	}
	if !strings.HasPrefix(frag, "/") {
		if target, ok := rc.anchors[res][frag]; ok {
			return target, res, pointerLoc(rc.anchorAt[res+"#"+frag]), ""
		}
		return nil, "", nil, fmt.Sprintf("anchor in %q not found in schema %q", strings.ReplaceAll(full, rc.root, ""), "") + "; correct the schema"
	}
	target, tloc, found := doc, pointerLoc(rc.ptrs[res]), true
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch t := target.(type) {
		case map[string]any:
			target, found = t[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			found = err == nil && i >= 0 && i < len(t) && strconv.Itoa(i) == tok
			if found {
				target = t[i]
			}
		default:
			found = false
		}
		if !found {
			return nil, "", nil, fmt.Sprintf("$ref %q points at nothing in the schema: define what it names (under $defs), or correct the reference", "#"+rc.ptrs[res]+frag)
		}
		tloc = at(tloc, tok)
	}
	if !isSchema(target) {
		var mc metaChecker
		mc.schema(target, tloc)
		e := mc.errs[0]
		return nil, "", nil, fmt.Sprintf("at %s: %s; fix it so the schema validates against the draft 2020-12 meta-schema", source.QuoteName(jsonPointer(e.loc)), e.msg)
	}
	return target, res, tloc, ""
}

// pointerLoc splits a JSON pointer into its tokens.
func pointerLoc(p string) []string {
	if p == "" {
		return nil
	}
	loc := strings.Split(p[1:], "/")
	for i, tok := range loc {
		loc[i] = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
	}
	return loc
}

// isMetaSchemaURL reports whether u names one of JSON Schema's own meta-schemas, which every implementation knows
// without fetching them.
func isMetaSchemaURL(u string) bool {
	rest, ok := strings.CutPrefix(u, "https://json-schema.org/")
	if !ok {
		rest, ok = strings.CutPrefix(u, "http://json-schema.org/")
	}
	if !ok {
		return false
	}
	switch rest {
	case "schema", "draft-04/schema", "draft-06/schema", "draft-07/schema", "draft/2019-09/schema", "draft/2020-12/schema":
		return true
	}
	for _, d := range []string{"draft/2019-09/meta/", "draft/2020-12/meta/"} {
		if v, ok := strings.CutPrefix(rest, d); ok {
			return slices.Contains([]string{"applicator", "content", "core", "format", "format-annotation",
				"format-assertion", "meta-data", "unevaluated", "validation"}, v)
		}
	}
	return false
}

// schemaID is the $id of schema m without its fragment, as the JSON Schema library reads it: "" (no $id, an empty
// one, or a fragment alone such as "#") names no resource of its own.
func schemaID(m map[string]any) string {
	id, _ := m["$id"].(string)
	id, _, _ = strings.Cut(id, "#")
	return id
}
