package docs_test

import (
	"go/build"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/promptc/promptc/"

// imports returns the packages of this module that the package at slash path rel (relative to the module root)
// imports from its non-test files, as slash paths relative to the module root, sorted.
func imports(t *testing.T, rel string) []string {
	t.Helper()
	p, err := build.ImportDir(filepath.Join("..", filepath.FromSlash(rel)), 0)
	if err != nil {
		t.Fatalf("reading package %s: %v", rel, err)
	}
	var out []string
	for _, imp := range p.Imports {
		if dep, ok := strings.CutPrefix(imp, module); ok {
			out = append(out, dep)
		}
	}
	slices.Sort(out)
	return out
}

// dependsOn returns the chain of imports that leads from package from to package to (both slash paths relative to
// the module root), or nil when from does not depend on to, directly or not.
func dependsOn(t *testing.T, from, to string) []string {
	t.Helper()
	via := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, dep := range imports(t, p) {
			if _, seen := via[dep]; seen {
				continue
			}
			via[dep] = p
			if dep == to {
				chain := []string{to}
				for q := p; q != ""; q = via[q] {
					chain = append([]string{q}, chain...)
				}
				return chain
			}
			queue = append(queue, dep)
		}
	}
	return nil
}

// TestLayout: the packages stand where the README's layout says (README.md, "Development"). The golden machinery
// (golden, the golden tree; guard, check and diff against it) is the end of the chain: provider requests
// (projection) and a new project (scaffold) are built without it, and the lints and stats measure a build without
// reading golden/. A package that starts importing one of them fails here with the chain of imports that does.
func TestLayout(t *testing.T) {
	tests := []struct {
		pkg     string
		without []string
	}{
		{pkg: "projection", without: []string{"guard", "golden", "lint", "stats", "miss", "usage"}},
		// miss reads requests and usage responses through the provider packages, never through projection's
		// builder: the three reach the wire formats only by package provider.
		{pkg: "miss", without: []string{"projection", "usage"}},
		{pkg: "scaffold", without: []string{"guard", "golden", "lint", "stats"}},
		{pkg: "lint", without: []string{"guard", "golden"}},
		{pkg: "stats", without: []string{"guard", "golden", "lint"}},
		{pkg: "report", without: []string{"guard", "golden", "lint", "stats"}},
		{pkg: "tokens", without: []string{"blocks", "assemble", "guard", "golden"}},
		// Value checking stands between the source model and the templates: values imports blocks, and templates
		// imports values; neither blocks nor values reaches templates. blocks hands fixture values back as read, and
		// values checks them after loading (values.Load): the type check, the values files and their diagnostics limit
		// are values', and blocks has no value check of its own.
		{pkg: "values", without: []string{"templates", "assemble"}},
		{pkg: "blocks", without: []string{"values", "templates"}},
		// The root package, the pipeline every front end opens, stands below the front ends it serves.
		{pkg: ".", without: []string{"cmd/promptc", "preview", "analysis", "lsp", "guard", "golden"}},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			for _, dep := range tt.without {
				if chain := dependsOn(t, tt.pkg, dep); chain != nil {
					t.Errorf("%s depends on %s: %s", tt.pkg, dep, strings.Join(chain, " -> "))
				}
			}
		})
	}
	// Package provider and its provider packages sit below everything that uses them: they import only each other
	// and package source and internal helpers, which stand below everything (docs/providers.md, "Adding a provider").
	for _, pkg := range []string{"provider", "provider/anthropic", "provider/openai", "provider/dashscope",
		"provider/deepseek", "provider/bedrock", "provider/gemini", "provider/codecs", "provider/internal/chat"} {
		for _, dep := range imports(t, pkg) {
			if dep == "source" {
				continue
			}
			if pkg == "provider" && !strings.HasPrefix(dep, "internal/") ||
				pkg != "provider" && dep != "provider" && !strings.HasPrefix(dep, "provider/") && !strings.HasPrefix(dep, "internal/") {
				t.Errorf("%s imports %s: a provider package imports only package provider, the other provider packages, source and internal helpers", pkg, dep)
			}
		}
	}
	// Package source (positions, ranges, diagnostics, the snippet writer) is below every stage that reports a problem,
	// the source model included: it imports no other package of this module but internal helpers (internal/enum,
	// the closed sets every enum type spells its names with).
	for _, dep := range imports(t, "source") {
		if !strings.HasPrefix(dep, "internal/") {
			t.Errorf("source imports %s: it imports no other package of this module but internal helpers", dep)
		}
	}
	// The test would pass on a typo: make sure it sees real dependencies.
	if chain := dependsOn(t, "guard", "golden"); chain == nil {
		t.Errorf("guard does not depend on golden: the layout test reads no imports")
	}
	if chain := dependsOn(t, "blocks", "source"); len(chain) != 2 {
		t.Errorf("blocks -> source = %v, want a direct import", chain)
	}
	if chain := dependsOn(t, "miss", "provider/anthropic"); len(chain) != 3 {
		t.Errorf("miss -> provider/anthropic = %v, want a chain through provider/codecs", chain)
	}
	if chain := dependsOn(t, "templates", "values"); len(chain) != 2 {
		t.Errorf("templates -> values = %v, want templates to import values", chain)
	}
	if chain := dependsOn(t, "values", "blocks"); len(chain) != 2 {
		t.Errorf("values -> blocks = %v, want values to import blocks", chain)
	}
	if chain := dependsOn(t, "scaffold", "internal/atomicfile"); len(chain) < 3 {
		t.Errorf("scaffold -> internal/atomicfile = %v, want a chain through assemble", chain)
	}
}
