package golden

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/internal/testenv"
)

func TestCompare(t *testing.T) {
	tests := []struct {
		name          string
		golden, built map[string][]byte
		want          []Entry
	}{
		{
			name: "empty",
		},
		{
			name:   "equal",
			golden: map[string][]byte{"issue/basic.runbook.md": []byte("a\n"), "issue/basic.turn-1.md": nil},
			built:  map[string][]byte{"issue/basic.runbook.md": []byte("a\n"), "issue/basic.turn-1.md": {}},
		},
		{
			name:   "changed",
			golden: map[string][]byte{"issue/basic.runbook.md": []byte("old\n")},
			built:  map[string][]byte{"issue/basic.runbook.md": []byte("new\n")},
			want: []Entry{{Path: "issue/basic.runbook.md", Status: Changed,
				Golden: []byte("old\n"), Built: []byte("new\n")}},
		},
		{
			name:  "missing",
			built: map[string][]byte{"issue/basic.runbook.md": []byte("a\n")},
			want:  []Entry{{Path: "issue/basic.runbook.md", Status: Added, Built: []byte("a\n")}},
		},
		{
			name:   "stale",
			golden: map[string][]byte{"issue/basic.runbook.md": []byte("a\n")},
			want:   []Entry{{Path: "issue/basic.runbook.md", Status: Removed, Golden: []byte("a\n")}},
		},
		{
			name:   "one differing byte",
			golden: map[string][]byte{"t/f.runbook.md": []byte("# Rules\n\nBe brief.\n")},
			built:  map[string][]byte{"t/f.runbook.md": []byte("# Rules\n\nBe Brief.\n")},
			want: []Entry{{Path: "t/f.runbook.md", Status: Changed,
				Golden: []byte("# Rules\n\nBe brief.\n"), Built: []byte("# Rules\n\nBe Brief.\n")}},
		},
		{
			name:   "CRLF against LF",
			golden: map[string][]byte{"t/f.runbook.md": []byte("a\r\nb\r\n")},
			built:  map[string][]byte{"t/f.runbook.md": []byte("a\nb\n")},
			want: []Entry{{Path: "t/f.runbook.md", Status: Changed,
				Golden: []byte("a\r\nb\r\n"), Built: []byte("a\nb\n")}},
		},
		{
			name:   "final newline",
			golden: map[string][]byte{"t/f.runbook.md": []byte("a")},
			built:  map[string][]byte{"t/f.runbook.md": []byte("a\n")},
			want: []Entry{{Path: "t/f.runbook.md", Status: Changed,
				Golden: []byte("a"), Built: []byte("a\n")}},
		},
		{
			name: "sorted by path",
			golden: map[string][]byte{
				"b/x.runbook.md": []byte("1"), "a/y.runbook.md": []byte("2"), "a/x.turn-1.md": []byte("3"),
				"a/x.runbook.md": []byte("same"),
			},
			built: map[string][]byte{
				"c/x.runbook.md": []byte("4"), "a/y.runbook.md": []byte("5"), "a/x.turn-2.md": []byte("6"),
				"a/x.runbook.md": []byte("same"),
			},
			want: []Entry{
				{Path: "a/x.turn-1.md", Status: Removed, Golden: []byte("3")},
				{Path: "a/x.turn-2.md", Status: Added, Built: []byte("6")},
				{Path: "a/y.runbook.md", Status: Changed, Golden: []byte("2"), Built: []byte("5")},
				{Path: "b/x.runbook.md", Status: Removed, Golden: []byte("1")},
				{Path: "c/x.runbook.md", Status: Added, Built: []byte("4")},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compare(tt.golden, tt.built)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Compare:\ngot  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestStatusString(t *testing.T) {
	for s, want := range map[Status]string{Changed: "changed", Added: "added", Removed: "removed", 0: "Status(0)", 9: "Status(9)"} {
		if got := s.String(); got != want {
			t.Errorf("Status(%d).String() = %q, want %q", int(s), got, want)
		}
		var back Status
		text, err := s.MarshalText()
		if s >= Changed && s <= Removed {
			if err != nil || back.UnmarshalText(text) != nil || back != s {
				t.Errorf("Status(%d) does not survive MarshalText/UnmarshalText: %q, %v, %d", int(s), text, err, int(back))
			}
		} else if err == nil {
			t.Errorf("Status(%d).MarshalText() = %q, want an error", int(s), text)
		}
	}
	var s Status
	if err := s.UnmarshalText([]byte("stale")); err == nil {
		t.Error(`UnmarshalText("stale") accepted a status outside the set`)
	}
}

// writeFiles creates files under dir from slash paths, without the ceremony of Update.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		name := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func bytesTree(files map[string]string) map[string][]byte {
	out := map[string][]byte{}
	for p, s := range files {
		out[p] = []byte(s)
	}
	return out
}

func mustRead(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	got, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"issue/basic.runbook.md":        "runbook\n",
		"issue/basic.turn-1.md":         "turn\r\n",
		"issue/basic.request.json":      "{}",
		"chat/empty.runbook.md":         "",
		".gitattributes":                "* -text\n",
		"issue/.basic.runbook.md.tmp-1": "half",
		".cache/x.runbook.md":           "hidden directory",
	})
	want := bytesTree(map[string]string{
		"issue/basic.runbook.md":   "runbook\n",
		"issue/basic.turn-1.md":    "turn\r\n",
		"issue/basic.request.json": "{}",
		"chat/empty.runbook.md":    "",
	})
	if got := mustRead(t, dir); !reflect.DeepEqual(got, want) {
		t.Errorf("Read = %q, want %q", got, want)
	}
}

func TestReadMissing(t *testing.T) {
	got, err := Read(filepath.Join(t.TempDir(), "golden"))
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("Read(missing) = %q, %v; want an empty map, nil", got, err)
	}
}

