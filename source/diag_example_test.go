package source_test

import (
	"fmt"
	"strings"

	"github.com/promptc/promptc/source"
)

// Diagnostics is an error that lists every problem, one per line, so that log.Fatal(diags) or fmt.Errorf("…: %w",
// diags) reports them all, not just the first. Sort puts them in the order of the files, whatever order the checks
// ran in.
func ExampleDiagnostics_Error() {
	manifest := source.NewFile("promptc.toml", "name  = \"acme\"\ntasks = [\"issue\"]\n\n[runbook]\norder = [\"rules\", \"missing\"]\n")
	block := source.NewFile("blocks/main.toml", "[[block]]\nid    = \"rules\"\ntitle = \"Rules\"\nlevel = 9\nbody  = \"Be kind.\"\n")
	var diags source.Diagnostics
	at := strings.Index(manifest.Text, `"missing"`)
	diags.Errorf(manifest.Range(at, at+len(`"missing"`)), "runbook.order names unknown block %q", "missing")
	at = strings.Index(block.Text, "level")
	diags.Errorf(block.Range(at, at+len("level = 9")), "level must be between 1 and 6, not %d", 9)
	var err error = diags.Sort().Err()
	fmt.Println(err)
	// Output:
	// blocks/main.toml:4:1: level must be between 1 and 6, not 9
	// promptc.toml:5:19: runbook.order names unknown block "missing"
}
