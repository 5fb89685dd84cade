package guard_test

import (
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/guard"
)

// checkOf runs Check on a project of files.
func checkOf(t *testing.T, files map[string]string) *guard.Result {
	t.Helper()
	dir := writeProject(files)
	t.Cleanup(func() { os.RemoveAll(dir) })
	prog, diags := assemble.LoadDir(dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	res, err := guard.Check(prog, filepath.Join(dir, "golden"), guard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestWriteFollowUp(t *testing.T) {
	changed := checkOf(t, exampleFiles)
	noGolden := checkOf(t, map[string]string{"promptc.toml": exampleFiles["promptc.toml"], "blocks/main.toml": exampleFiles["blocks/main.toml"]})
	passed := checkOf(t, map[string]string{
		"promptc.toml":                exampleFiles["promptc.toml"],
		"blocks/main.toml":            exampleFiles["blocks/main.toml"],
		"golden/t/default.runbook.md": "Never push to main.\n",
	})
	tests := []struct {
		name       string
		res        *guard.Result
		invocation string
		verbose    bool
		want       string
	}{
		{"changed", changed, "", false, "\nTo accept these changes, run: promptc check --update\n"},
		{"changed under -C", changed, "promptc -C 'my dir'", true, "\nTo accept these changes, run: promptc -C 'my dir' check --update\n"},
		{"no golden", noGolden, "promptc -C p", false, "\nTo write golden/, run: promptc -C p check --update (promptc -C p check --verbose prints every artifact)\n"},
		{"no golden, verbose", noGolden, "", true, "\nTo write golden/, run: promptc check --update\n"},
		{"passed", passed, "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := tt.res.WriteFollowUp(&b, tt.invocation, tt.verbose); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("WriteFollowUp:\n got %q\nwant %q", b.String(), tt.want)
			}
		})
	}
}

// WriteFollowUp ends a failed check with the command that accepts the change, as promptc check prints it.
func ExampleResult_WriteFollowUp() {
	dir := writeProject(exampleFiles)
	defer os.RemoveAll(dir)
	prog, diags := assemble.LoadDir(dir)
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	res, err := guard.Check(prog, filepath.Join(dir, "golden"), guard.Options{})
	if err != nil {
		log.Fatal(err)
	}
	if err := res.WriteFollowUp(os.Stdout, "promptc -C prompts", false); err != nil {
		log.Fatal(err)
	}
	// Output:
	// To accept these changes, run: promptc -C prompts check --update
}
