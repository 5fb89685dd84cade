package docs_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// oneMeaning lists, for each name that once meant unrelated things in different packages, the packages (slash
// paths relative to the module root, "" for package promptc) whose top-level type or function may carry it
// (docs/decisions.md, "One name, one meaning"). explain.Block explains a blocks.Block, explain.Stale says whether a
// copy is stale as check says it, and miss.Part is provider.Part itself (an alias): each keeps the one meaning.
var oneMeaning = map[string][]string{
	"Project":   {"blocks"},
	"Fixture":   {"blocks"},
	"Block":     {"blocks", "explain"},
	"Kind":      {"blocks"},
	"Stale":     {"explain"},
	"Request":   {""},
	"Snapshot":  {"analysis"},
	"Part":      {"miss", "provider"},
	"LinkError": {"assemble"},
	"Scope":     {"blocks"},
	"Tally":     {"usage"},
}

// TestOneNameOneMeaning: none of the names above is declared, as a top-level type or function, outside the packages
// that own its meaning. A new package wanting one of them picks a word that says what its thing is.
func TestOneNameOneMeaning(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != ".." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			return nil // a command's names are no one's API
		}
		rel, _ := filepath.Rel("..", filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if pkg == "." {
			pkg = ""
		}
		for _, decl := range f.Decls {
			for _, id := range topLevel(decl) {
				owners, listed := oneMeaning[id.Name]
				if listed && !slices.Contains(owners, pkg) {
					t.Errorf("%s: %s declared in package %q; it means what %q declares (docs/decisions.md, \"One name, one meaning\")",
						fset.Position(id.Pos()), id.Name, pkg, owners[0])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// topLevel returns the names of the types and functions (not methods) decl declares.
func topLevel(decl ast.Decl) []*ast.Ident {
	switch d := decl.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			return []*ast.Ident{d.Name}
		}
	case *ast.GenDecl:
		var ids []*ast.Ident
		for _, s := range d.Specs {
			if ts, ok := s.(*ast.TypeSpec); ok {
				ids = append(ids, ts.Name)
			}
		}
		return ids
	}
	return nil
}