func TestReadNotDirectory(t *testing.T) {
	name := filepath.Join(t.TempDir(), "golden")
	writeFiles(t, filepath.Dir(name), map[string]string{"golden": "a file"})
	if _, err := Read(name); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Read(file) error = %v, want one saying it is not a directory", err)
	}
}

func TestReadSymlink(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"issue/basic.runbook.md": "a"})
	if err := os.Symlink("basic.runbook.md", filepath.Join(dir, "issue", "other.runbook.md")); err != nil {
		testenv.Absent(t, "no symbolic links here: %v", err)
	}
	var le *assemble.LinkError
	if _, err := Read(dir); !errors.As(err, &le) || le.Rel != "issue/other.runbook.md" || le.Target != "basic.runbook.md" {
		t.Errorf("Read error = %v, want a *assemble.LinkError naming issue/other.runbook.md", err)
	}
}

// TestLinks: a symbolic link at the golden tree or anywhere beneath it (a directory, a file, a dot file) stops Read,
// ReadAgainst and Update before they read or write anything: the files the link leads to are neither listed, nor
// removed, nor overwritten (docs/guard.md, "Real directories only").
func TestLinks(t *testing.T) {
	tests := []struct {
		name     string
		link     string // slash path below the project of the link
		target   string
		wantRel  string
		existing map[string]string // golden files written before the link
	}{
		{name: "golden itself", link: "golden", target: "../home", wantRel: ""},
		{name: "golden to build", link: "golden", target: "build", wantRel: ""},
		{name: "task directory", link: "golden/chat", target: "../../home", wantRel: "chat",
			existing: map[string]string{"issue/a.runbook.md": "a\n"}},
		{name: "deeper directory", link: "golden/issue/more", target: "../../../home", wantRel: "issue/more",
			existing: map[string]string{"issue/a.runbook.md": "a\n"}},
		{name: "file", link: "golden/issue/b.runbook.md", target: "../../../home/notes.md", wantRel: "issue/b.runbook.md",
			existing: map[string]string{"issue/a.runbook.md": "a\n"}},
		{name: "dot file", link: "golden/.gitattributes", target: "../../home/notes.md", wantRel: ".gitattributes",
			existing: map[string]string{"issue/a.runbook.md": "a\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top := t.TempDir()
			writeFiles(t, top, map[string]string{
				"home/notes.md":            "My notes.\n",
				"home/issue/a.runbook.md":  "not golden\n",
				"build/issue/a.runbook.md": "a\n",
				"build/chat/a.runbook.md":  "c\n",
			})
			dir := filepath.Join(top, "proj", "golden")
			if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.target == "build" {
				tt.target = "../build"
			}
			if len(tt.existing) > 0 {
				writeFiles(t, dir, tt.existing)
			}
			name := filepath.Join(top, "proj", filepath.FromSlash(tt.link))
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(tt.target, name); err != nil {
				testenv.Absent(t, "no symbolic links here: %v", err)
			}
			before := snapshot(t, top)
			built := bytesTree(map[string]string{"issue/a.runbook.md": "a\n", "chat/a.runbook.md": "c\n"})
			check := func(op string, err error) {
				t.Helper()
				var le *assemble.LinkError
				if !errors.As(err, &le) || le.Dir != dir || le.Rel != tt.wantRel || le.Target != tt.target {
					t.Errorf("%s error = %v, want a *assemble.LinkError for %q", op, err, tt.wantRel)
				}
			}
			_, err := Read(dir)
			check("Read", err)
			_, err = ReadAgainst(dir, built)
			check("ReadAgainst", err)
			_, err = Update(dir, built)
			check("Update", err)
			check("CheckLinks", CheckLinks(dir))
			if after := snapshot(t, top); !reflect.DeepEqual(after, before) {
				t.Errorf("files changed:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
	// Real directories, dot directories included, are fine; so is a missing tree.
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"issue/a.runbook.md": "a", ".cache/x": "y"})
	if err := CheckLinks(dir); err != nil {
		t.Errorf("CheckLinks(real tree) = %v", err)
	}
	if err := CheckLinks(filepath.Join(dir, "missing")); err != nil {
		t.Errorf("CheckLinks(missing) = %v", err)
	}
}

// snapshot returns every file and link under dir, links by their targets, without following them.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			out[rel] = "-> " + target
			return err
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			out[rel] = string(data)
			return err
		case d.IsDir():
			out[rel+"/"] = ""
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestUpdate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "golden")
	built := bytesTree(map[string]string{
		"issue/basic.runbook.md": "runbook\n",
		"issue/basic.turn-1.md":  "turn 1\r\n",
		"chat/empty.runbook.md":  "",
	})
	changed, err := Update(dir, built)
	if err != nil {
		t.Fatal(err)
	}
	// The .gitattributes Update creates is written too, and listed first.
	want := assemble.TreeChanges{Written: []string{".gitattributes", "chat/empty.runbook.md", "issue/basic.runbook.md", "issue/basic.turn-1.md"}}
	if !reflect.DeepEqual(changed, want) {
		t.Errorf("Update changed:\ngot  %+v\nwant %+v", changed, want)
	}
	if got := mustRead(t, dir); !reflect.DeepEqual(got, built) {
		t.Errorf("after Update, Read = %q, want %q", got, built)
	}
	if d := Compare(mustRead(t, dir), built); len(d) != 0 {
		t.Errorf("after Update, Compare = %q, want nothing", d)
	}
}

// modTimes returns the modification time of every file under dir, dot files included.
func modTimes(t *testing.T, dir string) map[string]time.Time {
	t.Helper()
	out := map[string]time.Time{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = fi.ModTime()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// backdate sets every file's modification time to long ago, so that a rewrite shows however coarse the clock.
func backdate(t *testing.T, dir string) {
	t.Helper()
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	for p := range modTimes(t, dir) {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
}

func TestUpdateIdempotent(t *testing.T) {
	dir := t.TempDir()
	built := bytesTree(map[string]string{
		"issue/basic.runbook.md": "runbook\n",
		"issue/basic.turn-1.md":  "turn\n",
		"chat/basic.runbook.md":  "chat\n",
	})
	if _, err := Update(dir, built); err != nil {
		t.Fatal(err)
	}
	backdate(t, dir)
	before := modTimes(t, dir)
	changed, err := Update(dir, built)
	if err != nil {
		t.Fatal(err)
	}
	if want := (assemble.TreeChanges{Unchanged: 3}); !reflect.DeepEqual(changed, want) {
		t.Errorf("second Update changed %+v, want %+v", changed, want)
	}
	if after := modTimes(t, dir); !reflect.DeepEqual(after, before) {
		t.Errorf("second Update touched files:\nbefore %v\nafter  %v", before, after)
	}
}

func TestUpdateRewritesOnlyChanged(t *testing.T) {
	dir := t.TempDir()
	if _, err := Update(dir, bytesTree(map[string]string{"a/x.runbook.md": "1", "a/y.runbook.md": "2"})); err != nil {
		t.Fatal(err)
	}
	backdate(t, dir)
	before := modTimes(t, dir)
	changed, err := Update(dir, bytesTree(map[string]string{"a/x.runbook.md": "1", "a/y.runbook.md": "two"}))
	if err != nil {
		t.Fatal(err)
	}
	want := assemble.TreeChanges{Written: []string{"a/y.runbook.md"}, Unchanged: 1}
	if !reflect.DeepEqual(changed, want) {
		t.Errorf("Update changed %+v, want %+v", changed, want)
	}
	after := modTimes(t, dir)
	x, y := filepath.Join(dir, "a", "x.runbook.md"), filepath.Join(dir, "a", "y.runbook.md")
	if !after[x].Equal(before[x]) {
		t.Errorf("unchanged %s was rewritten", x)
	}
	if after[y].Equal(before[y]) {
		t.Errorf("changed %s kept its modification time", y)
	}
}

func TestUpdateStale(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"gone/basic.runbook.md":  "whole task gone",
		"gone/basic.turn-1.md":   "whole task gone",
		"deep/a/b/x.runbook.md":  "nested directories left empty",
		"issue/basic.runbook.md": "kept",
		"issue/basic.turn-2.md":  "one turn fewer",
		"keep/x.runbook.md":      "dropped, but its directory holds a user's dot file",
		"keep/.keep":             "",
	})
	built := bytesTree(map[string]string{"issue/basic.runbook.md": "kept"})
	changed, err := Update(dir, built)
	if err != nil {
		t.Fatal(err)
	}
	// Only .gitattributes is written: the one built file already holds its bytes.
	want := assemble.TreeChanges{
		Written: []string{".gitattributes"},
		Removed: []string{"deep/a/b/x.runbook.md", "gone/basic.runbook.md", "gone/basic.turn-1.md",
			"issue/basic.turn-2.md", "keep/x.runbook.md"},
		Unchanged: 1,
	}
	if !reflect.DeepEqual(changed, want) {
		t.Errorf("Update changed %+v, want %+v", changed, want)
	}
	if got := mustRead(t, dir); !reflect.DeepEqual(got, built) {
		t.Errorf("after Update, Read = %q, want %q", got, built)
	}
	for _, d := range []string{"gone", "deep"} {
		if _, err := os.Lstat(filepath.Join(dir, d)); !os.IsNotExist(err) {
			t.Errorf("directory %s left empty was not removed (Lstat: %v)", d, err)
		}
	}
	for _, d := range []string{"issue", "keep/.keep"} {
		if _, err := os.Lstat(filepath.Join(dir, d)); err != nil {
			t.Errorf("%s: %v", d, err)
		}
	}

	// Nothing built: the tree empties, the directory itself stays.
	if _, err := Update(dir, nil); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, dir); len(got) != 0 {
		t.Errorf("after Update(nil), Read = %q, want nothing", got)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Errorf("golden directory itself removed: %v", err)
	}
}

func TestUpdateAttributes(t *testing.T) {
	t.Run("created", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "golden")
		if _, err := Update(dir, bytesTree(map[string]string{"a/x.runbook.md": "x"})); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, ".gitattributes"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		var rules, comments int
		for _, l := range lines {
			switch {
			case strings.HasPrefix(l, "#"):
				comments++
			case l == "* -text":
				rules++
			default:
				t.Errorf(".gitattributes holds an unexpected line %q", l)
			}
		}
		if rules != 1 || comments == 0 {
			t.Errorf(".gitattributes = %q, want a comment and the rule \"* -text\"", data)
		}
		if got := mustRead(t, dir); len(got) != 1 {
			t.Errorf("Read = %q, want the one artifact (.gitattributes is not part of the tree)", got)
		}
	})
	t.Run("kept", func(t *testing.T) {
		dir := t.TempDir()
		const user = "# mine\n*.md -text -diff\n"
		writeFiles(t, dir, map[string]string{".gitattributes": user})
		for range 2 {
			if _, err := Update(dir, bytesTree(map[string]string{"a/x.runbook.md": "x"})); err != nil {
				t.Fatal(err)
			}
			if data, err := os.ReadFile(filepath.Join(dir, ".gitattributes")); err != nil || string(data) != user {
				t.Errorf(".gitattributes = %q, %v; want the user's %q untouched", data, err, user)
			}
		}
	})
}

