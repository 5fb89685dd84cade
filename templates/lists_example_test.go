package templates_test

import (
	"fmt"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/templates"
)

// A list constant gives a fixed order to walk (range const), a lookup table names each entry, and lookup_table walks
// a whole table in key order.
func ExampleParse_lists() {
	consts := templates.Consts{
		Text:   map[string]string{},
		Lists:  map[string][]string{"order": {"blocked", "todo", "done"}},
		Tables: map[string]map[string]string{"names": {"blocked": "Blocked", "done": "Done", "todo": "To do"}},
	}
	b := &blocks.Block{ID: "groups", Body: `{{range const "order"}}{{lookup "names" .}}; {{end}}` +
		`{{range $k, $v := lookup_table "names"}}{{$k}}={{$v}} {{end}}`}
	body, diags := templates.Parse(b, consts)
	if len(diags) > 0 {
		fmt.Println(diags)
		return
	}
	out, err := body.Execute(map[string]any{}, templates.Env{})
	fmt.Println(out, err == nil)
	// Output:
	// Blocked; To do; Done; blocked=Blocked done=Done todo=To do  true
}
