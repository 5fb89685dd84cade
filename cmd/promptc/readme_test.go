package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/internal/cliflag"
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

// TestREADMECommands keeps the README's command list whole: every command and subcommand promptc --help lists has a
// line there, and every flag a command takes is named in its lines (a line and the indented lines after it), and in
// the command's own usage line (its --help), so that neither list lacks what the other has.
func TestREADMECommands(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(readme), "## Commands\n\n```\n")
	if !ok {
		t.Fatal("README.md has no ## Commands block")
	}
	list, _, _ = strings.Cut(list, "```")
	// Each entry: the command line, without the program name and -C, and its continuation lines.
	var entries []string
	for _, line := range strings.Split(list, "\n") {
		switch {
		case strings.HasPrefix(line, "promptc "):
			entries = append(entries, strings.TrimPrefix(strings.TrimPrefix(line, "promptc "), "[-C DIR] "))
		case strings.HasPrefix(line, " ") && len(entries) > 0:
			entries[len(entries)-1] += "\n" + line
		}
	}
	names := func(s string) []string { return regexp.MustCompile(`--?[A-Za-z][A-Za-z-]*`).FindAllString(s, -1) }
	var walk func(path string, cmds []*cli.Command)
	walk = func(path string, cmds []*cli.Command) {
		for _, c := range cmds {
			name := strings.TrimSpace(path + " " + c.Name)
			if len(c.Subcommands) > 0 {
				walk(name, c.Subcommands)
				continue
			}
			var entry string
			for _, e := range entries {
				if e == name || strings.HasPrefix(e, name+" ") {
					entry += e + "\n"
				}
			}
			if entry == "" {
				t.Errorf("README.md lists no promptc %s", name)
				continue
			}
			for _, f := range c.Flags {
				if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
					continue
				}
				flag := cliflag.Dashed(f.Names()[0])
				if !slices.Contains(names(entry), flag) {
					t.Errorf("README.md's promptc %s lacks %s:\n%s", name, flag, entry)
				}
				if !slices.Contains(names(c.UsageText), flag) {
					t.Errorf("promptc %s --help's usage line lacks %s: %s", name, flag, c.UsageText)
				}
			}
		}
	}
	walk("", newApp(&env{}).Commands)
}
