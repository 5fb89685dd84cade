package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestDocsUsageSpans keeps the worked example of docs/usage.md's OpenTelemetry section true: it is the output of the
// command the page gives, on the reference project's collector file, byte for byte.
func TestDocsUsageSpans(t *testing.T) {
	page, err := os.ReadFile("../../docs/usage.md")
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "promptc -C examples/tracker usage logs/otel-traces.json\n```\n\n```\n"
	_, shown, ok := strings.Cut(string(page), cmd)
	if !ok {
		t.Fatalf("docs/usage.md no longer shows %q followed by its output", strings.SplitN(cmd, "\n", 2)[0])
	}
	shown, _, _ = strings.Cut(shown, "```\n")
	var stdout, stderr bytes.Buffer
	args := strings.Fields(strings.SplitN(cmd, "\n", 2)[0])
	args[2] = "../../examples/tracker"
	if code := run(args, &stdout, &stderr); code != 0 || stderr.Len() > 0 {
		t.Fatalf("%s: exit %d: %s", cmd, code, stderr.String())
	}
	if stdout.String() != shown {
		t.Errorf("docs/usage.md shows\n%s\nbut the command prints\n%s", shown, stdout.String())
	}
}