func TestUpdateRemovesTemps(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"issue/basic.runbook.md":            "old",
		"issue/.basic.runbook.md.tmp-12345": "half-written",
		".gitattributes.tmp-99":             "half-written",
		"issue/.notes":                      "a user's dot file, not ours",
	})
	changed, err := Update(dir, bytesTree(map[string]string{"issue/basic.runbook.md": "new"}))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{".gitattributes", "issue/basic.runbook.md"}; !reflect.DeepEqual(changed.Written, want) || len(changed.Removed) != 0 {
		t.Errorf("Update changed %+v, want .gitattributes and the one runbook written", changed)
	}
	var names []string
	for p := range modTimes(t, dir) {
		rel, _ := filepath.Rel(dir, p)
		names = append(names, filepath.ToSlash(rel))
	}
	want := []string{".gitattributes", "issue/.notes", "issue/basic.runbook.md"}
	slices.Sort(names)
	if !reflect.DeepEqual(names, want) {
		t.Errorf("files after Update: %q, want %q", names, want)
	}
}

func TestUpdateInvalidPath(t *testing.T) {
	bad := []string{"", ".", "/abs/x.runbook.md", "../x.runbook.md", "a/../x.runbook.md", "a//x.runbook.md",
		".hidden/x.runbook.md", "a/.x.runbook.md", `a\x.runbook.md`, "a/x.runbook.md/"}
	for _, p := range bad {
		t.Run(p, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "golden")
			built := map[string][]byte{"a/ok.runbook.md": []byte("ok"), p: []byte("x")}
			if _, err := Update(dir, built); err == nil || !strings.Contains(err.Error(), "invalid artifact tree path") {
				t.Errorf("Update with path %q: error %v, want an invalid path error", p, err)
			}
			if _, err := os.Lstat(dir); !os.IsNotExist(err) {
				t.Errorf("Update with an invalid path wrote something (Lstat: %v)", err)
			}
		})
	}
}

