package blocks_test

import (
	"fmt"
	"testing/fstest"

	"github.com/promptc/promptc/blocks"
)

// A command that writes bytes takes the only fixture rendering a task and refuses to guess between several; one
// that measures or explains samples the first by name (docs/reference.md#default-and-sample-fixtures).
func ExampleProject_SampleFixture() {
	fsys := fstest.MapFS{
		"promptc.toml":         {Data: []byte("name = \"acme\"\ntasks = [\"issue\", \"chat\", \"triage\"]\n")},
		"fixtures/zeta.toml":   {Data: []byte("tasks = [\"issue\", \"chat\"]\n")},
		"fixtures/alpha.toml":  {Data: []byte("tasks = [\"issue\"]\n")},
		"fixtures/unused.toml": {Data: []byte("tasks = []\n")},
	}
	p, diags := blocks.Load(fsys)
	if len(diags) > 0 {
		fmt.Print(diags)
		return
	}
	for _, task := range p.Tasks {
		sample := "none"
		if f := p.SampleFixture(task); f != nil {
			sample = f.Name
		}
		if f, names := p.DefaultFixture(task); f != nil {
			fmt.Printf("%s: default %s, sample %s\n", task, f.Name, sample)
		} else {
			fmt.Printf("%s: no default (rendered by %q), sample %s\n", task, names, sample)
		}
	}
	// Output:
	// issue: no default (rendered by ["alpha" "zeta"]), sample alpha
	// chat: default zeta, sample zeta
	// triage: no default (rendered by []), sample none
}
