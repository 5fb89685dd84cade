package stats_test

import (
	"fmt"
	"log"
	"os"
	"testing/fstest"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/stats"
)

var statsFiles = map[string]string{
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

// Measure is promptc stats: bytes and tokens per block and scope of each task's runbook, and the prefix the tasks
// share.
func ExampleMeasure() {
	prog, diags := assemble.Load(project(statsFiles))
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	if err := stats.Measure(prog, arts, nil).WriteText(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// Token counts are o200k_base estimates. Block bytes include the separator before the block.
	//
	// task issue: issue/default.runbook.md (fixture "default", the only fixture rendering it)
	//   block       scope   bytes  tokens  source
	//   rules       global     75      18  blocks/main.toml:6:1
	//   issue-only  task       61      14  blocks/main.toml:11:1
	//   total                 136      31
	//
	//   scope    blocks  bytes  tokens
	//   global        1     75      18
	//   task          1     61      14
	//   session       0      0       0
	//   turn          0      0       0  in 0 turn messages
	//
	//   prefix               bytes  tokens  ends at  ends in
	//   global                  77      18  5:1      "issue-only"
	//   task                   136      31  6:1      (end of runbook)
	//   common to 1 fixture    136      31  6:1      (end of runbook)
	//
	// task chat: chat/default.runbook.md (fixture "default", the only fixture rendering it)
	//   block  scope   bytes  tokens  source
	//   rules  global     76      18  blocks/main.toml:6:1
	//   total             76      18
	//
	//   scope    blocks  bytes  tokens
	//   global        1     76      18
	//   task          0      0       0
	//   session       0      0       0
	//   turn          0      0       0  in 0 turn messages
	//
	//   prefix               bytes  tokens  ends at  ends in
	//   global                  76      18  4:1      (end of runbook)
	//   task                    76      18  4:1      (end of runbook)
	//   common to 1 fixture     76      18  4:1      (end of runbook)
	//
	// shared by every task: 76 bytes, 18 tokens, up to 4:1
	//   task   runbook                   ends in
	//   issue  issue/default.runbook.md  "issue-only"
	//   chat   chat/default.runbook.md   (end of runbook)
}

// MeasureFixture samples the named fixture's runbooks; the report says which fixture it measured.
func ExampleMeasureFixture() {
	prog, diags := assemble.Load(project(statsFiles))
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	r, err := stats.MeasureFixture(prog, arts, nil, "default")
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range r.Tasks {
		fmt.Println(t.Task, t.Artifact, t.Bytes, t.Tokens)
	}
	// Output:
	// issue issue/default.runbook.md 136 31
	// chat chat/default.runbook.md 76 18
}
