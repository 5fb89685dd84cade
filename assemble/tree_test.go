package assemble_test

import (
	"errors"
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

// writeUserFiles writes files (slash path → text) under dir, as a user would have put them there.
func writeUserFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, text := range files {
		name := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// listFiles returns every regular file under dir, dot files included, as sorted slash paths.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func bytesTree(files map[string]string) map[string][]byte {
	out := map[string][]byte{}
	for p, text := range files {
		out[p] = []byte(text)
	}
	return out
}

// TestWriteTreeKeepsUserFiles is the data-loss defect of build --out DIR: files of the user's named like artifacts
// (TASK/NAME.runbook.md) were removed as stale. Under PruneListed only what an earlier WriteTree listed goes.
func TestWriteTreeKeepsUserFiles(t *testing.T) {
	dir := t.TempDir()
	user := map[string]string{
		"templates/intro.runbook.md": "a template",
		"notes/monday.runbook.md":    "notes",
		"issue/mine.turn-1.md":       "in a task's directory",
		"README.md":                  "readme",
	}
	writeUserFiles(t, dir, user)
	opts := assemble.TreeOptions{Prune: assemble.PruneListed}
	first := bytesTree(map[string]string{"issue/a.runbook.md": "a", "issue/b.runbook.md": "b", "chat/a.runbook.md": "c"})
	ch, err := assemble.WriteTree(dir, first, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := (assemble.TreeChanges{Written: []string{"chat/a.runbook.md", "issue/a.runbook.md", "issue/b.runbook.md"}}); !reflect.DeepEqual(ch, want) {
		t.Errorf("first WriteTree: %+v, want %+v", ch, want)
	}

	// Fixture b and task chat are gone: what the first write put there goes, with the directory it empties.
	second := bytesTree(map[string]string{"issue/a.runbook.md": "a"})
	ch, err = assemble.WriteTree(dir, second, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := (assemble.TreeChanges{Removed: []string{"chat/a.runbook.md", "issue/b.runbook.md"}, Unchanged: 1}); !reflect.DeepEqual(ch, want) {
		t.Errorf("second WriteTree: %+v, want %+v", ch, want)
	}
	want := []string{".promptc-build", "README.md", "issue/a.runbook.md", "issue/mine.turn-1.md", "notes/monday.runbook.md", "templates/intro.runbook.md"}
	if got := listFiles(t, dir); !reflect.DeepEqual(got, want) {
		t.Errorf("files after two writes:\n got %q\nwant %q", got, want)
	}
	for p, text := range user {
		if data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p))); err != nil || string(data) != text {
			t.Errorf("user file %s = %q, %v; want %q untouched", p, data, err, text)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "chat")); !os.IsNotExist(err) {
		t.Errorf("directory chat, left empty, was not removed (Lstat: %v)", err)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, assemble.BuildManifest))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(manifest), "\nissue/a.runbook.md\n") || strings.Contains(string(manifest), "b.runbook.md") {
		t.Errorf("manifest after the second write:\n%s\nwant it to list exactly issue/a.runbook.md", manifest)
	}
}

// TestWriteTreeListedOnlyFiles: a listed path that is now a directory, or reached through a symbolic link, or gone,
// is not promptc's to remove; manifest lines that are not tree paths are ignored.
func TestWriteTreeListedOnlyFiles(t *testing.T) {
	dir := t.TempDir()
	elsewhere := t.TempDir()
	writeUserFiles(t, elsewhere, map[string]string{"x.runbook.md": "not promptc's"})
	writeUserFiles(t, dir, map[string]string{
		assemble.BuildManifest: "# a manifest edited by hand\n" +
			"now-a-dir/x.runbook.md\nlinked/x.runbook.md\ngone/x.runbook.md\n" +
			"../outside.md\n/etc/passwd\n.hidden/x.md\n\"bad quote\n\"quoted/\\u00e9.runbook.md\"\n",
		"now-a-dir/x.runbook.md/user.txt": "a directory now",
		"quoted/é.runbook.md":             "listed, Go-quoted",
	})
	if err := os.Symlink(elsewhere, filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	ch, err := assemble.WriteTree(dir, nil, assemble.TreeOptions{Prune: assemble.PruneListed})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"quoted/é.runbook.md"}; !reflect.DeepEqual(ch.Removed, want) {
		t.Errorf("removed %q, want %q", ch.Removed, want)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "x.runbook.md")); err != nil {
		t.Errorf("a file reached through a symbolic link was removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "now-a-dir", "x.runbook.md", "user.txt")); err != nil {
		t.Errorf("a directory standing at a listed path lost its file: %v", err)
	}
}

