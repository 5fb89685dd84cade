package assemble_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// Load a project directory once, start a session for one task, then render its runbook (the cacheable prefix) and
// one message per turn (the volatile suffix). This is the README's "From Go" code, kept compiling and running; the
// directory is the reference project, relative to this package: a platform passes its own prompts directory.
func ExampleLoadDir() {
	prog, diags := assemble.LoadDir("../examples/tracker")
	if len(diags) > 0 {
		log.Fatal(diags) // every problem, one per line, as path:line:col: message
	}
	s, err := prog.NewSession("chat", blocks.Values{"agent_name": "Ada", "workspace_name": "Northwind"})
	if err != nil {
		log.Fatal(err) // a value of the wrong type, a required one missing
	}
	turn, err := s.Turn(blocks.Values{"issue_id": "NW-142"})
	if err != nil {
		log.Fatal(err)
	}
	runbook := s.Runbook().Text // the cacheable prefix: the system prompt, or a context file's section
	message := turn.Text        // the per-turn message, appended after the runbook
	fmt.Println(strings.SplitN(runbook, "\n", 2)[0])
	fmt.Print(message)
	// Output:
	// # Tracker Agent Runtime
	// You are chatting with a person on issue NW-142. If the conversation depends on the issue, read it with `tracker issue view NW-142`. Follow `## Chat Workflow`.
}
