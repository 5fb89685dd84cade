package blocks_test

import (
	"fmt"
	"testing/fstest"

	"github.com/promptc/promptc/blocks"
)

// Diagnostics is an error that lists every problem, one per line, so that log.Fatal(diags) or fmt.Errorf("…: %w",
// diags) reports them all, not just the first.
func ExampleDiagnostics_Error() {
	fsys := fstest.MapFS{
		"promptc.toml":     {Data: []byte("name  = \"acme\"\ntasks = [\"issue\"]\n\n[runbook]\norder = [\"rules\", \"missing\"]\n")},
		"blocks/main.toml": {Data: []byte("[[block]]\nid    = \"rules\"\ntitle = \"Rules\"\nlevel = 9\nbody  = \"Be kind.\"\n")},
	}
	_, diags := blocks.Load(fsys)
	var err error = diags.Err()
	fmt.Println(err)
	// Output:
	// blocks/main.toml:4:1: level must be between 1 and 6, not 9
	// promptc.toml:5:19: runbook.order names unknown block "missing"
}