// TestWriteTreeManifestQuoting: a path that could not stand on a line of its own as is (a newline, a leading #) is
// written Go-quoted, and read back.
func TestWriteTreeManifestQuoting(t *testing.T) {
	dir := t.TempDir()
	opts := assemble.TreeOptions{Prune: assemble.PruneListed}
	odd := bytesTree(map[string]string{"t/a\nb.runbook.md": "1", "#t/x.runbook.md": "2", `t/q"uote.runbook.md`: "3"})
	if _, err := assemble.WriteTree(dir, odd, opts); err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, assemble.BuildManifest))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{`"#t/x.runbook.md"`, `"t/a\nb.runbook.md"`, `"t/q\"uote.runbook.md"`} {
		if !strings.Contains(string(manifest), "\n"+line+"\n") {
			t.Errorf("manifest lacks the line %s:\n%s", line, manifest)
		}
	}
	ch, err := assemble.WriteTree(dir, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"#t/x.runbook.md", "t/a\nb.runbook.md", `t/q"uote.runbook.md`}; !reflect.DeepEqual(ch.Removed, want) {
		t.Errorf("removed %q, want %q", ch.Removed, want)
	}
	if got := listFiles(t, dir); !reflect.DeepEqual(got, []string{assemble.BuildManifest}) {
		t.Errorf("files left: %q, want the manifest alone", got)
	}
}

// TestWriteTreeUnchanged: a second write of the same tree touches nothing, the manifest included.
func TestWriteTreeUnchanged(t *testing.T) {
	for _, rule := range []assemble.Prune{assemble.PruneListed, assemble.PruneAll} {
		t.Run(rule.String(), func(t *testing.T) {
			dir := t.TempDir()
			files := bytesTree(map[string]string{"issue/a.runbook.md": "a", "issue/a.turn-1.md": "t"})
			opts := assemble.TreeOptions{Prune: rule}
			if _, err := assemble.WriteTree(dir, files, opts); err != nil {
				t.Fatal(err)
			}
			old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
			for _, p := range listFiles(t, dir) {
				if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(p)), old, old); err != nil {
					t.Fatal(err)
				}
			}
			ch, err := assemble.WriteTree(dir, files, opts)
			if err != nil {
				t.Fatal(err)
			}
			if want := (assemble.TreeChanges{Unchanged: 2}); !reflect.DeepEqual(ch, want) {
				t.Errorf("second WriteTree: %+v, want %+v", ch, want)
			}
			for _, p := range listFiles(t, dir) {
				if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err != nil || !fi.ModTime().Equal(old) {
					t.Errorf("%s rewritten by a write of the same tree", p)
				}
			}
		})
	}
}

// TestWriteTreeStaleAll: under PruneAll every file but dot files is the tree's, whatever its name.
func TestWriteTreeStaleAll(t *testing.T) {
	dir := t.TempDir()
	writeUserFiles(t, dir, map[string]string{
		"notes.txt":                  "stale: not built",
		"issue/a.runbook.md":         "old",
		"review/deep/x.md":           "stale, in directories left empty",
		"issue/.keep":                "a dot file: not part of the tree",
		"issue/.a.runbook.md.tmp-42": "left by a killed write",
	})
	ch, err := assemble.WriteTree(dir, bytesTree(map[string]string{"issue/a.runbook.md": "new"}), assemble.TreeOptions{Prune: assemble.PruneAll})
	if err != nil {
		t.Fatal(err)
	}
	want := assemble.TreeChanges{Written: []string{"issue/a.runbook.md"}, Removed: []string{"notes.txt", "review/deep/x.md"}}
	if !reflect.DeepEqual(ch, want) {
		t.Errorf("WriteTree: %+v, want %+v", ch, want)
	}
	if got := listFiles(t, dir); !reflect.DeepEqual(got, []string{"issue/.keep", "issue/a.runbook.md"}) {
		t.Errorf("files left: %q", got)
	}
}

