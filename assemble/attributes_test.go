package assemble_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
)

// TestWriteTreeGitAttributes: a tree written with GitAttributes (golden/) gets a .gitattributes marking every file
// binary, listed first among the files written, when it has none; a second write, or the user's own file, leaves it
// alone; without the option none is written.
func TestWriteTreeGitAttributes(t *testing.T) {
	files := bytesTree(map[string]string{"issue/a.runbook.md": "a\n", "chat/a.runbook.md": "b\n"})
	opts := assemble.GoldenOptions()
	if opts != (assemble.TreeOptions{Prune: assemble.PruneAll, Sync: true, GitAttributes: true}) {
		t.Fatalf("GoldenOptions() = %+v, want StaleAll, synced, with .gitattributes", opts)
	}

	dir := t.TempDir()
	ch, err := assemble.WriteTree(dir, files, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{assemble.AttributesFile, "chat/a.runbook.md", "issue/a.runbook.md"}
	if !reflect.DeepEqual(ch.Written, want) {
		t.Errorf("Written = %q, want %q", ch.Written, want)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".gitattributes"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "# ") || !strings.HasSuffix(string(data), "\n* -text\n") {
		t.Errorf(".gitattributes = %q, want comments, then the one rule * -text", data)
	}

	ch, err = assemble.WriteTree(dir, files, opts)
	if err != nil || len(ch.Written) != 0 || ch.Unchanged != 2 {
		t.Errorf("second write: %+v, %v; want nothing written, 2 unchanged", ch, err)
	}

	own := t.TempDir()
	writeUserFiles(t, own, map[string]string{".gitattributes": "*.md text\n"})
	ch, err = assemble.WriteTree(own, files, opts)
	if err != nil || !reflect.DeepEqual(ch.Written, want[1:]) {
		t.Errorf("with the user's .gitattributes: Written = %q, %v; want %q", ch.Written, err, want[1:])
	}
	if data, _ := os.ReadFile(filepath.Join(own, ".gitattributes")); string(data) != "*.md text\n" {
		t.Errorf("the user's .gitattributes became %q", data)
	}

	plain := t.TempDir()
	if _, err := assemble.WriteTree(plain, files, assemble.TreeOptions{Prune: assemble.PruneAll}); err != nil {
		t.Fatal(err)
	}
	if got := listFiles(t, plain); !reflect.DeepEqual(got, want[1:]) {
		t.Errorf("without GitAttributes the tree holds %q, want %q", got, want[1:])
	}
}
