package scaffold_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/internal/testenv"
	"github.com/promptc/promptc/lint"
	"github.com/promptc/promptc/scaffold"
	"github.com/promptc/promptc/tokens"
)

var wantWritten = []string{
	".gitignore",
	"blocks/main.toml",
	"fixtures/example.toml",
	"golden/.gitattributes",
	"golden/chat/example.runbook.md",
	"golden/chat/example.turn-1.md",
	"golden/chat/example.turn-2.md",
	"golden/review/example.runbook.md",
	"golden/review/example.turn-1.md",
	"golden/review/example.turn-2.md",
	"promptc.toml",
}

// TestInit: the starter project is written into a directory Init creates, check passes on it at once, lint finds
// nothing, and the project uses what it sets out to teach.
func TestInit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "prompts")
	written, err := scaffold.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(written, wantWritten) {
		t.Errorf("Init wrote\n%q\nwant\n%q", written, wantWritten)
	}
	gi, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if err != nil || !slices.Contains(strings.Split(string(gi), "\n"), "build/") {
		t.Errorf(".gitignore = %q, %v; want a build/ line", gi, err)
	}

	res, err := guard.CheckDir(dir, guard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed() {
		t.Errorf("check fails right after init: %d changes, findings %v", len(res.Report.Changes), res.Findings)
	}

	prog, diags := assemble.LoadDir(dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	tok := tokens.New(tokens.O200k)
	if findings := lint.Run(prog, arts, tok); len(findings) > 0 {
		t.Errorf("lint findings on the starter project: %v", findings)
	}

	p := prog.Project
	if len(p.Tasks) != 2 {
		t.Errorf("tasks = %q, want two", p.Tasks)
	}
	if len(p.Fixtures) != 1 {
		t.Errorf("%d fixtures, want one", len(p.Fixtures))
	}
	if len(p.Consts) == 0 {
		t.Error("no constant")
	}
}

// TestInitRefuses: Init writes nothing into a directory holding any file it would write, or a project directory
// with something in it, and names each; an empty project directory is no obstacle.
func TestInitRefuses(t *testing.T) {
	tests := []struct {
		name  string
		files []string // created empty before Init; a trailing slash makes a directory
		want  []string // nil: Init succeeds
	}{
		{name: "stray manifest", files: []string{"promptc.toml"}, want: []string{"promptc.toml"}},
		{name: "gitignore and a block file", files: []string{".gitignore", "blocks/main.toml"},
			want: []string{".gitignore", "blocks/main.toml"}},
		{name: "other block file", files: []string{"blocks/rules.toml"}, want: []string{"blocks/"}},
		{name: "golden tree", files: []string{"golden/t/a.runbook.md"}, want: []string{"golden/"}},
		{name: "templates", files: []string{"templates/x.md", "fixtures/a.toml"}, want: []string{"fixtures/", "templates/"}},
		{name: "a file where a directory goes", files: []string{"golden"}, want: []string{"golden/"}},
		{name: "empty directories", files: []string{"blocks/", "golden/"}},
		{name: "unrelated files", files: []string{"README.md", "src/main.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tt.files {
				name := filepath.Join(dir, filepath.FromSlash(f))
				if f[len(f)-1] == '/' {
					mustDo(t, os.MkdirAll(name, 0o755))
					continue
				}
				mustDo(t, os.MkdirAll(filepath.Dir(name), 0o755))
				mustDo(t, os.WriteFile(name, nil, 0o644))
			}
			before := tree(t, dir)
			written, err := scaffold.Init(dir)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Init: %v", err)
				}
				return
			}
			var ee *scaffold.ExistsError
			if !errors.As(err, &ee) {
				t.Fatalf("Init = %q, %v; want an ExistsError", written, err)
			}
			if !slices.Equal(ee.Paths, tt.want) || ee.Dir != dir {
				t.Errorf("ExistsError{%q, %q}, want {%q, %q}", ee.Dir, ee.Paths, dir, tt.want)
			}
			if written != nil {
				t.Errorf("written = %q, want none", written)
			}
			if after := tree(t, dir); !slices.Equal(after, before) {
				t.Errorf("Init wrote into %s: before %q, after %q", dir, before, after)
			}
		})
	}
}

// TestInitTwice: a second Init into the same directory refuses, naming every source file.
func TestInitTwice(t *testing.T) {
	dir := t.TempDir()
	if _, err := scaffold.Init(dir); err != nil {
		t.Fatal(err)
	}
	_, err := scaffold.Init(dir)
	var ee *scaffold.ExistsError
	if !errors.As(err, &ee) {
		t.Fatalf("second Init: %v, want an ExistsError", err)
	}
	if want := append(scaffold.Files(), "golden/"); !slices.Equal(ee.Paths, sorted(want)) {
		t.Errorf("paths %q, want %q", ee.Paths, sorted(want))
	}
}

func sorted(s []string) []string { slices.Sort(s); return s }

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// tree lists every file and directory under dir.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		paths = append(paths, filepath.ToSlash(rel))
		return err
	})
	mustDo(t, err)
	return paths
}

// TestInitLinks: a directory Init would write into that is a symbolic link, even to an empty directory, is refused
// before any file is written: nothing lands outside the project, and no partial project is left.
func TestInitLinks(t *testing.T) {
	for _, d := range []string{"blocks", "fixtures", "golden"} {
		t.Run(d, func(t *testing.T) {
			top := t.TempDir()
			dir := filepath.Join(top, "proj")
			for _, m := range []string{filepath.Join(top, "empty"), dir} {
				if err := os.MkdirAll(m, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink("../empty", filepath.Join(dir, d)); err != nil {
				testenv.Absent(t, "no symbolic links here: %v", err)
			}
			_, err := scaffold.Init(dir)
			var le *assemble.LinkError
			if !errors.As(err, &le) || le.Rel != d {
				t.Fatalf("Init error = %v, want a *assemble.LinkError for %s", err, d)
			}
			for _, m := range []string{filepath.Join(top, "empty"), dir} {
				entries, err := os.ReadDir(m)
				if err != nil || len(entries) != map[bool]int{true: 1, false: 0}[m == dir] {
					t.Errorf("%s holds %v after the refusal (%v)", m, entries, err)
				}
			}
		})
	}
}
