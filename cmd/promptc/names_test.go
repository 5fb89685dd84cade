package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/promptc/promptc/internal/testenv"
)

// hostileName is a file or directory name built to forge output: a newline followed by a GitHub Actions workflow
// command, an OSC sequence that retitles a terminal, and a CSI colour escape.
const hostileName = "a\n::error file=x::forged\x1b]0;owned\x07\x1b[31m.md"

// TestHostileNames runs every command that prints a user-supplied name (a path, a flag name, a directory) with a
// hostile one, and checks that no control byte other than the line ends reaches stdout or stderr, and that no line
// starts with a workflow command: each name goes through source.QuoteName.
func TestHostileNames(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"proj/promptc.toml": "name = \"a\"\ntasks = [\"t\"]\n[runbook]\norder = [\"r\"]\n[turn]\norder = [\"u\"]\n[vars.x]\nscope = \"turn\"\ntype = \"string\"\n" +
			"[[target]]\nname = \"x\"\nfile = \"CLAUDE.md\"\nbegin = \"<!-- BEGIN X -->\"\nend = \"<!-- END X -->\"\n",
		"proj/blocks/a.toml":            "[[block]]\nid = \"r\"\nbody = \"Rules.\"\n[[block]]\nid = \"u\"\nbody = \"{{.x}}\"\n",
		"src/" + hostileName:            "# Review\n\nRead the diff.  \n",
		"proj/" + hostileName:           "not a values file",
		"proj/fixtures/f.toml":          "[[turn]]\nx = \"1\"\n",
		"dirs/" + hostileName + "/keep": "",
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			testenv.Absent(t, "no such file names here: %v", err)
		}
	}
	proj := filepath.Join(root, "proj")
	missing := filepath.Join(root, "missing-"+hostileName)
	tests := []struct {
		name string
		dir  string // working directory
		args []string
	}{
		{"-C missing", root, []string{"-C", missing, "build"}},
		{"-C not a project", root, []string{"-C", filepath.Join("dirs", hostileName), "build"}},
		{"unknown flag", proj, []string{"build", "--" + hostileName}},
		{"unknown global flag", proj, []string{"--" + hostileName, "build"}},
		{"import", root, []string{"import", "src/" + hostileName, "--out", "out-" + hostileName}},
		{"import missing", root, []string{"import", missing, "--out", "imported2"}},
		{"import unknown flag", root, []string{"import", "src/" + hostileName, "--" + hostileName}},
		{"import --task", root, []string{"import", "--task", "t=" + missing, "--out", "imported3"}},
		{"import into", root, []string{"import", "src/" + hostileName, "--out", "out-" + hostileName}},
		{"explain", proj, []string{"explain", hostileName}},
		{"explain missing", proj, []string{"explain", missing + ":3"}},
		{"render --session", proj, []string{"render", "--task", "t", "--session", missing}},
		{"render --session bad", proj, []string{"render", "--task", "t", "--session", hostileName}},
		{"render --turn-file", proj, []string{"render", "--task", "t", "--turn-file", missing}},
		{"render --turn-file bad", proj, []string{"render", "--task", "t", "--turn-file", hostileName}},
		{"project --history", proj, []string{"project", "--task", "t", "--provider", "anthropic", "--history", missing}},
		{"render --fixture", proj, []string{"render", "--task", "t", "--fixture", hostileName}},
		{"render --task", proj, []string{"render", "--task", hostileName}},
		{"install --dir", proj, []string{"install", "--task", "t", "--target", "x", "--dir", missing}},
		{"install --check", root, []string{"-C", "proj", "install", "--check", "--task", "t", "--target", "x", "--dir", filepath.Join(root, "dirs", hostileName)}},
		{"install", root, []string{"-C", "proj", "install", "--task", "t", "--target", "x", "--dir", filepath.Join(root, "dirs", hostileName)}},
		{"uninstall", root, []string{"-C", "proj", "uninstall", "--target", "x", "--dir", filepath.Join(root, "dirs", hostileName)}},
		{"build --out", proj, []string{"build", "--out", filepath.Join(proj, "golden", hostileName)}},
		{"init", root, []string{"init", "src/" + hostileName}},
		{"init new", root, []string{"init", "new-" + hostileName}},
		{"hook check", root, []string{"hook", "check", missing}},
		{"unknown command", proj, []string{hostileName}},
		{"check argument", proj, []string{"check", hostileName}},
		{"usage missing", proj, []string{"usage", missing}},
		{"usage bad lines", proj, []string{"usage", hostileName}},
		{"miss missing", proj, []string{"miss", missing, hostileName}},
		{"miss bad body", proj, []string{"miss", hostileName, hostileName}},
		{"serve --addr", proj, []string{"serve", "--addr", hostileName}},
		{"lsp argument", proj, []string{"lsp", hostileName}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(tt.dir)
			var stdout, stderr bytes.Buffer
			run(append([]string{"promptc"}, tt.args...), &stdout, &stderr)
			// The name is printed, quoted: not dropped from the message.
			if all := stdout.String() + stderr.String(); !strings.Contains(all, `a\n::error`) {
				t.Errorf("the name is not printed quoted:\n%s", all)
			}
			for name, out := range map[string]string{"stdout": stdout.String(), "stderr": stderr.String()} {
				for _, r := range out {
					if r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
						t.Errorf("%s holds control character %U:\n%s", name, r, out)
						break
					}
				}
				for _, line := range strings.Split(out, "\n") {
					if strings.HasPrefix(line, "::") {
						t.Errorf("%s has a line forged by the name: %q", name, line)
					}
				}
			}
		})
	}
}
