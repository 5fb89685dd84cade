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
// code named for either, outside its package, is a second copy. A closed set of names is parsed by internal/enum: an
// UnmarshalText method that loops over names itself is a second parser.
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
			if !ok {
				continue
			}
			if fn.Recv != nil {
				if fn.Name.Name == "UnmarshalText" && fn.Body != nil && filepath.ToSlash(dir) != "internal/enum" {
					ast.Inspect(fn.Body, func(n ast.Node) bool {
						switch n.(type) {
						case *ast.ForStmt, *ast.RangeStmt:
							t.Errorf("%s: UnmarshalText loops over its names: declare them as an enum.Set (internal/enum)", path)
							return false
						}
						return true
					})
				}
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
