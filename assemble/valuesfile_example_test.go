package assemble_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/promptc/promptc/assemble"
)

// A values file named "-" is read from standard input (here a reader), as promptc render --session - reads it; the
// request renders it.
func ExampleReadValuesFile() {
	f, err := assemble.ReadValuesFile("-", "", strings.NewReader(`{"user": "Ada"}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s %s\n", f.Name, f.Data)
	_, err = assemble.ReadValuesFile("session.json", "/nonexistent/session.json", nil)
	fmt.Println(err)
	// Output:
	// - {"user": "Ada"}
	// open /nonexistent/session.json: no such file or directory
}
