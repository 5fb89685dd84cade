package assemble_test

import (
	"fmt"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// A turn message over [turn] max_tokens is cut deterministically: the block of lowest priority loses its last
// comments one at a time, its omitted line counting them, until the message fits. Artifact.Budget says what was
// cut and the tokens (o200k_base) before and after.
func ExampleSession_Turn_budget() {
	prog, diags := assemble.Load(fstest.MapFS{
		"promptc.toml": {Data: []byte(`
name  = "p"
tasks = ["issue"]

[runbook]
order = ["rules"]

[turn]
order      = ["assignment", "history"]
max_tokens = 30

[vars.issue_id]
scope = "turn"
type  = "string"
trust = "trusted"

[vars.comments]
scope   = "turn"
type    = "list"
omitted = "({n} more comments omitted)"
shrink  = true
`)},
		"blocks/all.toml": {Data: []byte(`
[[block]]
id   = "rules"
body = "Work on the issue you are given."

[[block]]
id       = "assignment"
priority = 1
body     = "Work on {{.issue_id}}."

[[block]]
id    = "history"
title = "Earlier Comments"
body  = "{{bullets .comments}}"
`)},
	})
	if len(diags) > 0 {
		fmt.Println(diags)
		return
	}
	s, err := prog.NewSession("issue", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	turn, err := s.Turn(blocks.Values{"issue_id": "NW-142", "comments": []string{
		"Marco: seen on three invoices from last week.",
		"Priya: probably the rate table, touched in the Q3 update.",
		"Marco: the Vienna customers all have the reduced rate.",
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(turn.Text)
	fmt.Println(turn.Budget)
	for _, c := range turn.Budget.Cuts {
		fmt.Printf("%s: %d items of %s, then %d tokens\n", c.Block, c.Items, c.Var, c.Tokens)
	}
	// Output:
	// Work on NW-142.
	//
	// ## Earlier Comments
	//
	// - Marco: seen on three invoices from last week.
	// - (2 more comments omitted)
	// turn budget: 49 tokens, over max_tokens = 30: dropped 2 items of "comments" from block "history"; now 28 tokens
	// history: 2 items of comments, then 28 tokens
}
