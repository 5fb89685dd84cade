package suggest_test

import (
	"fmt"

	"github.com/promptc/promptc/internal/suggest"
)

func ExampleDidYouMean() {
	fmt.Printf("unknown task %q%s\n", "isue", suggest.DidYouMean("isue", []string{"chat", "issue"}))
	// Output: unknown task "isue" (did you mean "issue"?)
}

func ExampleClosest() {
	// No entry is within two edits of "deployment-steps", but a message can still name the nearest one.
	fmt.Println(suggest.Closest("deployment-steps", []string{"rollback", "deploy"}))
	// Output: deploy
}
