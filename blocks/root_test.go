package blocks

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestFindRoot(t *testing.T) {
	top := t.TempDir()
	proj := filepath.Join(top, "proj")
	deep := filepath.Join(proj, "docs", "deep")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, ManifestFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{proj, deep, filepath.Join(proj, "docs")} {
		got, err := FindRoot(dir)
		if err != nil || got != proj {
			t.Errorf("FindRoot(%s) = %q, %v; want %q", dir, got, err, proj)
		}
	}
	_, err := FindRoot(top)
	if !errors.Is(err, ErrNoRoot) {
		t.Fatalf("FindRoot above the project: error %v, want one that is ErrNoRoot", err)
	}
	if want := "no promptc.toml in " + top + " or any parent directory"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

// TestFindBelow: projects below a directory, nearest first and by name, to a bounded depth, not inside a project
// found, nor in .git, node_modules, build or vendor, nor through a symbolic link.
func TestFindBelow(t *testing.T) {
	top := t.TempDir()
	for _, dir := range []string{
		"prompts", "b/z", "b/a", "a/b/c", "a/b/c/d/e", // depth 1, 2, 2, 3 and 5
		"prompts/nested", ".git/x", "node_modules/pkg", "build/out", "vendor/mod", "b/a/build",
		"a/plain", // no manifest
	} {
		if err := os.MkdirAll(filepath.Join(top, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if dir != "a/plain" {
			if err := os.WriteFile(filepath.Join(top, dir, ManifestFile), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A directory named promptc.toml is no manifest; a link to a project is not followed.
	if err := os.MkdirAll(filepath.Join(top, "c", ManifestFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(top, "prompts"), filepath.Join(top, "link")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		depth int
		want  []string
	}{
		{0, nil},
		{1, []string{"prompts"}},
		{2, []string{"prompts", "b/a", "b/z"}},
		{3, []string{"prompts", "b/a", "b/z", "a/b/c"}},
		{9, []string{"prompts", "b/a", "b/z", "a/b/c"}},
	}
	for _, tt := range tests {
		if got := FindBelow(top, tt.depth); !slices.Equal(got, tt.want) {
			t.Errorf("FindBelow(depth %d) = %q, want %q", tt.depth, got, tt.want)
		}
	}
	if got := FindBelow(filepath.Join(top, "missing"), 3); got != nil {
		t.Errorf("FindBelow of a missing directory = %q, want none", got)
	}
}
