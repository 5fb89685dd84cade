package blocks

import (
	"errors"
	"os"
	"path/filepath"
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
