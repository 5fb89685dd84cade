package values_test

import (
	"fmt"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/values"
)

// A platform that receives session values as JSON checks them against the project's declarations before rendering,
// and shows the author where each problem is.
func ExampleReadFile() {
	p := &blocks.Project{Vars: map[string]*blocks.Var{
		"agent_name": {Name: "agent_name", Scope: blocks.ScopeSession, Type: blocks.TypeString},
		"max_steps":  {Name: "max_steps", Scope: blocks.ScopeSession, Type: blocks.TypeInt},
	}}
	data := []byte(`{
  "agent_name": "Ada",
  "max_steps": "ten",
  "agent_nme": "x"
}`)
	vals, ranges, diags := values.ReadFile(p, "session.json", data, blocks.ScopeSession)
	fmt.Print(diags.String())
	fmt.Println(vals["agent_name"], ranges.At("agent_name"))
	// Output:
	// session.json:3:3: variable "max_steps" is an int, so its value must be a whole number, not a JSON string
	// session.json:4:3: unknown session variable "agent_nme" (did you mean "agent_name"?)
	// Ada session.json:2:3
}

// A Go program passes records, and nested data, as plain structs with json tags (or pointers to them), as maps and
// slices, or mixes them (the shapes blocks.Values lists). TypeCheckIn converts each into the canonical form templates see; a value of another shape is
// refused in Go's words.
func ExampleTypeCheckIn_goShapes() {
	ref := &blocks.Var{Name: "ref", Type: blocks.TypeRecord, Fields: []*blocks.Var{
		{Name: "git_ref", Type: blocks.TypeString},
		{Name: "url", Type: blocks.TypeString},
	}}
	resources := &blocks.Var{Name: "resources", Scope: blocks.ScopeSession, Type: blocks.TypeRecords, Fields: []*blocks.Var{
		{Name: "name", Type: blocks.TypeString},
		ref,
		{Name: "stars", Type: blocks.TypeInt},
	}}
	type Ref struct {
		URL    string `json:"url"`
		GitRef string `json:"git_ref"`
	}
	type Resource struct {
		Name  string `json:"name"`
		Ref   *Ref   `json:"ref"` // nil: the zero record
		Stars int    `json:"stars"`
		Notes string `json:"-"` // left out
	}
	for _, v := range []any{
		[]Resource{{Name: "api", Ref: &Ref{URL: "https://x.example/api", GitRef: "main"}, Stars: 3}, {Name: "docs"}},
		[]*Resource{{Name: "api", Stars: 3}},
		[]map[string]any{{"name": "api", "ref": map[string]string{"url": "https://x.example/api"}}},
		[]map[string]string{{"name": "api"}},
		[]any{map[string]any{"name": "api", "stars": 3}},
	} {
		val, err := values.TypeCheckIn(resources, v, values.FormatGo)
		if err != nil {
			fmt.Println(err)
			continue
		}
		b, _ := blocks.CanonicalJSON(val, "")
		fmt.Println(string(b))
	}
	_, err := values.TypeCheckIn(resources, Resource{Name: "api"}, values.FormatGo)
	fmt.Println(err)
	_, err = values.TypeCheckIn(resources, []Resource{{Name: "api", Ref: &Ref{}}}, values.FormatGo)
	fmt.Println(err == nil)
	_, err = values.TypeCheckIn(resources, []map[string]any{{"name": "api", "owner": "ada"}}, values.FormatGo)
	fmt.Println(err)
	// Output:
	// [{"name":"api","ref":{"git_ref":"main","url":"https://x.example/api"},"stars":3},{"name":"docs","ref":{"git_ref":"","url":""},"stars":0}]
	// [{"name":"api","ref":{"git_ref":"","url":""},"stars":3}]
	// [{"name":"api","ref":{"git_ref":"","url":"https://x.example/api"},"stars":0}]
	// [{"name":"api","ref":{"git_ref":"","url":""},"stars":0}]
	// [{"name":"api","ref":{"git_ref":"","url":""},"stars":3}]
	// variable "resources" is records, so its value must be a slice of maps or structs ([]map[string]any, []map[string]string, []any, []T or []*T of a struct T), not a values_test.Resource
	// true
	// variable "resources", record 1 has undeclared field "owner" (declared: name, ref, stars)
}

// A record or records field with decode = "json" may arrive as the JSON text a database column holds.
func ExampleTypeCheckIn_json() {
	ref := &blocks.Var{Name: "ref", Type: blocks.TypeRecord, Decode: blocks.DecodeJSON, Fields: []*blocks.Var{
		{Name: "git_ref", Type: blocks.TypeString},
		{Name: "url", Type: blocks.TypeString},
	}}
	val, err := values.TypeCheckIn(ref, `{"url": "https://x.example/api", "git_ref": "main"}`, values.FormatGo)
	b, _ := blocks.CanonicalJSON(val, "")
	fmt.Println(string(b), err)
	_, err = values.TypeCheckIn(ref, `{"url": 1}`, values.FormatGo)
	fmt.Println(err)
	// Output:
	// {"git_ref":"main","url":"https://x.example/api"} <nil>
	// variable "ref": field "url" is a string, so its value must be a JSON string, not a JSON number, in the JSON text it was given
}