func TestUpdateBytesExact(t *testing.T) {
	dir := t.TempDir()
	built := map[string][]byte{
		"t/crlf.runbook.md":   []byte("a\r\nb\r\n"),
		"t/binary.runbook.md": {0, 0xff, 0xfe, '\r', '\n', 0x80},
		"t/bom.runbook.md":    []byte("\ufeffx"),
	}
	if _, err := Update(dir, built); err != nil {
		t.Fatal(err)
	}
	for p, want := range built {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s = %q, %v; want %q", p, got, err, want)
		}
	}
}

// TestReadAgainst: ReadAgainst gives what Read gives, byte for byte, whether each file matches what is built,
// differs from it, or is not built at all; a matching file shares the built slice instead of being read.
func TestReadAgainst(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a/same.md": "same", "a/diff.md": "old", "a/gone.md": "gone", "b/long.md": strings.Repeat("x", 200000)})
	built := map[string][]byte{
		"a/same.md": []byte("same"),
		"a/diff.md": []byte("new"),
		"a/new.md":  []byte("new"),
		"b/long.md": []byte(strings.Repeat("x", 199999) + "y"),
	}
	want, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadAgainst(dir, built)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReadAgainst = %q\nRead        = %q", got, want)
	}
	if &got["a/same.md"][0] != &built["a/same.md"][0] {
		t.Error("a matching file was read into new memory, not shared with the built bytes")
	}
	if _, err := ReadAgainst(filepath.Join(dir, "a", "same.md"), built); err == nil {
		t.Error("ReadAgainst of a file, not a directory, succeeded")
	}
}
