package analysis

import (
	"errors"
	"io"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestOverlayDirPaging: a directory read through its open file (as fs.WalkDir does) lists the disk's entries and
// the unsaved ones together, n at a time, then io.EOF; with n <= 0, all that is left at once.
func TestOverlayDirPaging(t *testing.T) {
	base := fstest.MapFS{"blocks/a.toml": {Data: []byte("a")}, "blocks/c.toml": {Data: []byte("c")}, "blocks/sub/d.toml": {Data: []byte("d")}}
	fsys := Overlay(base, map[string]string{"blocks/b.toml": "b", "blocks/sub/e.toml": "e", "fresh/f.toml": "f"})
	f, err := fsys.Open("blocks")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := f.(fs.ReadDirFile)
	var got []string
	for {
		es, err := d.ReadDir(2)
		if err == io.EOF {
			break
		}
		if err != nil || len(es) == 0 || len(es) > 2 {
			t.Fatalf("ReadDir(2) = %d entries, %v", len(es), err)
		}
		for _, e := range es {
			got = append(got, e.Name())
		}
	}
	if want := []string{"a.toml", "b.toml", "c.toml", "sub"}; !slices.Equal(got, want) {
		t.Errorf("paged listing %v, want %v", got, want)
	}
	f2, _ := fsys.Open("blocks")
	all, err := f2.(fs.ReadDirFile).ReadDir(-1)
	if err != nil || len(all) != 4 {
		t.Errorf("ReadDir(-1) = %d entries, %v; want 4", len(all), err)
	}
	if rest, err := f2.(fs.ReadDirFile).ReadDir(-1); err != nil || len(rest) != 0 {
		t.Errorf("ReadDir(-1) again = %v, %v; want nothing left", rest, err)
	}
	// The walk sees a directory that exists only in the editor, and both layers of one that exists in both.
	var files []string
	if err := fs.WalkDir(fsys, ".", func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			files = append(files, p)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"blocks/a.toml", "blocks/b.toml", "blocks/c.toml", "blocks/sub/d.toml", "blocks/sub/e.toml", "fresh/f.toml"}; !slices.Equal(files, want) {
		t.Errorf("walk %v, want %v", files, want)
	}
	if _, err := fsys.Open("missing/x"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(missing) = %v", err)
	}
	if _, err := fs.ReadDir(fsys, "missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadDir(missing) = %v", err)
	}
}

// TestLoadDirUnloadedBuffer: a buffer the loader does not read (a file outside the project's layout) is still a
// file the editor can ask about, with its text normalised as the loader normalises.
func TestLoadDirUnloadedBuffer(t *testing.T) {
	s := tracker(t, map[string]string{"notes/todo.txt": "\ufeffone\r\ntwo\r\n"})
	f := s.File("notes/todo.txt")
	if f == nil || f.Text != "one\ntwo\n" {
		t.Fatalf("unloaded buffer: %+v, want its text without BOM and CR", f)
	}
	if _, ok := s.Project.Files["notes/todo.txt"]; ok {
		t.Error("the loader read notes/todo.txt")
	}
}

// TestLintBuildErrors: a project that compiles but does not build reports the build's errors as its lint
// diagnostics, and no findings.
func TestLintBuildErrors(t *testing.T) {
	over := map[string]string{"fixtures/one.toml": strings.Replace(small["fixtures/one.toml"], `who   = "Ada"`, `who   = "ada"`, 1)}
	s := loadSmall(t, over)
	if d := s.Diagnostics(); len(d) > 0 {
		t.Fatalf("diagnostics %v, want none before the build", d)
	}
	d := s.Lint()
	if len(d) != 1 || d[0].Range().Filename != "fixtures/one.toml" || !strings.Contains(d[0].Summary, `does not match`) || s.Findings() != nil {
		t.Errorf("lint of a project whose fixture does not fit: %v, findings %v", d, s.Findings())
	}
}

