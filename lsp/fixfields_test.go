package lsp

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/promptc/promptc/analysis"
	"github.com/promptc/promptc/source"
)

// TestFixtureFieldKeys: from the key of a record a fixture gives, an editor goes to the field's declaration, finds
// every place the field is written (the body that reads it and every record of every fixture, as [[session.NAME]]
// tables or inline tables) and renames them all in one edit, after which the project loads clean.
func TestFixtureFieldKeys(t *testing.T) {
	root := copyTracker(t)
	c := startClient(t)
	c.initialize(root)
	north := filepath.Join(root, "fixtures", "northwind.toml")
	text := readFile(t, north)
	uri := c.open(north)
	p := pos(t, text, "url            =", 0, 1)

	res := c.result("textDocument/definition", at(uri, p))
	mtext := readFile(t, filepath.Join(root, "promptc.toml"))
	want := pos(t, mtext, "[vars.repositories.fields.url]", 0, 0)
	if locs, ok := res.([]any); !ok || len(locs) != 1 || !strings.HasSuffix(locs[0].(map[string]any)["uri"].(string), "/promptc.toml") || line(locs[0]) != want["line"] {
		t.Fatalf("definition = %v, want promptc.toml line %v", res, want["line"])
	}

	res = c.result("textDocument/references", map[string]any{"textDocument": doc(uri), "position": p, "context": map[string]any{"includeDeclaration": false}})
	perFile := map[string]int{}
	for _, l := range res.([]any) {
		perFile[filepath.Base(l.(map[string]any)["uri"].(string))]++
	}
	// {{.url}} in one body; five [[session.repositories]] in northwind.toml, twelve inline records in oversized.toml.
	if want := map[string]int{"30-session.toml": 1, "northwind.toml": 5, "oversized.toml": 12}; !maps.Equal(perFile, want) {
		t.Errorf("references per file = %v, want %v", perFile, want)
	}

	prep := c.result("textDocument/prepareRename", at(uri, p)).(map[string]any)
	if prep["placeholder"] != "url" {
		t.Errorf("prepareRename = %v, want the placeholder url", prep)
	}

	res = c.result("textDocument/rename", map[string]any{"textDocument": doc(uri), "position": p, "newName": "link"})
	changes := res.(map[string]any)["changes"].(map[string]any)
	over := map[string]string{}
	for u, edits := range changes {
		rel, _ := filepath.Rel(root, strings.TrimPrefix(u, "file://"))
		rel = filepath.ToSlash(rel)
		f := source.NewFile(rel, readFile(t, filepath.Join(root, rel)))
		type span struct{ a, b int }
		var spans []span
		for _, e := range edits.([]any) {
			r := e.(map[string]any)["range"].(map[string]any)
			a := fromPosition(f, position(r["start"]))
			b := fromPosition(f, position(r["end"]))
			if got := f.Text[a:b]; got != "url" || e.(map[string]any)["newText"] != "link" {
				t.Errorf("%s: an edit replaces %q by %v", rel, got, e.(map[string]any)["newText"])
			}
			spans = append(spans, span{a, b})
		}
		slices.SortFunc(spans, func(x, y span) int { return y.a - x.a })
		out := f.Text
		for _, s := range spans {
			out = out[:s.a] + "link" + out[s.b:]
		}
		over[rel] = out
	}
	if len(over) != 4 {
		t.Errorf("rename edits %d files, want 4 (promptc.toml, a block file, two fixtures): %v", len(over), slices.Sorted(maps.Keys(over)))
	}
	if d := analysis.LoadDir(root, over).Diagnostics(); len(d) > 0 {
		t.Errorf("after the rename: %v", d)
	}
}

func position(v any) Position {
	m := v.(map[string]any)
	return Position{Line: int(m["line"].(float64)), Character: int(m["character"].(float64))}
}
