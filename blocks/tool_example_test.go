package blocks_test

import (
	"fmt"
	"testing/fstest"

	"github.com/promptc/promptc/blocks"
)

// A platform building a provider request lists the tools of the task, in an order that does not depend on the
// project's file layout, each with its parameters as canonical JSON.
func ExampleProject_ToolsFor() {
	fsys := fstest.MapFS{
		"promptc.toml": {Data: []byte("name = \"acme\"\ntasks = [\"issue\", \"chat\"]\n")},
		"blocks/tools.toml": {Data: []byte(`
[[tool]]
name        = "search"
description = "Search issues."
[tool.parameters]
type     = "object"
required = ["query"]
[tool.parameters.properties.query]
type = "string"

[[tool]]
name        = "comment"
description = "Post a comment."
except      = ["chat"]
`)},
	}
	p, diags := blocks.Load(fsys)
	if len(diags) > 0 {
		fmt.Print(diags)
		return
	}
	for _, task := range p.Tasks {
		for _, t := range p.ToolsFor(task) {
			fmt.Printf("%s: %s %s\n", task, t.Name, t.SchemaJSON())
		}
	}
	// Output:
	// issue: comment {"properties":{},"type":"object"}
	// issue: search {"properties":{"query":{"type":"string"}},"required":["query"],"type":"object"}
	// chat: search {"properties":{"query":{"type":"string"}},"required":["query"],"type":"object"}
}
