package keytables

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
)

// Read returns the key tables of the loader in dir (the blocks/ directory), by variable name (manifestKeys, varKeys,
// …), each as its keys in source order. The tables are unexported, and declarative enough to read without running
// them: a table is a package variable of type []key[T]; an element is a key{name: "…"} literal, a call of a
// function that returns one (enumKey("type", …), or typeKey, modelInt("step", …) whose first string argument or
// returned literal names it), or a package variable holding one (trustKey, langKey). An element of another form is
// an error naming it, so that a new form is taught here rather than skipped.
func Read(dir string) (map[string][]string, error) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	vars := map[string]ast.Expr{}
	funcs := map[string]*ast.FuncDecl{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					funcs[d.Name.Name] = d
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if vs, ok := s.(*ast.ValueSpec); ok {
						for i, n := range vs.Names {
							if i < len(vs.Values) {
								vars[n.Name] = vs.Values[i]
							}
						}
					}
				}
			}
		}
	}
	var keyName func(e ast.Expr, depth int) string
	keyName = func(e ast.Expr, depth int) string {
		if depth > 5 {
			return ""
		}
		switch e := e.(type) {
		case *ast.CompositeLit:
			for _, el := range e.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "name" {
						if lit, ok := kv.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
							s, _ := strconv.Unquote(lit.Value)
							return s
						}
						return "" // a computed name: resolved at the call (modelInt's name parameter)
					}
				}
			}
		case *ast.Ident:
			if v, ok := vars[e.Name]; ok {
				return keyName(v, depth+1)
			}
		case *ast.CallExpr:
			if len(e.Args) > 0 {
				if lit, ok := e.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					s, _ := strconv.Unquote(lit.Value)
					return s
				}
			}
			id, ok := e.Fun.(*ast.Ident)
			if !ok {
				return ""
			}
			fd := funcs[id.Name]
			if fd == nil || fd.Body == nil {
				return ""
			}
			for _, st := range fd.Body.List {
				if r, ok := st.(*ast.ReturnStmt); ok && len(r.Results) == 1 {
					if s := keyName(r.Results[0], depth+1); s != "" {
						return s
					}
				}
			}
		}
		return ""
	}
	tables := map[string][]string{}
	for name, v := range vars {
		lit, ok := v.(*ast.CompositeLit)
		if !ok {
			continue
		}
		arr, ok := lit.Type.(*ast.ArrayType)
		if !ok || arr.Len != nil || !isKeyType(arr.Elt) {
			continue
		}
		for _, el := range lit.Elts {
			n := keyName(el, 0)
			if n == "" {
				return nil, fmt.Errorf("cannot read the name of an entry of %s at %s: teach keytables.Read this form", name, fset.Position(el.Pos()))
			}
			tables[name] = append(tables[name], n)
		}
	}
	if len(tables) < 10 {
		return nil, fmt.Errorf("found only %d key tables in %s: %v", len(tables), dir, tables)
	}
	return tables, nil
}

// isKeyType reports whether e is key[T].
func isKeyType(e ast.Expr) bool {
	if ix, ok := e.(*ast.IndexExpr); ok {
		id, ok := ix.X.(*ast.Ident)
		return ok && id.Name == "key"
	}
	return false
}
