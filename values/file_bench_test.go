package values_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/values"
)

// millionRecords returns a values file holding 2^20 records of the given record text (or as many as fit in
// MaxSourceBytes), as JSON or TOML, under the name "repos", after head: `{"x":1}` makes 8 MiB.
func millionRecords(head string, json bool, record string) []byte {
	var b strings.Builder
	open, sep, end := "repos = [", ",", "]\n"
	if json {
		open, end = `{"repos":[`, "]}"
	}
	b.WriteString(head)
	b.WriteString(open)
	for n := 0; n < 1<<20 && b.Len()+len(record)+len(sep)+len(end) <= blocks.MaxSourceBytes; n++ {
		if n > 0 {
			b.WriteString(sep)
		}
		b.WriteString(record)
	}
	b.WriteString(end)
	return []byte(b.String())
}

func recordsProject() *blocks.Project {
	return &blocks.Project{Vars: map[string]*blocks.Var{"repos": {
		Name: "repos", Scope: blocks.ScopeSession, Type: blocks.TypeRecords, MaxItems: 10,
		Fields: []*blocks.Var{{Name: "n", Type: blocks.TypeString}},
	}}}
}

// BenchmarkReadValuesMillionRecords reads an 8 MiB values file of about a million tiny records, each with an
// undeclared field (a million problems: 17 s, 3.9 GB and 1,048,575 diagnostics before they were capped), or each
// valid for a records variable with max_items = 10 (13 s, 3.2 GB).
func BenchmarkReadValuesMillionRecords(b *testing.B) {
	p := recordsProject()
	for _, c := range []struct {
		name   string
		file   string
		record string
		json   bool
	}{
		{"json-undeclared", "v.json", `{"x":1}`, true},
		{"json-valid", "v.json", `{"n":""}`, true},
		{"toml-undeclared", "v.toml", `{x=1}`, false},
		{"toml-valid", "v.toml", `{n=""}`, false},
	} {
		data := millionRecords("", c.json, c.record)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				values.ReadFile(p, c.file, data, blocks.ScopeSession)
			}
		})
	}
}

// BenchmarkLoadFixtureMillionRecords loads a project whose one fixture is 8 MiB of tiny records, as the language
// server does at every keystroke in it (6.5 GB, 5-15 s a keystroke before).
func BenchmarkLoadFixtureMillionRecords(b *testing.B) {
	for _, c := range []struct{ name, record string }{{"undeclared", `{x=1}`}, {"valid", `{n=""}`}} {
		fixture := millionRecords("[session]\n", false, c.record)
		fsys := fstest.MapFS{
			"promptc.toml": {Data: []byte("name = \"a\"\ntasks = [\"t\"]\n[runbook]\norder = [\"r\"]\n" +
				"[vars.repos]\nscope = \"session\"\ntype = \"records\"\nmax_items = 10\n[vars.repos.fields.n]\ntype = \"string\"\n")},
			"blocks/a.toml":     {Data: []byte("[[block]]\nid = \"r\"\nbody = \"{{range .repos}}- {{.n}}\\n{{end}}\"\n")},
			"fixtures/big.toml": {Data: fixture},
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p, diags := values.Load(fsys)
				if n := len(p.Fixtures[0].Session); n != 1 && c.name == "valid" || len(diags) > 1 {
					b.Fatalf("%d session values, %d diagnostics: %v", n, len(diags), diags)
				}
			}
		})
	}
}
