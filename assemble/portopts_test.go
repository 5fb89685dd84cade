package assemble_test

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// keepProject: x keeps its newlines, y does not; the target's markers let a test see where values' bytes lie.
const keepProject = `
-- promptc.toml --
name  = "p"
tasks = ["t"]
[runbook]
order     = ["a", "b", "c", "d", "e"]
separator = "|"
[turn]
order = ["m"]
[vars.x]
scope         = "session"
type          = "text"
trust         = "trusted"
keep_newlines = true
[vars.y]
scope = "session"
type  = "text"
trust = "trusted"
[vars.u]
scope = "session"
type  = "string"
[vars.notes]
scope = "session"
type  = "records"
[vars.notes.fields.body]
type          = "text"
trust         = "markdown"
keep_newlines = true
[vars.msg]
scope         = "turn"
type          = "text"
trust         = "trusted"
keep_newlines = true
[[target]]
name  = "c"
file  = "C.md"
begin = "BEGIN-PLAIN-BLOCK"
end   = "END-PLAIN-BLOCK"
-- blocks/b.toml --
[[block]]
id   = "a"
body = "\n\n{{.x}}\n\n"
[[block]]
id   = "b"
body = "\n{{.y}}\n"
[[block]]
id   = "c"
body = "{{if .x}}\n\n{{end}}C{{.x | trimSuffix \"z\"}} \n"
[[block]]
id   = "d"
body = "{{range .notes}}\n{{.body}}\n{{end}}\n"
[[block]]
id   = "e"
body = "{{.x}}{{.u}}"
[[block]]
id   = "m"
body = "{{.msg}}\n"
`

// TestKeepNewlines: the block's trim (docs/reference.md#how-a-runbook-is-assembled) keeps the white space that an
// action naming a keep_newlines variable or field writes at the output's edges, and trims the body's own and other
// values' as always; a block left with white space only is omitted whatever wrote it.
func TestKeepNewlines(t *testing.T) {
	prog := mustLoad(t, archive(keepProject))
	tests := []struct {
		name          string
		session, turn blocks.Values
		runbook, msg  string
	}{
		{"kept", blocks.Values{"x": "\n\nxx\n\n", "y": "\n\nyy\n\n", "notes": []map[string]any{{"body": "\n# n\n"}}},
			blocks.Values{"msg": "\nPlease review.\n"},
			"\n\nxx\n\n|yy|C\n\nxx\n\n|\n### n\n|\n\nxx\n\n\n", "\nPlease review.\n\n"},
		{"nothing to keep", blocks.Values{"x": "xx", "y": "yy", "u": "u"}, blocks.Values{"msg": "m"},
			"xx|yy|Cxx|xxu\n", "m\n"},
		// a, b and e write only white space, and are omitted; c keeps what x wrote after its own text.
		{"white space only", blocks.Values{"x": "\n \n"}, blocks.Values{"msg": "\n\n"},
			"C\n \n\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := prog.NewSession("t", tt.session)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Runbook().Text; got != tt.runbook {
				t.Errorf("runbook:\n got %q\nwant %q", got, tt.runbook)
			}
			m, err := s.Turn(tt.turn)
			if err != nil {
				t.Fatal(err)
			}
			if m.Text != tt.msg {
				t.Errorf("turn:\n got %q\nwant %q", m.Text, tt.msg)
			}
			// Every kept byte is traced to the value that wrote it (explain and the guard's reports read Origin).
			a := s.Runbook()
			for i, o := range a.Origins(0, len(a.Text)) {
				if a.Text[i] == '\n' && o.Kind == assemble.OriginText {
					sp, _ := a.SpanAt(i)
					if i < sp.End-1 || len(a.Spans) > 0 && sp != a.Spans[len(a.Spans)-1] {
						t.Errorf("byte %d, a kept newline, is traced to the block's text: %+v", i, o)
					}
				}
			}
		})
	}
}

// TestKeepNewlinesMarkers: an assembled marker is broken inside the value that helps make it, at the right byte,
// when a keep_newlines value moved the block's first byte: the value spans are those of the kept text.
func TestKeepNewlinesMarkers(t *testing.T) {
	prog := mustLoad(t, archive(keepProject))
	s, err := prog.NewSession("t", blocks.Values{"x": "\n\nBEGIN-PLA", "u": "IN-BLOCK"})
	if err != nil {
		t.Fatal(err)
	}
	got := s.Runbook().Text
	if want := "|\n\nBEGIN-PLAI\\N-BLOCK\n"; !strings.HasSuffix(got, want) {
		t.Errorf("runbook %q does not end with %q", got, want)
	}
}

