package docs_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneOfEach: a helper the repository keeps once is not written again elsewhere. A plural rule lives in
// internal/plural and an edit distance in internal/suggest (README.md, "Development"); a function of the non-test
// code named for either, outside its package, is a second copy.
func TestOneOfEach(t *testing.T) {
	owners := map[string]string{ // a lower-case function name → the one package that may define it
		"plural":       "internal/plural",
		"pluralize":    "internal/plural",
		"levenshtein":  "internal/suggest",
		"distance":     "internal/suggest",
		"editdistance": "internal/suggest",
		"closest":      "internal/suggest",
	}
	var seen int
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		seen++
		dir, _ := filepath.Rel("..", filepath.Dir(path))
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil {
				continue
			}
			if owner, ok := owners[strings.ToLower(fn.Name.Name)]; ok && filepath.ToSlash(dir) != owner {
				t.Errorf("%s defines %s: use %s, the one copy", path, fn.Name.Name, owner)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 100 {
		t.Fatalf("read %d Go files: the walk misses the code", seen)
	}
}
