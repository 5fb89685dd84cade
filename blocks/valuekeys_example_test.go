package blocks_test

import (
	"fmt"
	"testing/fstest"

	"github.com/promptc/promptc/values"
)

// Where a fixture writes the fields of the records it gives, for a tool that finds or renames them: every key
// naming the variable or one of its fields, at any depth, in the tables of [session] and of each [[turn]].
func ExampleTable_valueKeys() {
	fsys := fstest.MapFS{
		"promptc.toml": {Data: []byte(`name  = "acme"
tasks = ["chat"]
[vars.changed]
scope = "turn"
type  = "records"
[vars.changed.fields.path]
type = "string"
[vars.changed.fields.owner]
type = "record"
[vars.changed.fields.owner.fields.login]
type = "string"
`)},
		"fixtures/basic.toml": {Data: []byte(`[[turn]]
changed = [{path = "a.go"}]

[[turn]]
[[turn.changed]]
path  = "b.go"
owner = {login = "ada"}
`)},
	}
	p, diags := values.Load(fsys)
	if len(diags) > 0 {
		fmt.Print(diags)
		return
	}
	f := p.Fixture("basic")
	for i, t := range f.TurnTables {
		for _, k := range t.ValueKeys {
			text := string(fsys[k.Range.Filename].Data[k.Range.Start.Byte:k.Range.End.Byte])
			fmt.Printf("turn %d: %s %q at %s is %q\n", i+1, k.Var, k.Field, k.Range, text)
		}
	}
	// Output:
	// turn 1: changed "" at fixtures/basic.toml:2:1 is "changed"
	// turn 1: changed "path" at fixtures/basic.toml:2:13 is "path"
	// turn 2: changed "" at fixtures/basic.toml:5:8 is "changed"
	// turn 2: changed "path" at fixtures/basic.toml:6:1 is "path"
	// turn 2: changed "owner" at fixtures/basic.toml:7:1 is "owner"
	// turn 2: changed "owner.login" at fixtures/basic.toml:7:10 is "login"
}
