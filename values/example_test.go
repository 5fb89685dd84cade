package values_test

import (
	"fmt"
	"regexp"
	"testing/fstest"

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

// Load is how a front end loads a project: the fixtures as blocks reads them, with their values checked against
// their declarations, each one that does not fit reported at its key, and the required ones missing reported at
// their table. What a fixture extends gives the session values it does not set itself.
func ExampleLoad() {
	fsys := fstest.MapFS{
		"promptc.toml": {Data: []byte(`name = "acme"
tasks = ["issue"]

[vars.user]
scope = "session"
type = "string"
required = true

[vars.retries]
scope = "session"
type = "int"

[vars.question]
scope = "turn"
type = "text"
required = true
`)},
		"fixtures/base.toml": {Data: []byte("tasks = []\n\n[session]\nuser = \"Ada\"\n")},
		"fixtures/leader.toml": {Data: []byte(`extends = "base"
tasks = ["issue"]

[session]
retries = "three"

[[turn]]
assistant = "Done."
`)},
	}
	p, diags := values.Load(fsys)
	for _, d := range diags {
		fmt.Printf("%s:%d: %s\n", d.Subject.Filename, d.Subject.Start.Line, d.Summary)
	}
	fmt.Println(p.Fixture("leader").Session)
	// Output:
	// fixtures/leader.toml:5: variable "retries" is an int, so its value must be a whole number, not a string
	// fixtures/leader.toml:7: required turn variable "question" is missing from [[turn]]
	// map[user:Ada]
}