// TestSymbolsConstants: a blocks/ file's outline holds its constants and lookup tables, in source order with its
// blocks; a lookup table spans its whole table.
func TestSymbolsConstants(t *testing.T) {
	s := loadSmall(t, nil)
	var got []string
	for _, d := range s.Symbols("blocks/a.toml") {
		got = append(got, d.Name+" "+d.Kind.String()+" "+d.Range.String())
	}
	want := []string{"boundary constant blocks/a.toml:2:1", "names constant blocks/a.toml:4:1", "intro block blocks/a.toml:8:1",
		"who block blocks/a.toml:13:1", "quiet block blocks/a.toml:18:1", "step block blocks/a.toml:23:1"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("symbols:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, d := range s.Symbols("blocks/a.toml") {
		if d.Name == "names" && (d.Range.End.Line != 6 || d.Selection.Start.Line != 4) {
			t.Errorf("lookup table names: range %v, selection %v; want lines 4 to 6", d.Range, d.Selection)
		}
	}
	if got := s.Symbols("templates/intro.md"); len(got) != 0 {
		t.Errorf("symbols of a template: %v", got)
	}
}

// TestRenameRefusals: a rename to the same name changes nothing; an invalid name, a template, a task and an
// undefined name are refused with the reason.
func TestRenameRefusals(t *testing.T) {
	s := loadSmall(t, nil)
	at := func(file, needle string, delta int) int { return offsetOf(t, s, file, needle, 0, delta) }
	if edits, err := s.Rename("promptc.toml", at("promptc.toml", "[vars.who]", 7), "who"); err != nil || len(edits) != 0 {
		t.Errorf("rename to the same name: %v, %v; want no edit", edits, err)
	}
	for _, tc := range []struct {
		file    string
		off     int
		newName string
		want    string
	}{
		{"promptc.toml", at("promptc.toml", "[vars.who]", 7), "Who", `"Who" is not a valid variable name`},
		{"promptc.toml", at("promptc.toml", "[vars.who]", 7), "task", `"task" is not a valid variable name`},
		{"promptc.toml", at("promptc.toml", `"intro"`, 2), "-intro", `"-intro" is not a valid block id`},
		{"promptc.toml", at("promptc.toml", `"intro"`, 2), "_intro", `"_intro" is not a valid block id`},
		{"promptc.toml", at("promptc.toml", `"intro"`, 2), "", `"" is not a valid block id`},
		{"promptc.toml", at("promptc.toml", `"intro"`, 2), "who", `block id "who" is taken (blocks/a.toml:14:1)`},
		{"blocks/a.toml", at("blocks/a.toml", "boundary =", 0), "a b", `"a b" is not a valid constant name here`},
		{"blocks/a.toml", at("blocks/a.toml", "boundary =", 0), "names", `constant "names" is taken`},
		{"promptc.toml", at("promptc.toml", "fields.url", 7), "9url", `"9url" is not a valid field name`},
		{"blocks/a.toml", at("blocks/a.toml", `"intro.md"`, 2), "x", "a template is named by its file: rename the file instead"},
		{"promptc.toml", at("promptc.toml", `"chat"`, 2), "x", "a task names the artifacts in golden/"},
		{"promptc.toml", 0, "x", "nothing to rename here"},
	} {
		_, err := s.Rename(tc.file, tc.off, tc.newName)
		var re *RenameError
		if !errors.As(err, &re) || !strings.HasPrefix(re.Msg, tc.want) {
			t.Errorf("rename at %s:%d to %q: %v, want %q", tc.file, tc.off, tc.newName, err, tc.want)
		}
	}
	typo := loadSmall(t, map[string]string{"blocks/a.toml": strings.Replace(small["blocks/a.toml"], `const \"boundary\"`, `const \"boundry\"`, 1)})
	_, err := typo.Rename("blocks/a.toml", offsetOf(t, typo, "blocks/a.toml", "boundry", 0, 1), "x")
	if err == nil || err.Error() != `constant "boundry" is not defined: there is nothing to rename` {
		t.Errorf("rename of an undefined constant: %v", err)
	}
}

// TestCompleteValues: the values a key takes are offered inside its string: tasks with "*" first, variables and
// their negations for when, templates, fixtures; a template's text outside an action offers nothing.
func TestCompleteValues(t *testing.T) {
	over := map[string]string{"blocks/z.toml": "[[block]]\nid = \"z\"\ntasks = [\"\nwhen = \"\ntemplate = \"\n", "fixtures/three.toml": "extends = \"\n"}
	s := loadSmall(t, over)
	labels := func(file, needle string) []string {
		var out []string
		for _, c := range s.Complete(file, offsetOf(t, s, file, needle, 0, len(needle))) {
			out = append(out, c.Label)
		}
		return out
	}
	for _, tc := range []struct {
		file, needle string
		want         []string
	}{
		{"blocks/z.toml", `tasks = ["`, []string{"*", "chat", "review", "lonely"}},
		{"blocks/z.toml", `when = "`, []string{"flag", "repos", "step", "who", "!flag", "!repos", "!step", "!who"}},
		{"blocks/z.toml", `template = "`, []string{"intro.md"}},
		{"fixtures/three.toml", `extends = "`, []string{"one", "two"}}, // not itself
		{"templates/intro.md", "Hel", nil},
	} {
		if got := labels(tc.file, tc.needle); !slices.Equal(got, tc.want) {
			t.Errorf("completion after %q in %s: %v, want %v", tc.needle, tc.file, got, tc.want)
		}
	}
	if got := s.Complete("no/such.toml", 0); got != nil {
		t.Errorf("completion in an unknown file: %v", got)
	}
}
