package explain_test

import (
	"fmt"
	"os"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/explain"
)

// Block answers "why is this block missing from task quick?".
func ExampleBlock() {
	prog, diags := assemble.LoadDir("testdata/demo")
	if len(diags) > 0 {
		fmt.Println(diags)
		return
	}
	r, err := explain.Block(prog, "quick", "commands", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Renders, r.Scope)
	for _, why := range r.Why {
		fmt.Printf("%s at %s\n", why.Kind, why.At)
	}
	// Output:
	// false task
	// order at promptc.toml:5:42
	// except at blocks/core.toml:26:13
}

// Line answers "which block and source line wrote line 8 of this runbook?".
func ExampleLine() {
	prog, diags := assemble.LoadDir("testdata/demo")
	if len(diags) > 0 {
		fmt.Println(diags)
		return
	}
	r, err := explain.Line(prog, "chat/basic.runbook.md", 8)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := r.WriteText(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// chat/basic.runbook.md:8: "- Run only the commands listed in this runbook."
	//   block "safety" (blocks/core.toml:13:1), scope global, global prefix
	//   body line at blocks/core.toml:16:1
	//   text (blocks/core.toml:16:1)
	//   constant "boundary" (blocks/core.toml:2:1)
}

// ParseTarget reads the PATH:LINE form of promptc explain.
func ExampleParseTarget() {
	path, line, err := explain.ParseTarget("golden/chat/basic.turn-1.md:3")
	fmt.Println(path, line, err)
	// Output:
	// chat/basic.turn-1.md 3 <nil>
}
