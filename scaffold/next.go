package scaffold

import (
	"fmt"
	"strings"

	"github.com/promptc/promptc/internal/shell"
	"github.com/promptc/promptc/source"
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

// Wrote is what promptc init and import print first after writing a new project: the header "promptc CMD: wrote a
// new project in DIR" (detail follows DIR, as import's counts do), then each written file, one a line, quoted as
// source.QuoteName quotes names. arg is the directory as the user named it ("": the working directory); invocation
// is how to run promptc on the new project, for NextSteps.
func Wrote(cmd, arg, detail string, written []string) (text, invocation string) {
	var b strings.Builder
	fmt.Fprintf(&b, "promptc %s: wrote a new project in %s%s:\n", cmd, WhereName(arg), detail)
	for _, p := range written {
		b.WriteString("  " + source.QuoteName(p) + "\n")
	}
	invocation = "promptc"
	if arg != "" && arg != "." {
		invocation += " -C " + shell.Quote(arg)
	}
	return b.String(), invocation
}

// WhereName names the directory arg as messages do: quoted as source.QuoteName quotes names, or "the working
// directory" for "".
func WhereName(arg string) string {
	if arg == "" {
		return "the working directory"
	}
	return source.QuoteName(arg)
}
