package assemble_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptc/promptc/internal/hostile"
	"github.com/promptc/promptc/source"

	"github.com/promptc/promptc/assemble"
)

// toFS turns a fuzz input, an archive in the format of parseArchive, into a project. Paths that io/fs cannot hold
// are dropped, and so is a file whose path is a directory of another file.
func toFS(text string) fstest.MapFS {
	names, files := parseArchive(text)
	fsys := fstest.MapFS{}
	for _, name := range names {
		if !fs.ValidPath(name) || name == "." {
			continue
		}
		fsys[name] = &fstest.MapFile{Data: []byte(files[name])}
	}
	for name := range fsys {
		for dir := filepath.ToSlash(filepath.Dir(name)); dir != "."; dir = filepath.ToSlash(filepath.Dir(dir)) {
			delete(fsys, dir)
		}
	}
	return fsys
}

// toArchive is the inverse of toFS, for seeding the fuzzer with projects on disk.
func toArchive(fsys fstest.MapFS) string {
	names := make([]string, 0, len(fsys))
	for name := range fsys {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		b.WriteString("-- " + name + " --\n")
		b.Write(fsys[name].Data)
		if d := fsys[name].Data; len(d) > 0 && d[len(d)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// fuzzSeeds are invalid projects that the table tests of this package do not cover, each aimed at one corner of the
// loader or the compiler.
var fuzzSeeds = []string{
	"",
	"-- promptc.toml --\n",
	"-- promptc.toml --\nname = \"p\"\ntasks = [\"t\"]\n[runbook]\norder = [\"a\"]\n-- blocks/a.toml --\n[[block]]\nid = \"a\"\nbody = '{{range .x}}{{.}}{{end}}'\n",
	"-- promptc.toml --\nname = \"p\"\ntasks = [\"t\"]\n[runbook]\norder = [\"a\"]\n-- blocks/a.toml --\n[[block]]\nid = \"a\"\nbody = '{{ref (printf \"%s\" \"a\")}} {{const .task}}'\n",
	"-- promptc.toml --\nname = \"p\"\ntasks = [\"t\"]\n[runbook]\norder = [\"a\"]\n-- blocks/a.toml --\n[[block]]\nid = \"a\"\ntitle = \"A\"\nbody = '{{ref \"a\"}} {{json .}} {{quote 3}} {{bullets .task}}'\n",
	"-- promptc.toml --\nname = \"p\"\ntasks = [\"t\"]\n[runbook]\norder = [\"a\"]\n-- blocks/a.toml --\n[[block]]\nid = \"a\"\nbody = '{{ with $x := . }}{{ $x.nope }}{{ end }}{{ template \"a\" }}'\n",
	"-- promptc.toml --\nname = \"p\"\ntasks = [\"t\"]\n[runbook]\norder = [\"a\"]\n[vars.v]\nscope = \"session\"\ntype = \"list\"\nmax_bytes = 1\npin_first = true\nomitted = \"{n}{n}\"\n-- blocks/a.toml --\n[[block]]\nid = \"a\"\nwhen = \"!v\"\nbody = '{{join .v \"-\"}}'\n-- fixtures/f.toml --\n[session]\nv = [\"\", \"\\u0000\"]\n",
	"-- promptc.toml --\n\xef\xbb\xbfname = \"p\"\r\ntasks = [\"t\"]\r\n[runbook]\r\norder = [\"a\", \"a\", \"b\"]\r\n[turn]\r\norder = [\"a\"]\r\n-- blocks/a.toml --\n[[block]]\nid = \"a\"\nreplaces = \"a\"\nbody = \"x\xff\"\n",
	"-- promptc.toml --\nname = \"p\"\ntasks = [\"t\"]\n[[target]]\nname = \"c\"\nfile = \"C\"\nbegin = \"a\"\nend = \"b\"\n[runbook]\norder = [\"a\"]\n-- blocks/a.toml --\n[[block]]\nid = \"a\"\ntemplate = \"../a\"\n-- templates/a --\nab\n",
	"-- promptc.toml --\nname = \"p\"\ntasks = [\"t\"]\n[runbook]\norder = [\"a\"]\n-- blocks --\nnot a directory\n-- templates/x/y --\n{{define \"x\"}}\n-- fixtures/f.toml --\n[[turn]]\n[[turn]]\nx = 1\n",
	// Tools, the tools function, models, history and replies.
	"-- promptc.toml --\nname = \"p\"\ntasks = [\"t\", \"u\"]\n[runbook]\norder = [\"a\"]\n[turn]\norder = [\"b\"]\n[history]\nvolatile = [\"ts\"]\n[[model]]\nprovider = \"openai\"\nname = \"m\"\nstep = 64\ncache_read = 0.5\n" +
		"-- blocks/a.toml --\n[[block]]\nid = \"a\"\nbody = \"{{tools}}\"\n[[block]]\nid = \"b\"\nbody = \"{{with tools}}{{.}}{{end}}\"\n" +
		"[[tool]]\nname = \"t-1\"\ndescription = \"`x`\"\ntasks = [\"t\"]\n[tool.parameters]\ntype = \"object\"\n\"$defs\" = { s = { type = \"string\", pattern = \"^a+$\" } }\n[tool.parameters.properties.q]\n\"$ref\" = \"#/$defs/s\"\ndefault = 1979-05-27\n" +
		"[[tool]]\nname = \"t-1\"\ndescription = \"y\"\nparameters = { type = \"object\", \"$ref\" = \"../x.json\", properties = { a = { enum = [1, 2.5, nan] } } }\n" +
		"-- fixtures/f.toml --\n[[turn]]\nassistant = \"ok\"\n[[turn]]\nassistant = []\n",
}

// FuzzLoadCompile feeds arbitrary projects to the front door: Load, then Build when Load reports nothing. No input
// may panic, and every problem must come back as a diagnostic that names a file and says something.
// hostileSeedProject is a project whose fixture gives its one value as the last line of the archive.
const hostileSeedProject = `-- promptc.toml --
name = "h"
tasks = ["t"]
[runbook]
order = ["a"]
[vars.v]
scope = "session"
type = "text"
-- blocks/a.toml --
[[block]]
id = "a"
body = "Hello {{.v}}."
-- fixtures/f.toml --
[session]
v = `

func FuzzLoadCompile(f *testing.F) {
	for _, c := range buildCases {
		f.Add(c.files)
	}
	for _, c := range problemCases {
		f.Add(problemBase + c.files) // a later file of the same name wins, as in withBase
	}
	f.Add(toArchive(richProject()))
	f.Add(toolsProject)
	// Hostile values in a fixture: the loader, the compiler and the escapers meet them together.
	for _, c := range hostile.Small() {
		f.Add(hostileSeedProject + strconv.Quote(c.Value) + "\n")
	}
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, s := range portSeeds() {
		f.Add(s) // the keys for a platform's own bytes
	}
	// Nested data, list constants and a turn budget that cuts.
	f.Add(nestedCase(`{{range .resources}}{{.ref.url}}{{range .tags}}{{.label}}{{end}}{{end}}{{.owner.team.name}}`))
	f.Add(listsCase(`{{range const "category_order"}}{{.}}{{end}}{{range $k, $v := lookup_table "labels"}}{{$k}}{{end}}`))
	f.Add(strings.Replace(budgetProject, "MAX", "20", 1))
	if mem, err := readProject(filepath.Join("..", "examples", "tracker")); err == nil {
		f.Add(toArchive(mem))
	}

	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<17 {
			t.Skip("inputs are kept small so that the fuzzer explores structure, not size")
		}
		fsys := toFS(text)
		prog, diags := assemble.Load(fsys)
		checkDiagnostics(t, "Load", diags)
		if _, again := assemble.Load(fsys); again.String() != diags.String() {
			t.Fatalf("Load is not deterministic:\n%s\nthen:\n%s", diags, again)
		}
		if len(diags) > 0 {
			return
		}
		arts, diags := prog.Build()
		checkDiagnostics(t, "Build", diags)
		for _, a := range arts {
			checkSpansOf(t, prog, a)
		}
	})
}

func checkDiagnostics(t *testing.T, stage string, diags source.Diagnostics) {
	t.Helper()
	for _, d := range diags {
		if d.Subject == nil || strings.TrimSpace(d.Summary) == "" {
			t.Fatalf("%s: diagnostic without a file or a message: %q", stage, d.String())
		}
		if r := d.Subject; r.Start.Line > 0 && (r.End.Byte < r.Start.Byte || r.End.Line < r.Start.Line) {
			t.Fatalf("%s: diagnostic with a backward range %+v: %q", stage, *r, d.String())
		}
	}
}

// readProject reads a project directory into memory, without its golden files.
func readProject(dir string) (fstest.MapFS, error) {
	mem := fstest.MapFS{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "golden/") {
			return nil
		}
		data, err := os.ReadFile(p)
		mem[rel] = &fstest.MapFile{Data: data}
		return err
	})
	return mem, err
}

// TestArchiveRoundTrip checks the fuzzer's input format against the table inputs it is seeded with.
func TestArchiveRoundTrip(t *testing.T) {
	for _, c := range buildCases {
		fsys := toFS(c.files)
		back := toFS(toArchive(fsys))
		if toArchive(back) != toArchive(fsys) || len(back) != len(fsys) {
			t.Errorf("%s: archive does not round-trip", c.name)
		}
	}
	names, files := parseArchive("comment\n-- a --\nx\n-- b/c --\n-- a --\ny\n-- --\nz")
	if strings.Join(names, ",") != "a,b/c" || files["a"] != "y\n-- --\nz" || files["b/c"] != "" {
		t.Errorf("parseArchive = %q, %q", names, files)
	}
	if fsys := toFS("-- ../x --\n-- a/b --\n-- a --\n-- /abs --\n"); len(fsys) != 1 || fsys["a/b"] == nil {
		t.Errorf("toFS kept invalid paths: %v", fsys)
	}
}
