package assemble_test

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// parseArchive splits a txtar-like text into files: a line "-- path --" starts a file, and every line after it, up to
// the next such line, belongs to that file with its newline. Text before the first file line is a comment. It is
// the fuzzer's input format too, so it accepts anything: a path that fs.ValidPath rejects is dropped by toFS.
func parseArchive(text string) (names []string, files map[string]string) {
	files = map[string]string{}
	name := ""
	var body strings.Builder
	flush := func() {
		if name != "" {
			if _, seen := files[name]; !seen {
				names = append(names, name)
			}
			files[name] = body.String()
		}
		body.Reset()
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		if n, ok := fileLine(strings.TrimSuffix(line, "\n")); ok {
			flush()
			name = n
			continue
		}
		if name != "" {
			body.WriteString(line)
		}
	}
	flush()
	return names, files
}

// fileLine recognises "-- name --".
func fileLine(line string) (string, bool) {
	if !strings.HasPrefix(line, "-- ") || !strings.HasSuffix(line, " --") || len(line) < 7 {
		return "", false
	}
	name := strings.TrimSpace(line[3 : len(line)-3])
	return name, name != ""
}

// testdataProject reads the project kept in testdata/NAME, a txtar archive (a "-- path --" line before each file),
// into an in-memory project: the projects several tests share, too long to read well inside a Go string.
func testdataProject(name string) fstest.MapFS {
	a, err := txtar.ParseFile(filepath.Join("testdata", name))
	if err != nil {
		panic(err)
	}
	fsys := fstest.MapFS{}
	for _, f := range a.Files {
		fsys[f.Name] = &fstest.MapFile{Data: f.Data}
	}
	return fsys
}

// archive turns a txtar-like text into an in-memory project.
func archive(text string) fstest.MapFS {
	_, files := parseArchive(text)
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	return fsys
}

// mustLoad loads and compiles a project that must be valid.
func mustLoad(t testing.TB, fsys fstest.MapFS) *assemble.Program {
	t.Helper()
	prog, diags := assemble.Load(fsys)
	if len(diags) > 0 {
		t.Fatalf("project has diagnostics:\n%s", diags)
	}
	return prog
}

// mustBuild builds every artifact of a project that must be valid.
func mustBuild(t testing.TB, fsys fstest.MapFS) []*assemble.Artifact {
	t.Helper()
	arts, diags := mustLoad(t, fsys).Build()
	if len(diags) > 0 {
		t.Fatalf("build has diagnostics:\n%s", diags)
	}
	for _, a := range arts {
		checkSpans(t, a)
	}
	return arts
}

// problems loads and compiles a project and, when that succeeds, builds it; it returns every diagnostic as
// `promptc` prints them.
func problems(fsys fstest.MapFS) string {
	prog, diags := assemble.Load(fsys)
	if len(diags) == 0 {
		_, diags = prog.Build()
	}
	return diags.String()
}

// tree maps artifact paths to their text.
func tree(arts []*assemble.Artifact) map[string]string {
	m := make(map[string]string, len(arts))
	for _, a := range arts {
		m[a.Path] = a.Text
	}
	return m
}

// paths lists artifact paths in the order Build returned them.
func paths(arts []*assemble.Artifact) []string {
	out := make([]string, len(arts))
	for i, a := range arts {
		out[i] = a.Path
	}
	return out
}

// diffTrees reports every path whose bytes differ between got and want, and every path only one of them has.
func diffTrees(t testing.TB, got, want map[string]string) {
	t.Helper()
	keys := map[string]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		g, gok := got[k]
		w, wok := want[k]
		switch {
		case !gok:
			t.Errorf("%s: missing; want %q", k, w)
		case !wok:
			t.Errorf("%s: unexpected artifact %q", k, g)
		case g != w:
			t.Errorf("%s:\n got %q\nwant %q", k, g, w)
		}
	}
}

// checkSpans asserts the source-map invariants of docs/reference.md#how-a-runbook-is-assembled and the API: the spans tile the text from 0 to its end, in
// order, each non-empty; the text of a span starts after its separator; every span names a block and a scope.
func checkSpans(t testing.TB, a *assemble.Artifact) { checkSpansOf(t, nil, a) }

// checkSpansOf is checkSpans for an artifact of prog, whose final_newline and keep_newlines keys say how it ends
// (nil: a project with neither).
func checkSpansOf(t testing.TB, prog *assemble.Program, a *assemble.Artifact) {
	t.Helper()
	if a.Text == "" {
		if len(a.Spans) != 0 {
			t.Errorf("%s: empty artifact with spans %v", a.Path, a.Spans)
		}
		return
	}
	omit, keep := false, false
	if prog != nil {
		omit = prog.Project.Runbook.OmitFinalNewline
		if a.Kind == blocks.Turn {
			omit = prog.Project.Turn.OmitFinalNewline
		}
		keep = keepsNewlines(prog.Project)
	}
	// The last block's text loses its trailing whitespace (docs/reference.md#how-a-runbook-is-assembled), so the
	// artifact's final newline is the only one, or with final_newline = false there is none; a keep_newlines
	// value may end the last block with white space of its own.
	switch {
	case keep:
	case omit && strings.TrimRight(a.Text, " \t\n") != a.Text:
		t.Errorf("%s: artifact without its final newline must end with its last block's text: %q", a.Path, a.Text)
	case !omit && (!strings.HasSuffix(a.Text, "\n") || strings.HasSuffix(a.Text, "\n\n")):
		t.Errorf("%s: artifact must end with exactly one newline: %q", a.Path, a.Text)
	}
	at := 0
	for i, s := range a.Spans {
		if s.Start != at || s.End <= s.Start || s.TextStart < s.Start || s.TextStart >= s.End {
			t.Errorf("%s: span %d = [%d,%d) text at %d; want it to start at %d and hold text", a.Path, i, s.Start, s.End, s.TextStart, at)
		}
		if s.Block == nil || s.Scope > blocks.ScopeTurn || (s.Scope == blocks.ScopeTurn) != (a.Kind == blocks.Turn) {
			t.Errorf("%s: span %d has no block, or a scope that does not fit the artifact", a.Path, i)
		}
		at = s.End
	}
	if at != len(a.Text) {
		t.Errorf("%s: spans end at %d, text at %d", a.Path, at, len(a.Text))
	}
}

// spanString describes spans compactly for comparison: "id:scope:start-textstart-end" per span.
func spanString(a *assemble.Artifact) string {
	var parts []string
	for _, s := range a.Spans {
		parts = append(parts, fmt.Sprintf("%s:%s:%d-%d-%d", s.Block.ID, s.Scope, s.Start, s.TextStart, s.End))
	}
	return strings.Join(parts, " ")
}

// values is shorthand for a blocks.Values literal.
type values = blocks.Values

// keepsNewlines reports whether a variable or field of p, at any depth, has keep_newlines.
func keepsNewlines(p *blocks.Project) bool {
	var walk func(vs []*blocks.Var) bool
	walk = func(vs []*blocks.Var) bool {
		for _, v := range vs {
			if v.KeepNewlines || walk(v.Fields) {
				return true
			}
		}
		return false
	}
	for _, v := range p.Vars {
		if walk([]*blocks.Var{v}) {
			return true
		}
	}
	return false
}