func TestWriteTreeInvalidPath(t *testing.T) {
	for _, p := range []string{"", "../x.md", "/abs.md", "a/.x.md", `a\x.md`, ".promptc-build"} {
		dir := filepath.Join(t.TempDir(), "out")
		if _, err := assemble.WriteTree(dir, map[string][]byte{p: nil}, assemble.TreeOptions{}); err == nil || !strings.Contains(err.Error(), "invalid artifact tree path") {
			t.Errorf("WriteTree with path %q: error %v, want an invalid path error", p, err)
		}
		if _, err := os.Lstat(dir); !os.IsNotExist(err) {
			t.Errorf("WriteTree with path %q wrote something", p)
		}
	}
}

// TestWriteTreeInterrupted: when a write fails halfway, the manifest already lists every file the write may have
// put in place, so the next WriteTree removes those it no longer produces.
func TestWriteTreeInterrupted(t *testing.T) {
	dir := t.TempDir()
	opts := assemble.TreeOptions{Prune: assemble.PruneListed}
	if _, err := assemble.WriteTree(dir, bytesTree(map[string]string{"t/a.runbook.md": "a"}), opts); err != nil {
		t.Fatal(err)
	}
	// A directory of the user's stands where the write wants a file: renaming over it fails.
	writeUserFiles(t, dir, map[string]string{"t/z.runbook.md/keep": "the user's"})
	more := bytesTree(map[string]string{"t/a.runbook.md": "a", "t/b.runbook.md": "b", "t/z.runbook.md": "z"})
	if _, err := assemble.WriteTree(dir, more, opts); err == nil {
		t.Fatal("WriteTree over a directory standing at an artifact's path: no error")
	}
	manifest, err := os.ReadFile(filepath.Join(dir, assemble.BuildManifest))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(manifest), "\nt/a.runbook.md\nt/b.runbook.md\nt/z.runbook.md\n") {
		t.Errorf("manifest after a failed write:\n%s\nwant it to list every path the write was to put in place", manifest)
	}
	ch, err := assemble.WriteTree(dir, bytesTree(map[string]string{"t/a.runbook.md": "a"}), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "t", "b.runbook.md")); !os.IsNotExist(err) {
		t.Errorf("t/b.runbook.md, written by the failed write, was not removed (removed %q)", ch.Removed)
	}
	if _, err := os.Stat(filepath.Join(dir, "t", "z.runbook.md", "keep")); err != nil {
		t.Errorf("the user's directory lost its file: %v", err)
	}
}

// TestWriteTreeLinks: a directory below the tree's directory that is a symbolic link stops WriteTree before anything
// is written, under either stale rule, and names the topmost link; the directory itself may be a link.
func TestWriteTreeLinks(t *testing.T) {
	for _, rule := range []assemble.Prune{assemble.PruneListed, assemble.PruneAll} {
		t.Run(rule.String(), func(t *testing.T) {
			top := t.TempDir()
			writeUserFiles(t, top, map[string]string{"elsewhere/keep.md": "keep\n", "out/mine.md": "mine\n"})
			if err := os.Symlink("../elsewhere", filepath.Join(top, "out", "issue")); err != nil {
				testenv.Absent(t, "no symbolic links here: %v", err)
			}
			files := map[string][]byte{"chat/a.runbook.md": []byte("c\n"), "issue/deep/a.runbook.md": []byte("a\n")}
			_, err := assemble.WriteTree(filepath.Join(top, "out"), files, assemble.TreeOptions{Prune: rule})
			var le *assemble.LinkError
			if !errors.As(err, &le) || le.Rel != "issue" || le.Target != "../elsewhere" {
				t.Fatalf("WriteTree error = %v, want a *assemble.LinkError for issue", err)
			}
			want := []string{"elsewhere/keep.md", "out/mine.md"}
			if got := listFiles(t, top); !slices.Equal(got, want) {
				t.Errorf("files after the refusal = %q, want %q", got, want)
			}
			// Through a link to the directory itself, the tree is written.
			if err := os.Remove(filepath.Join(top, "out", "issue")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("out", filepath.Join(top, "linked")); err != nil {
				t.Fatal(err)
			}
			if _, err := assemble.WriteTree(filepath.Join(top, "linked"), files, assemble.TreeOptions{Prune: assemble.PruneListed}); err != nil {
				t.Fatalf("WriteTree through a linked directory: %v", err)
			}
		})
	}
}
