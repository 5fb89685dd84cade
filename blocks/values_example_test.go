package blocks_test

import (
	"fmt"

	"github.com/promptc/promptc/blocks"
)

// A platform that receives session values as JSON checks them against the project's declarations before rendering,
// and shows the author where each problem is.
func ExampleProject_ReadValues() {
	p := &blocks.Project{Vars: map[string]*blocks.Var{
		"agent_name": {Name: "agent_name", Scope: blocks.ScopeSession, Type: blocks.TypeString},
		"max_steps":  {Name: "max_steps", Scope: blocks.ScopeSession, Type: blocks.TypeInt},
	}}
	data := []byte(`{
  "agent_name": "Ada",
  "max_steps": "ten",
  "agent_nme": "x"
}`)
	vals, ranges, diags := p.ReadValues("session.json", data, blocks.ScopeSession)
	fmt.Print(diags.String())
	fmt.Println(vals["agent_name"], ranges["agent_name"])
	// Output:
	// session.json:3:3: variable "max_steps" is an int, so its value must be a whole number, not a JSON string
	// session.json:4:3: unknown session variable "agent_nme" (did you mean "agent_name"?)
	// Ada session.json:2:3
}
