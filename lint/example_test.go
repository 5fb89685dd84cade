package lint_test

import (
	"fmt"
	"log"
	"os"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/lint"
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

// project holds files in memory, as assemble.Load reads a project.
func project(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return fsys
}

// Project is promptc lint as a library call: build the project in memory, run the stability lints and print the
// findings as the command does.
func ExampleRun() {
	prog, diags := assemble.Load(project(lintFiles))
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	findings := lint.Run(prog, arts, nil)
	if err := lint.WriteText(os.Stdout, findings); err != nil {
		log.Fatal(err)
	}
	errs, warnings := lint.CountSeverities(findings)
	fmt.Println("errors:", errs, "warnings:", warnings)
	// Output:
	// blocks/main.toml:3:1: warning: constant "spare" is never used: no block emits it with {{const "spare"}} (unused-constant)
	//     fix: emit it with {{const "spare"}} where the rule applies, or delete it
	// blocks/main.toml:13:23: error: block "issue-only" pastes the text of constant "boundary" (blocks/main.toml:2:1) instead of using it: one rule, one place; the copy will drift from the constant (pasted-constant)
	//     fix: replace the text with {{const "boundary"}}
	// 1 error, 1 warning
	// errors: 1 warnings: 1
}

// Fixture measures the runbooks of one fixture; a fixture the project does not have is an error that suggests
// the closest name, as promptc lint --fixture reports it.
func ExampleRunFixture() {
	prog, diags := assemble.Load(project(lintFiles))
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	findings, err := lint.RunFixture(prog, arts, nil, "default")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(lint.Summary(findings))
	_, err = lint.RunFixture(prog, arts, nil, "defualt")
	fmt.Println(err)
	// Output:
	// 1 error, 1 warning
	// no fixture "defualt" (did you mean "default"?)
}

// UseConst is a fix as data: a program that edits the project (an editor's code action) reads a finding's Extra,
// not the English of its Suggestion, and replaces the text at the finding's Subject by the const call.
func ExampleUseConst() {
	prog, diags := assemble.Load(project(lintFiles))
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	for _, f := range lint.Run(prog, arts, nil) {
		if fix, ok := f.Extra.(lint.UseConst); ok {
			r := f.Range()
			pasted := prog.Project.Files[r.Filename].Text[r.Start.Byte:r.End.Byte]
			fmt.Printf("%s: replace %q by {{const %q}}\n", r, pasted, fix.Name)
		}
	}
	// Output:
	// blocks/main.toml:13:23: replace "Run only the commands listed in this runbook." by {{const "boundary"}}
}
