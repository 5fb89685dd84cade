package main

import (
	"bytes"
	"os"
	"path/filepath"
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

// TestDocsNoRelativeGlobUnderC: an example that runs promptc -C DIR with a relative glob (logs/*.jsonl) reads the
// files the glob names from DIR while the shell expanded it where the reader stands, so it finds nothing or other
// files. Such an example runs from the project, or writes the glob absolute ("$PWD"/logs/*.jsonl).
func TestDocsNoRelativeGlobUnderC(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(files, "../../README.md") {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			_, cmd, ok := strings.Cut(line, "promptc -C ")
			if !ok {
				continue
			}
			// This command only: up to a comment or the next command of the line.
			cmd, _, _ = strings.Cut(cmd, "#")
			for _, op := range []string{"|", ";", "&&", ">", "<"} {
				cmd, _, _ = strings.Cut(cmd, op)
			}
			for _, w := range strings.Fields(cmd) {
				w = strings.Trim(w, "`()")
				if strings.Contains(w, "*") && !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, `"$PWD"`) && !strings.HasPrefix(w, "$PWD") {
					t.Errorf("%s:%d: promptc -C with the relative glob %s, which the shell expands outside the -C directory: %s", filepath.Base(name), i+1, w, strings.TrimSpace(line))
				}
			}
		}
	}
}
