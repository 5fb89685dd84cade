package assemble_test

import "testing"

// finalNewlineProject is a project whose blocks render in fixture f and not in fixture e (hide = true), with a
// block between and after them that renders nothing; sections holds the manifest's final_newline keys and tables.
func finalNewlineProject(sections string) string {
	return `
-- promptc.toml --
name  = "p"
tasks = ["t"]
` + sections + `
[vars.hide]
scope = "session"
type  = "bool"
[vars.x]
scope = "turn"
type  = "bool"
-- blocks/b.toml --
[[block]]
id    = "a"
title = "A"
when  = "!hide"
body  = "Alpha."

[[block]]
id   = "gone"
body = "{{if .hide}}{{end}}"

[[block]]
id   = "b"
when = "!hide"
body = "Beta."

[[block]]
id   = "c"
when = "!hide"
body = "Gamma."

[[block]]
id   = "gone2"
body = "{{if .x}}x{{end}}"
-- fixtures/f.toml --
[session]
[[turn]]
-- fixtures/e.toml --
[session]
hide = true
[[turn]]
`
}

// TestFinalNewline checks final_newline (docs/reference.md#top-level, #runbook-and-turn): false at the top of
// promptc.toml ends every artifact with its last block's last byte; [runbook] and [turn] may each say otherwise;
// the default, and true, keep the one final newline; an artifact with no block stays empty either way.
func TestFinalNewline(t *testing.T) {
	const runbook, turn = "## A\n\nAlpha.\n\nBeta.", "Gamma."
	tests := []struct {
		name     string
		manifest string
		runbook  string // what ends the runbook of f after its blocks
		turn     string // and its turn message
	}{
		{"default", "[runbook]\norder = [\"a\", \"gone\", \"b\"]\n[turn]\norder = [\"c\", \"gone2\"]\n", "\n", "\n"},
		{"true", "final_newline = true\n[runbook]\norder = [\"a\", \"gone\", \"b\"]\n[turn]\norder = [\"c\", \"gone2\"]\n", "\n", "\n"},
		{"project", "final_newline = false\n[runbook]\norder = [\"a\", \"gone\", \"b\"]\n[turn]\norder = [\"c\", \"gone2\"]\n", "", ""},
		{"turn only", "[runbook]\norder = [\"a\", \"gone\", \"b\"]\n[turn]\norder = [\"c\", \"gone2\"]\nfinal_newline = false\n", "\n", ""},
		{"runbook keeps it against the project", "final_newline = false\n[runbook]\norder = [\"a\", \"gone\", \"b\"]\nfinal_newline = true\n[turn]\norder = [\"c\", \"gone2\"]\n", "\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog := mustLoad(t, archive(finalNewlineProject(tt.manifest)))
			arts, diags := prog.Build()
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			want := map[string]string{
				"t/f.runbook.md": runbook + tt.runbook, "t/f.turn-1.md": turn + tt.turn,
				"t/e.runbook.md": "", "t/e.turn-1.md": "",
			}
			diffTrees(t, tree(arts), want)
			for _, a := range arts {
				checkSpansOf(t, prog, a)
				if a.Text == "" {
					if len(a.Spans) != 0 {
						t.Errorf("%s: empty, with spans %v", a.Path, a.Spans)
					}
					continue
				}
				if last := a.Spans[len(a.Spans)-1]; last.End != len(a.Text) {
					t.Errorf("%s: the last span ends at %d, the text at %d", a.Path, last.End, len(a.Text))
				}
			}
			// The runtime API renders the same bytes.
			s, err := prog.NewSession("t", nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Runbook().Text; got != want["t/f.runbook.md"] {
				t.Errorf("NewSession runbook = %q", got)
			}
			m, err := s.Turn(nil)
			if err != nil {
				t.Fatal(err)
			}
			if m.Text != want["t/f.turn-1.md"] {
				t.Errorf("Session.Turn = %q", m.Text)
			}
		})
	}
}
