package workspace_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/workspace"
)

// acme is the target the examples install: a platform's block in a repository's CLAUDE.md. In a project it comes
// from promptc.toml's [[target]] (Project.Target("claude")).
var acme = &blocks.Target{Name: "claude", File: "CLAUDE.md", Begin: "<!-- BEGIN ACME -->", End: "<!-- END ACME -->"}

// show prints a result as a person reads it, with the file named from the directory installed into.
func show(dir string, r workspace.Result) {
	fmt.Println(strings.TrimPrefix(r.String(), dir+string(filepath.Separator)))
}

// A daemon installs each run's runbook into the checkout an agent works in. The repository's own CLAUDE.md keeps
// its text; the block goes after it, is replaced in place when the runbook changes, and is left alone (not even
// rewritten) when it has not.
func ExampleInstall() {
	dir, err := os.MkdirTemp("", "checkout")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte("# Notes\nBe brief.\n"), 0o644); err != nil {
		log.Fatal(err)
	}

	for _, runbook := range []string{"Run the tests.\n", "Run the tests.\n", "Run the tests twice.\n"} {
		results, err := workspace.Install(dir, runbook, acme)
		if err != nil {
			log.Fatal(err)
		}
		for _, r := range results {
			show(dir, r)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "CLAUDE.md"))
	fmt.Printf("%q\n", data)
	// Output:
	// CLAUDE.md: appended the block of target "claude"
	// CLAUDE.md: up to date
	// CLAUDE.md: replaced the block of target "claude"
	// "# Notes\nBe brief.\n\n\n<!-- BEGIN ACME -->\nRun the tests twice.\n<!-- END ACME -->\n"
}

// A repository that commits its context file proves in CI that it is current: Check writes nothing and says what
// Install would do, from which line.
func ExampleCheck() {
	dir, err := os.MkdirTemp("", "repo")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	committed := "# Notes\n\n<!-- BEGIN ACME -->\nRun the tests.\n<!-- END ACME -->\n"
	if err := os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte(committed), 0o644); err != nil {
		log.Fatal(err)
	}

	for _, runbook := range []string{"Run the tests.\n", "Run the tests twice.\n"} {
		results, err := workspace.Check(dir, runbook, acme)
		if err != nil {
			log.Fatal(err)
		}
		for _, r := range results {
			fmt.Printf("%s: changed %v, %v, line %d\n", filepath.Base(r.Path), r.Changed(), r.Action, r.Line)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "CLAUDE.md"))
	fmt.Println("file untouched:", string(data) == committed)
	// Output:
	// CLAUDE.md: changed false, current, line 0
	// CLAUDE.md: changed true, replaced, line 4
	// file untouched: true
}

// When the run is over, Uninstall gives the checkout back as it was: the block goes, with the blank line Install
// put before it, and a file (and directories) that Install created for the block alone go too.
func ExampleUninstall() {
	dir, err := os.MkdirTemp("", "checkout")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte("# Notes\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	copilot := &blocks.Target{Name: "copilot", File: ".github/copilot-instructions.md", Begin: acme.Begin, End: acme.End}
	if _, err := workspace.Install(dir, "Run the tests.\n", acme, copilot); err != nil {
		log.Fatal(err)
	}

	results, err := workspace.Uninstall(dir, acme, copilot)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range results {
		show(dir, r)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "CLAUDE.md"))
	fmt.Printf("%q\n", data)
	_, err = os.Stat(filepath.Join(dir, ".github"))
	fmt.Println(".github removed:", os.IsNotExist(err))
	// Output:
	// CLAUDE.md: removed the block of target "claude"
	// .github/copilot-instructions.md: removed (it held only the block of target "copilot")
	// "# Notes\n"
	// .github removed: true
}

// Installed is the install rule on bytes, for a caller that keeps context files elsewhere than on disk. A mention
// of a marker in the user's text (in prose, in a code span, in a fenced example) is text, not a block.
func ExampleInstalled() {
	block := workspace.Bytes(acme, "Run the tests.\n")
	fmt.Printf("%q\n", block)
	data, _ := workspace.Installed(nil, false, block, acme)
	fmt.Printf("%q\n", data)

	data, _ = workspace.Installed([]byte("Keep `<!-- BEGIN ACME -->` lines."), true, block, acme)
	fmt.Printf("%q\n", data)
	data, _ = workspace.Installed(data, true, workspace.Bytes(acme, "Run them twice.\n"), acme)
	fmt.Printf("%q\n", data)
	// Output:
	// "<!-- BEGIN ACME -->\nRun the tests.\n<!-- END ACME -->\n"
	// "<!-- BEGIN ACME -->\nRun the tests.\n<!-- END ACME -->\n"
	// "Keep `<!-- BEGIN ACME -->` lines.\n\n<!-- BEGIN ACME -->\nRun the tests.\n<!-- END ACME -->\n"
	// "Keep `<!-- BEGIN ACME -->` lines.\n\n<!-- BEGIN ACME -->\nRun them twice.\n<!-- END ACME -->\n"
}

// Uninstalled takes the block out and keeps every other byte, edits made around the block included; remove says
// the file held the block alone and should go.
func ExampleUninstalled() {
	for _, data := range []string{
		"# Notes\n\n\n<!-- BEGIN ACME -->\nRun the tests.\n<!-- END ACME -->\nAdded by hand.\n",
		"<!-- BEGIN ACME -->\nRun the tests.\n<!-- END ACME -->\n",
		"# Notes\n",
	} {
		out, remove, found, err := workspace.Uninstalled([]byte(data), acme)
		fmt.Printf("%q remove=%v found=%v err=%v\n", out, remove, found, err)
	}
	// Output:
	// "# Notes\nAdded by hand.\n" remove=false found=true err=<nil>
	// "" remove=true found=true err=<nil>
	// "# Notes\n" remove=false found=false err=<nil>
}

