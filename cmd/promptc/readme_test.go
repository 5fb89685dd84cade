package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestREADMESimulate keeps the simulate output the README shows true: it is the output of the command the README
// gives, on the reference project, byte for byte.
func TestREADMESimulate(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "promptc -C examples/tracker simulate --task chat --provider anthropic --fixture conversation\n```\n\n```\n"
	_, shown, ok := strings.Cut(string(readme), cmd)
	if !ok {
		t.Fatalf("README.md no longer shows %q followed by its output", strings.SplitN(cmd, "\n", 2)[0])
	}
	shown, _, _ = strings.Cut(shown, "```\n")
	var stdout, stderr bytes.Buffer
	args := strings.Fields(strings.SplitN(cmd, "\n", 2)[0])
	args[2] = "../../examples/tracker"
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("%s: exit %d: %s", cmd, code, stderr.String())
	}
	if stdout.String() != shown {
		t.Errorf("README.md shows\n%s\nbut the command prints\n%s", shown, stdout.String())
	}
}
