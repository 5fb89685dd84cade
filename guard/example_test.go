package guard_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/promptc/promptc/report"
	"log"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/guard"
)

// exampleFiles is a one-task project whose committed golden file says "Main" where the block now says "main".
var exampleFiles = map[string]string{
	"promptc.toml": `name  = "acme"
tasks = ["t"]

[runbook]
order = ["rules"]
`,
	"blocks/main.toml": `[[block]]
id   = "rules"
body = "Never push to main."
`,
	"golden/t/default.runbook.md": "Never push to Main.\n",
}

// writeProject writes files (slash path → text) under a new temporary directory and returns it.
func writeProject(files map[string]string) string {
	dir, err := os.MkdirTemp("", "promptc-example-")
	if err != nil {
		log.Fatal(err)
	}
	for p, text := range files {
		name := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	return dir
}

// Check is promptc check as a library call: compare what the project builds with golden/, and print the report a
// reviewer reads when they differ.
func ExampleCheck() {
	dir := writeProject(exampleFiles)
	defer os.RemoveAll(dir)

	prog, diags := assemble.LoadDir(dir)
	if len(diags) > 0 {
		log.Fatal(diags) // every problem, path:line:col
	}
	res, err := guard.Check(prog, filepath.Join(dir, "golden"), guard.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("passed:", res.Passed())
	if err := res.WriteText(os.Stdout, guard.TextOptions{}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// passed: false
	// promptc check: 1 artifact differs from golden/
	//   global prefix changed: every task's cache is invalidated
	//   cached prefix invalidated, summed over artifacts: 6 bytes, 2 tokens (o200k_base estimates)
	//
	// t/default.runbook.md: changed at byte 14 (line 1, col 15)
	//   block: rules (blocks/main.toml:2:1), scope global
	//   cache: invalidates 6 bytes, 2 tokens of cached prefix
	// --- golden/t/default.runbook.md
	// +++ build/t/default.runbook.md
	// @@ -1 +1 @@
	// -Never push to Main.
	// +Never push to main.
}

// Update is promptc check --update: accept what the project builds as the new golden/. Check passes after it.
func ExampleUpdate() {
	dir := writeProject(exampleFiles)
	defer os.RemoveAll(dir)

	prog, diags := assemble.LoadDir(dir)
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	u, err := guard.Update(prog, filepath.Join(dir, "golden"))
	if err != nil {
		log.Fatal(err)
	}
	if err := u.WriteText(os.Stdout); err != nil {
		log.Fatal(err)
	}
	res, err := guard.Check(prog, filepath.Join(dir, "golden"), guard.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("passed:", res.Passed())
	// Output:
	// promptc: wrote golden/.gitattributes
	// promptc: wrote golden/t/default.runbook.md
	// promptc: 0 files in golden/ left unchanged
	// passed: true
}

// UpdateDir is promptc check --update run in a project directory: load the project and accept what it builds as
// root/golden. CheckDir passes after it.
func ExampleUpdateDir() {
	dir := writeProject(exampleFiles)
	defer os.RemoveAll(dir)

	u, err := guard.UpdateDir(dir)
	if err != nil {
		log.Fatal(err) // a source.Diagnostics when the project does not compile
	}
	if err := u.WriteText(os.Stdout); err != nil {
		log.Fatal(err)
	}
	res, err := guard.CheckDir(dir, guard.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("passed:", res.Passed())
	// Output:
	// promptc: wrote golden/.gitattributes
	// promptc: wrote golden/t/default.runbook.md
	// promptc: 0 files in golden/ left unchanged
	// passed: true
}

// Diff is promptc diff: compare the project as committed at a git revision with its working tree. Here a commit
// holds the project, and an uncommitted edit changes its rules.
func ExampleDiff() {
	dir := writeProject(map[string]string{
		"promptc.toml":     exampleFiles["promptc.toml"],
		"blocks/main.toml": exampleFiles["blocks/main.toml"],
	})
	defer os.RemoveAll(dir)
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=Example", "-c", "user.email=example@example.com",
			"-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			log.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "first prompts")
	edited := "[[block]]\nid   = \"rules\"\nbody = \"Never push to main or release.\"\n"
	if err := os.WriteFile(filepath.Join(dir, "blocks", "main.toml"), []byte(edited), 0o644); err != nil {
		log.Fatal(err)
	}

	res, err := guard.Diff(dir, "HEAD", guard.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("changed:", res.Changed())
	if err := res.WriteText(os.Stdout, guard.TextOptions{}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// changed: true
	// promptc diff HEAD: 1 artifact changed
	//   global prefix changed: every task's cache is invalidated
	//   cached prefix invalidated, summed over artifacts: 2 bytes, 1 token (o200k_base estimates)
	//
	// t/default.runbook.md: changed at byte 18 (line 1, col 19)
	//   block: rules (blocks/main.toml:2:1), scope global
	//   cache: invalidates 2 bytes, 1 token of cached prefix
	// --- a/t/default.runbook.md
	// +++ b/t/default.runbook.md
	// @@ -1 +1 @@
	// -Never push to main.
	// +Never push to main or release.
}

// WriteCheck is what promptc check prints when golden/ is behind the sources: the report, then the command that accepts
// the change, as the user ran promptc.
func ExampleResult_WriteCheck() {
	dir := writeProject(exampleFiles)
	defer os.RemoveAll(dir)

	res, err := guard.CheckDir(dir, guard.Options{})
	if err != nil {
		log.Fatal(err)
	}
	if err := res.WriteCheck(os.Stdout, guard.Reader{Root: dir}, "promptc -C acme", false); err != nil {
		log.Fatal(err)
	}
	// Output:
	// promptc check: 1 artifact differs from golden/
	//   global prefix changed: every task's cache is invalidated
	//   cached prefix invalidated, summed over artifacts: 6 bytes, 2 tokens (o200k_base estimates)
	//
	// t/default.runbook.md: changed at byte 14 (line 1, col 15)
	//   block: rules (blocks/main.toml:2:1), scope global
	//   cache: invalidates 6 bytes, 2 tokens of cached prefix
	// --- golden/t/default.runbook.md
	// +++ build/t/default.runbook.md
	// @@ -1 +1 @@
	// -Never push to Main.
	// +Never push to main.
	//
	// To accept these changes, run: promptc -C acme check --update
}

// Write picks the writer promptc diff --format names: here JSON, whose fields docs/guard.md lists.
func ExampleResult_Write() {
	dir := writeProject(exampleFiles)
	defer os.RemoveAll(dir)

	res, err := guard.CheckDir(dir, guard.Options{})
	if err != nil {
		log.Fatal(err)
	}
	var out strings.Builder
	if err := res.Write(&out, report.JSON, guard.Reader{Root: dir}); err != nil {
		log.Fatal(err)
	}
	var doc struct {
		Summary struct{ Lines []string } `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out.String()), &doc); err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.Join(doc.Summary.Lines, "\n"))
	// Output:
	// global prefix changed: every task's cache is invalidated
}
