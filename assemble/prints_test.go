package assemble_test

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// printsProject declares a list, records with a nested record, and a record variable; printsCase adds a runbook
// block "rb" whose body starts on line 3, column 9.
const printsProject = `
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["rb"]

[vars.labels]
scope = "session"
type = "list"
trust = "trusted"

[vars.repos]
scope = "session"
type = "records"

[vars.repos.fields.url]
type = "string"

[vars.repos.fields.owner]
type = "record"

[vars.repos.fields.owner.fields.login]
type = "string"

[vars.ref]
scope = "session"
type = "record"

[vars.ref.fields.url]
type = "string"
-- fixtures/f.toml --
[session]
labels = ["a", "b"]
repos = [{url = "u", owner = {login = "l"}}]
ref = {url = "r"}
`

func printsCase(body string) string {
	return printsProject + "-- blocks/x.toml --\n[[block]]\nid = \"rb\"\nbody = '" + body + "'\n"
}

// TestPrintCollections: printing a list, records or a record whole (fmt would write Go syntax, [a b] or map[n:x]),
// or handing one to print, printf, …, is a compile error where the source shows it, with its place and what to
// write instead, as printing a list constant is; what only the render can tell is the author's error then.
func TestPrintCollections(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"a trusted list", `{{.labels}}`,
			`blocks/x.toml:3:11: block "rb" prints list "labels" whole, which has no text of its own: lay it out with {{join .labels ", "}} or {{bullets .labels}}, or walk it with {{range .labels}}…{{end}}`},
		{"records", `{{ .repos }}`,
			`blocks/x.toml:3:12: block "rb" prints records "repos" whole, which have no text of their own: walk them with range and print their fields (their fields are: owner, url)`},
		{"first of records", `{{first .repos}}`,
			`blocks/x.toml:3:11: block "rb" prints a record of "repos" whole, which has no text of its own: print its fields one by one (its fields are: owner, url), or json it`},
		{"a record variable", `{{$.ref}}`,
			`blocks/x.toml:3:11: block "rb" prints record "ref" whole, which has no text of its own: print its fields one by one (its fields are: url), or json it`},
		{"a field that is a record", `{{range .repos}}{{.owner}}{{end}}`,
			`blocks/x.toml:3:27: block "rb" prints record "repos.owner" whole, which has no text of its own: print its fields one by one (its fields are: login), or json it`},
		{"an item of records", `{{range .repos}}{{.}}{{end}}`,
			`blocks/x.toml:3:27: block "rb" prints a record of "repos" whole, which has no text of its own: print its fields one by one (its fields are: owner, url), or json it`},
		{"with a record", `{{with .ref}}{{.}}{{end}}`,
			`blocks/x.toml:3:24: block "rb" prints record "ref" whole, which has no text of its own: print its fields one by one (its fields are: url), or json it`},
		{"a template variable", `{{$l := .labels}}{{$l}}`,
			`blocks/x.toml:3:28: block "rb" prints list "labels" whole, which has no text of its own: lay it out with {{join .labels ", "}} or {{bullets .labels}}, or walk it with {{range .labels}}…{{end}}`},
		{"slice", `{{slice .labels 1}}`,
			`blocks/x.toml:3:11: block "rb" prints list "labels" whole, which has no text of its own: lay it out with {{join .labels ", "}} or {{bullets .labels}}, or walk it with {{range .labels}}…{{end}}`},
		{"index", `{{index .repos 0}}`,
			`blocks/x.toml:3:11: block "rb" prints a record of "repos" whole, which has no text of its own: print its fields one by one (its fields are: owner, url), or json it`},
		{"default", `{{default .ref .ref}}`,
			`blocks/x.toml:3:11: block "rb" prints record "ref" whole, which has no text of its own: print its fields one by one (its fields are: url), or json it`},
		{"the data", `{{.}}`,
			`blocks/x.toml:3:11: block "rb" prints the data whole ({{.}} where dot holds every variable), which has no text of its own: print the variables one by one ({{.name}}), or json one`},
		{"passed to print", `{{print "labels: " .labels}}`,
			`blocks/x.toml:3:28: block "rb" passes list "labels" whole to print, which has no text of its own: lay it out with {{join .labels ", "}} or {{bullets .labels}}, or walk it with {{range .labels}}…{{end}}`},
		{"passed to printf", `{{printf "%v" .ref}}`,
			`blocks/x.toml:3:23: block "rb" passes record "ref" whole to printf, which has no text of its own: print its fields one by one (its fields are: url), or json it`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := assemble.Load(archive(printsCase(tt.body)))
			if got := strings.TrimSpace(diags.String()); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestPrintTexts: what has text prints as before: items of a list, fields, join, bullets, json, len, and a
// record's truth in if.
func TestPrintTexts(t *testing.T) {
	body := `{{range .labels}}{{.}}{{end}} {{join .labels ","}} {{json .ref}} {{len .repos}} {{(first .repos).owner.login}}` +
		`{{with .ref}} {{.url}}{{end}} {{print .ref.url (index .labels 0)}}`
	arts := mustBuild(t, archive(printsCase(body)))
	if got, want := arts[0].Text, `ab a,b {"url":"r"} 1 l r ra`+"\n"; got != want {
		t.Errorf("runbook = %q, want %q", got, want)
	}
}

// TestPrintCollectionAtRender: a collection that only the render shows (an index computed by the body) is the
// author's error then, naming the block, whatever the records hold: nothing of it is printed.
func TestPrintCollectionAtRender(t *testing.T) {
	prog := mustLoad(t, archive(printsCase(`{{index .repos (len "")}}`)))
	_, err := prog.Runbook("t", blocks.Values{"repos": []map[string]any{{"url": "u"}}})
	if err == nil || !strings.Contains(err.Error(), `block "rb": prints a record, which has no text of its own`) {
		t.Fatalf("Runbook: %v, want the author's error naming the block", err)
	}
}
