package analysis_test

import (
	"fmt"
	"strings"
	"testing/fstest"

	"github.com/promptc/promptc/analysis"
)

// demo is a small project: one constant used by two blocks, one in a TOML body and one in a template.
var demo = fstest.MapFS{
	"promptc.toml": {Data: []byte(`name  = "demo"
tasks = ["chat", "issue"]

[runbook]
order = ["rules", "workflow"]

[vars.agent]
scope = "session"
type  = "string"
`)},
	"blocks/main.toml": {Data: []byte(`[const]
tone = "Answer in one short paragraph."

[[block]]
id    = "rules"
title = "Rules"
body  = "{{const \"tone\"}}"

[[block]]
id       = "workflow"
template = "workflow.md"
`)},
	"templates/workflow.md": {Data: []byte("Hello {{.agent}}. {{const \"tone\"}} See {{ref \"rules\"}}.\n")},
}

// The references of a constant, from its use in a template: the definition and both uses, each exactly the name.
func ExampleSnapshot_References() {
	s := analysis.Load(demo)
	text := s.File("templates/workflow.md").Text
	off := strings.Index(text, `tone"`)
	for _, r := range s.References("templates/workflow.md", off, true) {
		fmt.Printf("%s-%d %s\n", r, r.End.Column, s.File(r.Filename).Text[r.Start.Byte:r.End.Byte])
	}
	// Output:
	// blocks/main.toml:2:1-5 tone
	// blocks/main.toml:7:20-24 tone
	// templates/workflow.md:1:28-32 tone
}

// An unsaved buffer overrides the file on disk: its typo is reported at once, with the suggestion.
func ExampleOverlay() {
	over := map[string]string{"templates/workflow.md": "Hello {{.agent}}. {{const \"tones\"}}\n"}
	s := analysis.Load(analysis.Overlay(demo, over))
	for _, d := range s.Diagnostics() {
		fmt.Println(d)
	}
	// Output:
	// templates/workflow.md:1:27: block "workflow" uses unknown constant "tones" (did you mean "tone"?): define it under [const] in a blocks/ file
}

// A rename edits the definition and every use, in TOML files and templates; a taken name is refused.
func ExampleSnapshot_Rename() {
	s := analysis.Load(demo)
	off := strings.Index(s.File("promptc.toml").Text, `"rules"`) + 1
	edits, err := s.Rename("promptc.toml", off, "style")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []string{"blocks/main.toml", "promptc.toml", "templates/workflow.md"} {
		for _, e := range edits[name] {
			fmt.Printf("%s: %q\n", e.Range, e.NewText)
		}
	}
	_, err = s.Rename("promptc.toml", off, "workflow")
	fmt.Println(err)
	// Output:
	// blocks/main.toml:5:10: "style"
	// promptc.toml:5:11: "style"
	// templates/workflow.md:1:47: "style"
	// block id "workflow" is taken (blocks/main.toml:10:1)
}

// Hover on a block id in runbook.order: its scope, and why.
func ExampleSnapshot_Hover() {
	s := analysis.Load(demo)
	off := strings.Index(s.File("promptc.toml").Text, `"workflow"`) + 1
	h, _ := s.Hover("promptc.toml", off)
	fmt.Println(strings.Join(strings.Split(h.Text, "\n")[:4], "\n"))
	// Output:
	// **block "workflow"** (runbook, blocks/main.toml:10:1)
	//
	// scope: **session**, because
	// - its body reads session variable "agent" (templates/workflow.md:1:9)
}

// Go to definition from an order list: the block's id in its [[block]] table; from a template's name: the file.
func ExampleSnapshot_Definition() {
	s := analysis.Load(demo)
	manifest := s.File("promptc.toml").Text
	for _, r := range s.Definition("promptc.toml", strings.Index(manifest, `"rules"`)+1) {
		fmt.Println(r)
	}
	blocksFile := s.File("blocks/main.toml").Text
	for _, r := range s.Definition("blocks/main.toml", strings.Index(blocksFile, `"workflow.md"`)+1) {
		fmt.Println(r)
	}
	// Output:
	// blocks/main.toml:5:10
	// templates/workflow.md:1:1
}

// An editor reloads the project at every keystroke through one Cache: the second load parses and decodes only the
// edited file, and reparses only the body that changed; what it answers is what a load from nothing answers.
func ExampleCache() {
	c := analysis.NewCache()
	c.Load(demo)
	typed := strings.Replace(string(demo["blocks/main.toml"].Data), `{{const \"tone\"}}`, `{{const \"tones\"}}`, 1)
	edited := analysis.Overlay(demo, map[string]string{"blocks/main.toml": typed})
	warm, cold := c.Load(edited), analysis.Load(edited)
	fmt.Println(warm.Diagnostics()[0].Summary)
	fmt.Println(fmt.Sprint(warm.Diagnostics()) == fmt.Sprint(cold.Diagnostics()))
	// Output:
	// block "rules" uses unknown constant "tones" (did you mean "tone"?): define it under [const] in a blocks/ file
	// true
}
