package guard_test

import (
	"fmt"
	"log"
	"os"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/guard"
)

// lintFiles is a two-task project with a constant nothing uses, another pasted into a block by hand, and the short-prefix lint silenced.
var lintFiles = map[string]string{
	"promptc.toml": `name  = "acme"
tasks = ["issue", "chat"]

[runbook]
order = ["rules", "issue-only"]

[[lint.allow]]
lint   = "short-prefix"
reason = "an example: its runbooks are tiny"
`,
	"blocks/main.toml": `[const]
boundary = "Run only the commands listed in this runbook."
spare    = "Not used anywhere."

[[block]]
id    = "rules"
title = "Rules"
body  = "Never push to main. {{const \"boundary\"}}"

[[block]]
id    = "issue-only"
tasks = ["issue"]
body  = "Issues only. Run only the commands listed in this runbook."
`,
}

// Lint is promptc lint as a library call: build the project in memory, run the stability lints and print the
// findings as the command does.
func ExampleLint() {
	dir := writeProject(lintFiles)
	defer os.RemoveAll(dir)

	prog, diags := assemble.LoadDir(dir)
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	findings := guard.Lint(prog, arts, nil)
	if err := guard.WriteFindings(os.Stdout, findings); err != nil {
		log.Fatal(err)
	}
	errs, warnings := guard.CountSeverities(findings)
	fmt.Println("errors:", errs, "warnings:", warnings)
	// Output:
	// blocks/main.toml:3:1: warning: constant "spare" is never used: no block emits it with {{const "spare"}} (unused-constant)
	//     fix: emit it with {{const "spare"}} where the rule applies, or delete it
	// blocks/main.toml:13:23: error: block "issue-only" pastes the text of constant "boundary" (blocks/main.toml:2:1) instead of using it: one rule, one place; the copy will drift from the constant (pasted-constant)
	//     fix: replace the text with {{const "boundary"}}
	// 1 error, 1 warning
	// errors: 1 warnings: 1
}

// LintFixture measures the runbooks of one fixture; a fixture the project does not have is an error that suggests
// the closest name, as promptc lint --fixture reports it.
func ExampleLintFixture() {
	dir := writeProject(lintFiles)
	defer os.RemoveAll(dir)

	prog, diags := assemble.LoadDir(dir)
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	findings, err := guard.LintFixture(prog, arts, nil, "default")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(guard.LintSummary(findings))
	_, err = guard.LintFixture(prog, arts, nil, "defualt")
	fmt.Println(err)
	// Output:
	// 1 error, 1 warning
	// no fixture "defualt" (did you mean "default"?)
}
