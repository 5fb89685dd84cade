package suggest_test

import (
	"fmt"

	"github.com/promptc/promptc/internal/suggest"
)

func ExampleDidYouMean() {
	fmt.Printf("unknown task %q%s\n", "isue", suggest.DidYouMean("isue", []string{"chat", "issue"}))
	// Output: unknown task "isue" (did you mean "issue"?)
}
