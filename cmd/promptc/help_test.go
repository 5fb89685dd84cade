package main

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/assemble"
)

// TestHelpFiles holds help/*.txt and the command tree to one another: every command and subcommand has a file,
// every file a command, and each file is in the shape describe reads (a one-line summary, usage lines that run the
// command, a description with no blank line in it, which would end it early).
func TestHelpFiles(t *testing.T) {
	files, err := fs.Glob(helpText, "help/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	var walk func(prefix, words string, cmds []*cli.Command)
	walk = func(prefix, words string, cmds []*cli.Command) {
		for _, c := range cmds {
			name, words := prefix+c.Name, strings.TrimSpace(words+" "+c.Name)
			named = append(named, "help/"+name+".txt")
			data, err := helpText.ReadFile("help/" + name + ".txt")
			if err != nil {
				t.Errorf("promptc %s has no help file: write help/%s.txt", words, name)
				continue
			}
			text := string(data)
			if !strings.HasSuffix(text, "\n") || strings.HasSuffix(text, "\n\n") {
				t.Errorf("help/%s.txt must end in one newline", name)
			}
			head, desc, _ := strings.Cut(strings.TrimSuffix(text, "\n"), "\n\n")
			summary, usage, _ := strings.Cut(head, "\n")
			if summary == "" || strings.HasPrefix(summary, "promptc ") || usage == "" || c.Usage != summary || c.UsageText != usage {
				t.Errorf("help/%s.txt: want a summary line, then usage lines; read summary %q, usage %q", name, c.Usage, c.UsageText)
			}
			if c.Description != desc || strings.Contains(desc, "\n\n") {
				t.Errorf("help/%s.txt: description %q, read as %q", name, desc, c.Description)
			}
			for line := range strings.SplitSeq(usage, "\n") {
				line = strings.Replace(line, "promptc [-C DIR] ", "promptc ", 1)
				if !strings.HasPrefix(line, "promptc "+words) && !strings.HasPrefix(line, "    [") {
					t.Errorf("help/%s.txt: usage line %q does not run promptc %s", name, line, words)
				}
			}
			walk(name+"-", words, c.Subcommands)
		}
	}
	walk("", "", newApp(&env{}).Commands)
	for _, f := range files {
		if !slices.Contains(named, f) {
			t.Errorf("%s names no command of promptc (a command NAME reads help/NAME.txt, hook's NAME help/hook-NAME.txt)", path.Base(f))
		}
	}
	// The description says where build lists what it wrote: the name the code writes.
	if data, _ := helpText.ReadFile("help/build.txt"); !strings.Contains(string(data), "DIR/"+assemble.BuildManifest+".") {
		t.Errorf("help/build.txt does not name the build manifest %s", assemble.BuildManifest)
	}
}