// Find refuses a file whose block it cannot delimit without risking the user's text: a begin marker with no end
// marker after it, or a second block. The error says which line, and what to do.
func ExampleFind() {
	for _, data := range []string{
		"# Notes\n\n<!-- BEGIN ACME -->\nRun the tests.\n<!-- END ACME -->\n",
		"# Notes\n```\n<!-- BEGIN ACME -->\n<!-- END ACME -->\n```\n",
		"# Notes\n<!-- BEGIN ACME -->\nRun the te",
	} {
		sp, err := workspace.Find([]byte(data), acme)
		var me *workspace.MarkerError
		if errors.As(err, &me) {
			fmt.Printf("refused at line %d\n", me.Line)
			continue
		}
		fmt.Printf("found %v: %q\n", sp.Found, data[sp.Start:sp.End])
	}
	// Output:
	// found true: "<!-- BEGIN ACME -->\nRun the tests.\n<!-- END ACME -->\n"
	// found false: ""
	// refused at line 2
}

// install --check's report: one line per stale file, from the line installing would change, then the command that
// brings them up to date. A CI step prints it and fails when Stale is above zero; it prints nothing when every file
// is current.
func ExampleCheckReport() {
	dir, err := os.MkdirTemp("", "repo")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	committed := "# Notes\n\n<!-- BEGIN ACME -->\nRun the tests.\n<!-- END ACME -->\n"
	if err := os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte(committed), 0o644); err != nil {
		log.Fatal(err)
	}
	codex := &blocks.Target{Name: "codex", File: "AGENTS.md", Begin: acme.Begin, End: acme.End}

	for _, runbook := range []string{"Run the tests.\n", "Run the tests twice.\n"} {
		results, err := workspace.Check(dir, runbook, acme, codex)
		if err != nil {
			log.Fatal(err)
		}
		for i := range results {
			results[i].Path = filepath.Base(results[i].Path) // name the files as from dir
		}
		report := &workspace.CheckReport{Task: "chat", Results: results, Fix: "promptc install --task chat --all-targets --dir ."}
		if err := report.WriteText(os.Stdout); err != nil {
			log.Fatal(err)
		}
		fmt.Println("stale:", report.Stale())
	}
	// Output:
	// AGENTS.md: missing: installing would create it, holding the runbook of task "chat"
	// To update it, run: promptc install --task chat --all-targets --dir .
	// stale: 1
	// CLAUDE.md:4: out of date: the block of target "claude" differs from the runbook of task "chat" from this line on
	// AGENTS.md: missing: installing would create it, holding the runbook of task "chat"
	// To update them, run: promptc install --task chat --all-targets --dir .
	// stale: 2
}

// Uninstall must work on a project in the middle of an edit: LoadTargets reads promptc.toml's targets and ignores
// the problems of blocks/, templates/ and fixtures/, so the runbook a broken project installed can still be taken
// out. A problem in the targets themselves is returned, and then nothing should be uninstalled. SelectTargets
// picks the targets by name as uninstall --target does.
func ExampleLoadTargets() {
	project := fstest.MapFS{
		"promptc.toml": {Data: []byte(`name = "acme"
tasks = ["chat"]

[runbook]
order = ["intro", "renamed-block"]

[[target]]
name  = "claude"
file  = "CLAUDE.md"
begin = "<!-- BEGIN ACME -->"
end   = "<!-- END ACME -->"
`)},
		"blocks/all.toml": {Data: []byte("[[block]]\nid = \"intro\"\nbody = \"{{.unclosed\"\n")},
	}
	p, diags := workspace.LoadTargets(project)
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	targets, err := workspace.SelectTargets(p, []string{"claude"}, false)
	if err != nil {
		log.Fatal(err) // an unknown name: the message suggests the closest and lists them all
	}

	dir, err := os.MkdirTemp("", "checkout")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	installed := "# Notes\n\n\n<!-- BEGIN ACME -->\nRun the tests.\n<!-- END ACME -->\n"
	if err := os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte(installed), 0o644); err != nil {
		log.Fatal(err)
	}
	results, err := workspace.Uninstall(dir, targets...)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range results {
		show(dir, r)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "CLAUDE.md"))
	fmt.Printf("%q\n", data)
	// Output:
	// CLAUDE.md: removed the block of target "claude"
	// "# Notes\n"
}

// The command install --check suggests, each word quoted for a shell where it needs to be.
func ExampleInstallCommand() {
	c := workspace.InstallCommand{Project: "my prompts", Task: "chat", Targets: []string{"claude"}, Dir: "..", Fixture: "basic"}
	fmt.Println(c)
	// Output:
	// promptc -C 'my prompts' install --task chat --target claude --dir .. --fixture basic
}

// A working directory that does not exist is refused before anything is rendered, named as the user gave it.
func ExampleCheckDir() {
	fmt.Println(workspace.CheckDir("agents", filepath.Join(os.TempDir(), "no-such-promptc-dir")))
	fmt.Println(workspace.CheckDir(".", os.TempDir()))
	// Output:
	// agents: no such directory: --dir must name an existing directory; create it first, or correct --dir
	// <nil>
}