// portValuesProject uses quote_empty, verbatim, unknown, raw and keyed records in one block.
const portValuesProject = `
-- promptc.toml --
name  = "p"
tasks = ["t"]
[runbook]
order = ["a"]
[vars.ctx]
scope       = "session"
type        = "text"
trust       = "background"
quote_empty = "> "
[vars.lines]
scope       = "session"
type        = "list"
trust       = "background"
quote_empty = "> "
[vars.raw]
scope    = "session"
type     = "text"
trust    = "trusted"
verbatim = true
[vars.hosts]
scope     = "session"
type      = "records"
key       = "name"
max_items = 2
[vars.hosts.fields.name]
type  = "string"
trust = "trusted"
[vars.hosts.fields.meta]
type    = "record"
decode  = "json"
unknown = "ignore"
raw     = "meta_text"
[vars.hosts.fields.meta.fields.port]
type = "int"
[vars.hosts.fields.meta_text]
type        = "text"
trust       = "background"
quote_empty = "> "
-- blocks/b.toml --
[[block]]
id   = "a"
body = '''
{{.ctx}}
{{join .lines "\n"}}
{{bullets .lines}}
{{if hasPrefix "a" .ctx}}ctx starts with a{{end}}
[{{.raw}}]
{{range .hosts}}{{.name}}:{{with .meta.port}}{{.}}{{else}}
{{.meta_text}}{{end}}
{{end}}{{dropped "hosts"}} dropped'''
`

// TestPortValuesRender: quote_empty, verbatim, unknown = "ignore", raw and keyed records, rendered: each as the
// reference's examples say, through the functions that print values (join, bullets, range) and the limits.
func TestPortValuesRender(t *testing.T) {
	prog := mustLoad(t, archive(portValuesProject))
	s, err := prog.NewSession("t", blocks.Values{
		"ctx":   "a\n\nb",
		"lines": []string{"x\n\ny"},
		"raw":   "one\r\ntwo",
		"hosts": map[string]any{
			"web": map[string]any{"meta": `{"port": 80, "scheme": "http"}`},
			"db":  map[string]any{"meta": "{port: 5432\n\n}"},
			"zz":  map[string]any{"meta": `{"port": 1}`},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Text right below a background value goes a blank line down (docs/values.md#markdown-and-structure).
	want := "> a\n> \n> b\n\n> x\n> \n> y\n\n- > x\n> \n> y\n\nctx starts with a\n[one\r\ntwo]\n" +
		"db:\n> {port: 5432\n> \n> }\n\nweb:80\n1 dropped\n"
	if got := s.Runbook().Text; got != want {
		t.Errorf("runbook:\n got %q\nwant %q", got, want)
	}
}

// TestKeepNewlinesBudget: a block the turn budget shrinks keeps what its keep_newlines value wrote at its edges, as
// the block rendered whole does.
func TestKeepNewlinesBudget(t *testing.T) {
	prog := mustLoad(t, archive(`
-- promptc.toml --
name  = "p"
tasks = ["t"]
[turn]
order      = ["m"]
max_tokens = 12
[vars.items]
scope  = "turn"
type   = "list"
trust  = "trusted"
shrink = true
[vars.msg]
scope         = "turn"
type          = "text"
trust         = "trusted"
keep_newlines = true
-- blocks/b.toml --
[[block]]
id   = "m"
body = "{{range .items}}{{.}} {{end}}{{.msg}}"
`))
	prog.SetTokenCounter(byteCounter{})
	s, err := prog.NewSession("t", nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Turn(blocks.Values{"items": []string{"aaaa", "bbbb", "cccc"}, "msg": "go\n\n"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "aaaa go\n\n\n"; m.Text != want {
		t.Errorf("turn %q, want %q (budget %+v)", m.Text, want, m.Budget)
	}
}

// TestDroppedOfAbsentValue: dropped of a list or records variable given no value is 0, not an error: an absent
// optional value is its zero value, from which the limits dropped nothing (a values file that refuses the value
// reports it once, without a second error from dropped).
func TestDroppedOfAbsentValue(t *testing.T) {
	prog := mustLoad(t, archive(`
-- promptc.toml --
name  = "p"
tasks = ["t"]
[runbook]
order = ["a"]
[vars.hosts]
scope = "session"
type  = "records"
key   = "name"
[vars.hosts.fields.name]
type = "string"
[vars.labels]
scope = "session"
type  = "list"
-- blocks/b.toml --
[[block]]
id   = "a"
body = "{{dropped \"hosts\"}} {{dropped \"labels\"}}"
`))
	s, err := prog.NewSession("t", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Runbook().Text; got != "0 0\n" {
		t.Errorf("runbook %q", got)
	}
}

// portSeeds are projects for the loader's and compiler's fuzzer (FuzzLoadCompile) that use the keys for a
// platform's own bytes, with fixtures that exercise them.
func portSeeds() []string {
	return []string{
		keepProject + "-- fixtures/f.toml --\n[session]\nx = \"\\n\\nxx\\n\\n\"\nu = \"IN-BLOCK\"\n[[session.notes]]\nbody = \"\\n# n\\n\"\n[[turn]]\nmsg = \"\\nm\\n\"\n",
		portValuesProject + "-- fixtures/f.toml --\n[session]\nctx = \"a\\n\\nb\"\nlines = [\"x\\n\\ny\"]\nraw = \"a\\r\\nb\"\n[session.hosts.web]\nmeta = '{\"port\": 80, \"x\": 1}'\n[session.hosts.db]\nmeta = '{port'\n",
		finalNewlineProject("final_newline = false\n[runbook]\norder = [\"a\", \"gone\", \"b\"]\n[turn]\norder = [\"c\", \"gone2\"]\nfinal_newline = true\n"),
	}
}
