package assemble_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/internal/gen"
)

// TestCheckOutDir: a build may not land on the project root or among its sources, however the path is spelt.
func TestCheckOutDir(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"golden", "blocks/x", "templates", "fixtures"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(filepath.Join(root, "templates"), link); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		out, in string // in: "" accepted, "/" the root, else the source directory
	}{
		{root, "/"},
		{root + "/.", "/"},
		{filepath.Join(root, "golden"), "golden"},
		{filepath.Join(root, "blocks", "x", "new"), "blocks"},
		{filepath.Join(root, "fixtures", "..", "templates"), "templates"},
		{filepath.Join(link, "sub"), "templates"},
		{filepath.Join(root, "build"), ""},
		{filepath.Join(root, "goldenish"), ""},
		{filepath.Dir(root), ""},
	} {
		err := assemble.CheckOutDir(root, tt.out)
		var bad *assemble.OutDirError
		switch {
		case tt.in == "" && err != nil:
			t.Errorf("CheckOutDir(%s) = %v, want nil", tt.out, err)
		case tt.in != "" && !errors.As(err, &bad):
			t.Errorf("CheckOutDir(%s) = %v, want an *OutDirError", tt.out, err)
		case tt.in != "" && (bad.In != tt.in && !(tt.in == "/" && bad.In == "")):
			t.Errorf("CheckOutDir(%s) names %q, want %q", tt.out, bad.In, tt.in)
		}
	}
}

// ExampleBuildDir writes a project's artifacts as `promptc build --out` does, then again: the second build finds
// every file already holding its bytes and leaves it alone.
func ExampleBuildDir() {
	root, _ := os.MkdirTemp("", "promptc-example-")
	defer os.RemoveAll(root)
	if err := gen.WriteDir(root, gen.Files(gen.MinBlocks, gen.MinTasks)); err != nil {
		fmt.Println(err)
		return
	}
	out := filepath.Join(root, "out")
	first, err := assemble.BuildDir(root, out)
	if err != nil {
		fmt.Println(err)
		return
	}
	again, _ := assemble.BuildDir(root, out)
	fmt.Printf("first build wrote %d files; the second wrote %d and left %d unchanged\n",
		len(first.Written), len(again.Written), again.Unchanged)
	_, err = assemble.BuildDir(root, filepath.Join(root, "templates"))
	var bad *assemble.OutDirError
	fmt.Println("into templates/:", errors.As(err, &bad) && bad.In == "templates")
	// Output:
	// first build wrote 21 files; the second wrote 0 and left 21 unchanged
	// into templates/: true
}
