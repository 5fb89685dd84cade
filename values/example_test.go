package values_test

import (
	"fmt"
	"regexp"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/values"
)

// Check takes a value as a Go program, a fixture or a values file gives it, and returns it checked, cleaned and cut
// to its limits, ready for templates.Prepare to escape by trust.
func ExampleCheck() {
	tags := &blocks.Var{Name: "tags", Type: blocks.TypeList, Trim: true, MaxItems: 2,
		Pattern: regexp.MustCompile(`^(?:[a-z]+)$`), Omitted: "({n} more)"}
	val, dropped, err := values.Check(tags, []string{" go ", "toml\r\n", "json"})
	fmt.Printf("%q %d %v\n", val, dropped, err)

	_, _, err = values.Check(tags, []string{"Go"})
	fmt.Println(err)

	_, _, err = values.Check(tags, 42)
	fmt.Println(err)
	// Output:
	// ["go" "toml" "(1 more)"] 1 <nil>
	// variable "tags", item 1, does not match its pattern [a-z]+ (the item is "Go")
	// variable "tags" is a list, so its value must be a []string (or a []any of strings), not an int
}
