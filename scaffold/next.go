package scaffold

import (
	"fmt"
	"strings"
)

// NextSteps is what promptc init prints after writing the starter project: the commands to try on it, each with what
// it shows, commands and comments aligned. invocation is how to run promptc on the new project ("promptc -C proj";
// "" for "promptc"), repeated in every command. The commands hold for the starter project as Init writes it: check
// passes and lint is clean at once.
func NextSteps(invocation string) string {
	if invocation == "" {
		invocation = "promptc"
	}
	steps := [][2]string{
		{"render --task " + ExampleTask, "print a runbook"},
		{"render --task " + ExampleTask + " --turn 1", "print the message of turn 1"},
		{"check", "compare every artifact with golden/ (passes now)"},
		{"lint", "stability lints (clean now)"},
	}
	width := 0
	for _, s := range steps {
		width = max(width, len(invocation)+1+len(s[0]))
	}
	var b strings.Builder
	b.WriteString("\nNext, try:\n")
	for _, s := range steps {
		fmt.Fprintf(&b, "  %-*s  # %s\n", width, invocation+" "+s[0], s[1])
	}
	return b.String()
}
