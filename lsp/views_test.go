package lsp

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestViews: inlay hints, code lenses, semantic tokens and workspace symbols on the reference project, at exact
// positions, with the figures promptc stats and promptc simulate give for the same runbooks.
func TestViews(t *testing.T) {
	root := copyTracker(t)
	c := startClient(t)
	c.initialize(root)
	m := filepath.Join(root, "promptc.toml")
	text := readFile(t, m)
	uri := c.open(m)
	full := map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 10000, "character": 0}}
	hints := c.result("textDocument/inlayHint", map[string]any{"textDocument": doc(uri), "range": full}).([]any)
	find := func(label string) map[string]any {
		for _, h := range hints {
			if h.(map[string]any)["label"] == label {
				return h.(map[string]any)["position"].(map[string]any)
			}
		}
		t.Fatalf("no hint %q in %v", label, hints)
		return nil
	}
	p := find("global, 507 B, 107 tokens")
	want := pos(t, text, `"header"`, 0, len(`"header"`))
	if int(p["line"].(float64)) != want["line"] || int(p["character"].(float64)) != want["character"] {
		t.Errorf("header hint at %v, want %v", p, want)
	}
	p = find(`"issue" prefix ends: 12079 B, 2847 tokens`)
	want = pos(t, text, `  "identity"`, 0, 2)
	if int(p["line"].(float64)) != want["line"] || int(p["character"].(float64)) != want["character"] {
		t.Errorf("prefix hint at %v, want %v", p, want)
	}

	lenses := c.result("textDocument/codeLens", map[string]any{"textDocument": doc(uri)}).([]any)
	cmd := lenses[0].(map[string]any)["command"].(map[string]any)
	if title := cmd["title"].(string); !strings.Contains(title, "prefix 2847 tokens") || !strings.Contains(title, "hit rate 41%") || cmd["command"] != "promptc.openPreview" {
		t.Errorf("lens = %v", cmd)
	}

	core := filepath.Join(root, "blocks", "00-core.toml")
	coreText := readFile(t, core)
	res := c.result("textDocument/semanticTokens/full", map[string]any{"textDocument": doc(c.open(core))}).(map[string]any)
	data := res["data"].([]any)
	at := pos(t, coreText, `{{const "command_boundary"}}`, 0, 0)
	got := make([]int, 15)
	for i := range got {
		got[i] = int(data[i].(float64))
	}
	// {{ operator, const function, "command_boundary" string (readonly), }} operator.
	wantData := []int{at["line"].(int), at["character"].(int), 2, 6, 0, 0, 2, 5, 1, 0, 0, 6, 18, 4, 1}
	if !reflect.DeepEqual(got, wantData) {
		t.Errorf("semantic tokens start %v, want %v", got, wantData)
	}

	syms := c.result("workspace/symbol", map[string]any{"query": "issue"}).([]any)
	if s := syms[0].(map[string]any); s["name"] != "issue" || s["kind"].(float64) != 22 {
		t.Errorf("workspace/symbol issue = %v", s)
	}
}
