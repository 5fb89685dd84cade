package workspace

import (
	"strings"

	"github.com/promptc/promptc/internal/shell"
)

// InstallCommand is a promptc install command line, as install --check suggests it to bring the files it found
// stale up to date (CheckReport.Fix). Every word is quoted for a POSIX shell where it needs to be.
type InstallCommand struct {
	// Project is the -C argument ("" for none); Dir and Session are --dir and --session as paths from it (or from
	// the working directory, without -C).
	Project, Task string
	Targets       []string
	AllTargets    bool
	Dir           string
	// Fixture and Session are "" when not given.
	Fixture, Session string
}

// String is the command line: promptc [-C PROJECT] install --task T (--all-targets | --target NAME...) --dir DIR
// [--fixture F] [--session FILE].
func (c InstallCommand) String() string {
	args := []string{"promptc"}
	if c.Project != "" {
		args = append(args, "-C", shell.Quote(c.Project))
	}
	args = append(args, "install", "--task", shell.Quote(c.Task))
	if c.AllTargets {
		args = append(args, "--all-targets")
	}
	for _, t := range c.Targets {
		args = append(args, "--target", shell.Quote(t))
	}
	args = append(args, "--dir", shell.Quote(c.Dir))
	if c.Fixture != "" {
		args = append(args, "--fixture", shell.Quote(c.Fixture))
	}
	if c.Session != "" {
		args = append(args, "--session", shell.Quote(c.Session))
	}
	return strings.Join(args, " ")
}
