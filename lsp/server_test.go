package lsp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func doc(uri string) map[string]any { return map[string]any{"uri": uri} }

func at(uri string, p map[string]any) map[string]any {
	return map[string]any{"textDocument": doc(uri), "position": p}
}

func TestCapabilities(t *testing.T) {
	c := startClient(t)
	res := c.initialize(copyTracker(t))
	caps := res["capabilities"].(map[string]any)
	for _, k := range []string{"definitionProvider", "hoverProvider", "referencesProvider", "renameProvider", "completionProvider", "documentSymbolProvider", "codeActionProvider", "textDocumentSync"} {
		if caps[k] == nil || caps[k] == false {
			t.Errorf("capability %s missing: %v", k, caps)
		}
	}
	if got := caps["positionEncoding"]; got != "utf-16" {
		t.Errorf("positionEncoding = %v, want utf-16", got)
	}
	if m := c.call("shutdown", nil); m["error"] != nil {
		t.Fatalf("shutdown: %v", m["error"])
	}
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != nil {
			t.Fatalf("Serve after shutdown and exit = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after exit")
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := startClient(t)
	c.initialize(t.TempDir())
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != ErrExitWithoutShutdown {
			t.Fatalf("Serve after exit alone = %v, want ErrExitWithoutShutdown", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after exit")
	}
}

// TestUnsavedTypo: an edit that misspells a constant, never saved, is reported at its line with the suggestion
// within a second, and the report is withdrawn when the edit is undone.
func TestUnsavedTypo(t *testing.T) {
	root := copyTracker(t)
	c := startClient(t)
	c.initialize(root)
	path := filepath.Join(root, "blocks", "00-core.toml")
	text := readFile(t, path)
	uri := c.open(path)
	clean := func(ds []map[string]any) bool {
		return !slices.ContainsFunc(ds, func(d map[string]any) bool { return d["severity"].(float64) == 1 })
	}
	if ds, ok := c.waitDiags(uri, 10*time.Second, clean); !ok {
		t.Fatalf("the reference project has errors before the edit: %v", ds)
	}
	typo := strings.Replace(text, `{{const "never_post_secrets"}}`, `{{const "never_post_secret"}}`, 1)
	want := pos(t, typo, `never_post_secret"`, 0, 0)
	start := time.Now()
	c.change(uri, 2, typo)
	ds, ok := c.waitDiags(uri, time.Second, func(ds []map[string]any) bool { return !clean(ds) })
	if !ok {
		t.Fatalf("no error within a second of the edit (%v); diagnostics: %v", time.Since(start), ds)
	}
	d := ds[slices.IndexFunc(ds, func(d map[string]any) bool { return d["severity"].(float64) == 1 })]
	msg := d["message"].(string)
	if !strings.Contains(msg, `"never_post_secret"`) || !strings.Contains(msg, `did you mean "never_post_secrets"`) {
		t.Errorf("message = %q, want the unknown constant and the suggestion", msg)
	}
	if line(d) != want["line"] {
		t.Errorf("diagnostic at line %d, want %d (0-based)", line(d), want["line"])
	}
	c.change(uri, 3, text)
	if ds, ok := c.waitDiags(uri, 5*time.Second, clean); !ok {
		t.Fatalf("the error was not withdrawn after the undo: %v", ds)
	}
}

// TestNonASCIIPositions: a diagnostic in a Markdown template whose line holds characters outside ASCII (some of them
// two UTF-16 units long) is reported in that file, at the UTF-16 column.
func TestNonASCIIPositions(t *testing.T) {
	root := copyTracker(t)
	c := startClient(t)
	c.initialize(root)
	path := filepath.Join(root, "templates", "commands.md")
	text := readFile(t, path)
	uri := c.open(path)
	edited := "Café 🚀 naïve — {{const \"no_such_rule\"}}\n" + text
	c.change(uri, 2, edited)
	ds, ok := c.waitDiags(uri, 5*time.Second, func(ds []map[string]any) bool { return len(ds) > 0 })
	if !ok {
		t.Fatal("no diagnostic in the template")
	}
	// "Café 🚀 naïve — {{const " is 23 runes; the rocket is two UTF-16 units: the name's quote is at 24.
	want := 24
	if line(ds[0]) != 0 || char(ds[0]) != want {
		t.Errorf("diagnostic at %d:%d, want 0:%d: %v", line(ds[0]), char(ds[0]), want, ds[0])
	}
	// Definition from the same line: the cursor is placed with UTF-16 units too.
	c.change(uri, 3, "Café 🚀 naïve — {{const \"command_boundary\"}}\n"+text)
	res := c.result("textDocument/definition", at(uri, map[string]any{"line": 0, "character": 41})) // just after the name: off by one unit, and it is past the name
	locs, _ := res.([]any)
	if len(locs) != 1 || !strings.HasSuffix(locs[0].(map[string]any)["uri"].(string), "/blocks/consts.toml") {
		t.Fatalf("definition from after a non-ASCII prefix = %v", res)
	}
}

func TestDefinitionReferencesHoverRename(t *testing.T) {
	root := copyTracker(t)
	c := startClient(t)
	c.initialize(root)
	consts := readFile(t, filepath.Join(root, "blocks", "consts.toml"))
	core := filepath.Join(root, "blocks", "00-core.toml")
	coreText := readFile(t, core)
	uri := c.open(core)

	// Definition of a constant: its line in the constants file.
	res := c.result("textDocument/definition", at(uri, pos(t, coreText, `command_boundary"`, 0, 3)))
	locs := res.([]any)
	want := pos(t, consts, "command_boundary =", 0, 0)
	if len(locs) != 1 || !strings.HasSuffix(locs[0].(map[string]any)["uri"].(string), "/blocks/consts.toml") || line(locs[0]) != want["line"] || char(locs[0]) != 0 {
		t.Fatalf("definition = %v, want blocks/consts.toml line %v", res, want["line"])
	}

	// References: in TOML bodies and in the Markdown template.
	res = c.result("textDocument/references", map[string]any{"textDocument": doc(uri), "position": pos(t, coreText, `command_boundary"`, 0, 3), "context": map[string]any{"includeDeclaration": true}})
	var files []string
	for _, l := range res.([]any) {
		u := l.(map[string]any)["uri"].(string)
		files = append(files, u[strings.LastIndex(u, "/tracker")+1:][0:0]+filepath.Base(u))
	}
	for _, f := range []string{"consts.toml", "00-core.toml", "10-commands.toml", "commands.md"} {
		if !slices.Contains(files, f) {
			t.Errorf("references miss %s: %v", f, files)
		}
	}

	// Hover on a block id in runbook.order states its scope.
	manifest := filepath.Join(root, "promptc.toml")
	mtext := readFile(t, manifest)
	muri := c.open(manifest)
	h := c.result("textDocument/hover", at(muri, pos(t, mtext, `"identity"`, 0, 3))).(map[string]any)
	value := h["contents"].(map[string]any)["value"].(string)
	if !strings.Contains(value, "scope: **session**") || !strings.Contains(value, `session variable "agent_name"`) {
		t.Errorf("hover on identity = %q, want its scope and why", value)
	}
	h = c.result("textDocument/hover", at(muri, pos(t, mtext, `"header"`, 0, 3))).(map[string]any)
	if value := h["contents"].(map[string]any)["value"].(string); !strings.Contains(value, "scope: **global**") {
		t.Errorf("hover on header = %q, want global scope", value)
	}

	// Rename: the definition and every user.
	res = c.result("textDocument/rename", map[string]any{"textDocument": doc(uri), "position": pos(t, coreText, `command_boundary"`, 0, 3), "newName": "act_only_by_cli"})
	changes := res.(map[string]any)["changes"].(map[string]any)
	count := 0
	for u, edits := range changes {
		for _, e := range edits.([]any) {
			e := e.(map[string]any)
			if e["newText"] != "act_only_by_cli" {
				t.Errorf("edit in %s = %v", u, e)
			}
			count++
		}
	}
	if count != 4 || len(changes) != 4 {
		t.Errorf("rename edits %d places in %d files, want 4 in 4 (definition, two TOML bodies, a template): %v", count, len(changes), changes)
	}

	// A taken name and an invalid one are refused.
	for _, name := range []string{"never_post_secrets", "has space"} {
		m := c.call("textDocument/rename", map[string]any{"textDocument": doc(uri), "position": pos(t, coreText, `command_boundary"`, 0, 3), "newName": name})
		if m["error"] == nil {
			t.Errorf("rename to %q accepted: %v", name, m["result"])
		}
	}
}

// TestMalformed: bad JSON, unknown methods, requests before initialize and for unknown files get errors or empty
// answers, and the server keeps serving (a malformed header ends it: TestMalformedHeaderExits).
func TestMalformed(t *testing.T) {
	c := startClient(t)
	if m := c.call("textDocument/hover", at("file:///x/promptc.toml", map[string]any{"line": 0, "character": 0})); m["error"] == nil || m["error"].(map[string]any)["code"].(float64) != -32002 {
		t.Errorf("a request before initialize: %v, want error -32002 (server not initialized)", m)
	}
	c.raw("Content-Length: 5\r\n\r\n{bad}")
	c.raw("Content-Length: 2\r\n\r\n[]")
	c.initialize(t.TempDir())
	if m := c.call("no/such/method", nil); m["error"].(map[string]any)["code"].(float64) != -32601 {
		t.Errorf("unknown method: %v", m)
	}
	if m := c.call("textDocument/hover", "not an object"); m["error"] == nil {
		t.Errorf("hover with bad params: %v", m)
	}
	if m := c.call("textDocument/hover", at("file:///no/such/file.toml", map[string]any{"line": 3, "character": 1})); m["error"] != nil || m["result"] != nil {
		t.Errorf("hover in an unknown file = %v, want a null result", m)
	}
	if m := c.call("textDocument/definition", at("http://example.com/x", map[string]any{"line": 0, "character": 0})); m["error"] == nil {
		t.Errorf("definition of a non-file URI: %v", m)
	}
	if m := c.call("shutdown", nil); m["error"] != nil {
		t.Fatal(m)
	}
}

// TestProjectsAndDeletedFiles: two projects in one workspace each get their own analysis; a file deleted on disk
// is reported through the blocks that name it once the editor says so, and a buffer left open on a deleted file is
// still analysed.
func TestProjectsAndDeletedFiles(t *testing.T) {
	workspace := t.TempDir()
	a, b := filepath.Join(workspace, "a"), filepath.Join(workspace, "nested", "b")
	for _, dir := range []string{a, b} {
		writeFiles(t, dir, map[string]string{
			"promptc.toml":       "name = \"p\"\ntasks = [\"chat\"]\n[runbook]\norder = [\"main\"]\n",
			"blocks/main.toml":   "[[block]]\nid = \"main\"\ntemplate = \"main.md\"\n",
			"templates/main.md":  "Hello.\n",
			"blocks/other.toml":  "[const]\nx = \"y\"\n",
			"fixtures/base.toml": "",
		})
	}
	c := startClient(t)
	c.initialize(workspace)
	// A typo in project a's template is reported there, and project b stays clean.
	ua := c.open(filepath.Join(a, "templates", "main.md"))
	ub := c.open(filepath.Join(b, "templates", "main.md"))
	c.change(ua, 2, "Hello {{const \"z\"}}.\n")
	if ds, ok := c.waitDiags(ua, 5*time.Second, func(ds []map[string]any) bool { return len(ds) == 1 }); !ok {
		t.Fatalf("project a: %v", ds)
	}
	if ds, ok := c.waitDiags(ub, 5*time.Second, func(ds []map[string]any) bool { return len(ds) == 0 }); !ok {
		t.Fatalf("project b should be clean: %v", ds)
	}
	// Project b's template is deleted on disk while its buffer stays open: still analysed, from the buffer.
	if err := os.Remove(filepath.Join(b, "templates", "main.md")); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": ub, "type": 3}}})
	c.change(ub, 2, "Hello {{.nope}}.\n")
	if ds, ok := c.waitDiags(ub, 5*time.Second, func(ds []map[string]any) bool { return len(ds) == 1 }); !ok {
		t.Fatalf("the open buffer of a deleted file: %v", ds)
	}
	// Closing it leaves the file missing: the block that names it is reported in its own file.
	c.notify("textDocument/didClose", map[string]any{"textDocument": doc(ub)})
	blocksURI := pathURI(filepath.Join(b, "blocks", "main.toml"))
	ds, ok := c.waitDiags(blocksURI, 5*time.Second, func(ds []map[string]any) bool { return len(ds) > 0 })
	if !ok || !strings.Contains(ds[0]["message"].(string), "main.md") {
		t.Fatalf("a template deleted on disk: %v", ds)
	}
	// And the deleted file's own diagnostics are withdrawn.
	if ds, ok := c.waitDiags(ub, 5*time.Second, func(ds []map[string]any) bool { return len(ds) == 0 }); !ok {
		t.Fatalf("the deleted file keeps its diagnostics: %v", ds)
	}
	// A request about the deleted file is answered, not failed.
	if m := c.call("textDocument/hover", at(ub, map[string]any{"line": 0, "character": 0})); m["error"] != nil {
		t.Errorf("hover in a deleted file: %v", m)
	}
	// A project whose manifest does not parse answers with its diagnostics, and requests still get answers.
	manifest := filepath.Join(a, "promptc.toml")
	um := c.open(manifest)
	c.change(um, 2, "name = [\n")
	if ds, ok := c.waitDiags(um, 5*time.Second, func(ds []map[string]any) bool {
		return len(ds) == 1 && strings.Contains(ds[0]["message"].(string), "TOML syntax error")
	}); !ok {
		t.Fatalf("a broken manifest: %v", ds)
	}
	for _, method := range []string{"textDocument/hover", "textDocument/definition", "textDocument/completion", "textDocument/references"} {
		m := c.call(method, map[string]any{"textDocument": doc(um), "position": map[string]any{"line": 0, "character": 3}, "context": map[string]any{}})
		if m["error"] != nil {
			t.Errorf("%s in a project that does not load: %v", method, m["error"])
		}
	}
}

func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCompletionSymbolsCodeActions(t *testing.T) {
	root := copyTracker(t)
	c := startClient(t)
	c.initialize(root)
	path := filepath.Join(root, "templates", "commands.md")
	text := readFile(t, path)
	uri := c.open(path)

	res := c.result("textDocument/completion", at(uri, pos(t, text, `const "command_boundary"`, 0, 7))).(map[string]any)
	items := res["items"].([]any)
	found := false
	for _, it := range items {
		it := it.(map[string]any)
		if it["label"] == "command_boundary" {
			found = true
			if it["kind"].(float64) != 21 {
				t.Errorf("a constant's completion kind = %v, want 21 (Constant)", it["kind"])
			}
			if it["textEdit"] == nil {
				t.Errorf("no textEdit: %v", it)
			}
		}
	}
	if !found {
		t.Errorf("completion after const \" lacks command_boundary: %v", items)
	}

	core := filepath.Join(root, "blocks", "00-core.toml")
	coreURI := c.open(core)
	syms := c.result("textDocument/documentSymbol", map[string]any{"textDocument": doc(coreURI)}).([]any)
	if len(syms) == 0 || syms[0].(map[string]any)["name"] != "header" {
		t.Errorf("symbols of 00-core.toml = %v", syms)
	}

	typo := strings.Replace(readFile(t, core), `{{const "never_post_secrets"}}`, `{{const "never_post_secret"}}`, 1)
	c.change(coreURI, 2, typo)
	ds, ok := c.waitDiags(coreURI, 5*time.Second, func(ds []map[string]any) bool { return len(ds) > 0 })
	if !ok {
		t.Fatal("no diagnostic for the typo")
	}
	r := ds[0]["range"]
	acts := c.result("textDocument/codeAction", map[string]any{"textDocument": doc(coreURI), "range": r, "context": map[string]any{"diagnostics": []any{ds[0]}}}).([]any)
	if len(acts) != 1 {
		t.Fatalf("code actions = %v", acts)
	}
	a := acts[0].(map[string]any)
	if a["title"] != `Change "never_post_secret" to "never_post_secrets"` || a["kind"] != "quickfix" {
		t.Errorf("code action = %v", a)
	}
	edits := a["edit"].(map[string]any)["changes"].(map[string]any)[coreURI].([]any)
	if len(edits) != 1 || edits[0].(map[string]any)["newText"] != "never_post_secrets" {
		t.Errorf("the fix's edits = %v", edits)
	}
}

// TestLintDiagnostics: once the project compiles, the lint findings follow in the background, with their lint ids
// as codes, and a finding's suggestion is a quick fix.
func TestLintDiagnostics(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"promptc.toml":    "name  = \"lint\"\ntasks = [\"chat\"]\n\n[runbook]\norder = [\"who\", \"rules\"]\n\n[vars.agent]\nscope = \"session\"\ntype  = \"string\"\n",
		"blocks/a.toml":   "[[block]]\nid = \"who\"\nbody = \"You are {{.agent}}.\"\n\n[[block]]\nid = \"rules\"\nbody = \"Run only the commands listed in this runbook.\"\n",
		"fixtures/f.toml": "[session]\nagent = \"Ada\"\n",
	})
	c := startClient(t)
	c.initialize(root)
	uri := c.open(filepath.Join(root, "promptc.toml"))
	ds, ok := c.waitDiags(uri, 20*time.Second, func(ds []map[string]any) bool {
		return slices.ContainsFunc(ds, func(d map[string]any) bool { return d["code"] == "scope-inversion" })
	})
	if !ok {
		t.Fatalf("no scope-inversion finding: %v", ds)
	}
	d := ds[slices.IndexFunc(ds, func(d map[string]any) bool { return d["code"] == "scope-inversion" })]
	if d["severity"].(float64) != 2 || !strings.Contains(d["message"].(string), "fix: move \"who\" after \"rules\"") || line(d) != 4 {
		t.Errorf("scope-inversion diagnostic = %v", d)
	}
	acts := c.result("textDocument/codeAction", map[string]any{"textDocument": doc(uri), "range": d["range"], "context": map[string]any{"diagnostics": []any{d}}}).([]any)
	if len(acts) != 1 || acts[0].(map[string]any)["title"] != `Move "who" after "rules" in runbook.order` {
		t.Fatalf("code actions = %v", acts)
	}
	edits := acts[0].(map[string]any)["edit"].(map[string]any)["changes"].(map[string]any)[uri].([]any)
	var got []string
	for _, e := range edits {
		got = append(got, e.(map[string]any)["newText"].(string))
	}
	if !slices.Equal(got, []string{`"rules"`, `"who"`}) {
		t.Errorf("edits = %v, want the two entries swapped", got)
	}
}

// TestMalformedHeaderExits: after a header block with no Content-Length, a header line without ":", or a body whose
// length is off by one byte either way, the server answers a parse error and exits with ErrMalformedHeader, so that
// the client starts a new one; it used to stay alive out of step with the client, answering nothing ever again.
func TestMalformedHeaderExits(t *testing.T) {
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`
	next := `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`
	for _, tt := range []struct{ name, stream string }{
		{"no Content-Length", "Content-Type: application/json\r\n\r\n" + init + string(frame(next))},
		{"a line without a colon", "Content-Length: " + strconv.Itoa(len(init)) + "\r\nGarbage\r\n\r\n" + init + string(frame(next))},
		{"a length one short", "Content-Length: " + strconv.Itoa(len(init)-1) + "\r\n\r\n" + init + string(frame(next))},
		{"a length one long", "Content-Length: " + strconv.Itoa(len(init)+1) + "\r\n\r\n" + init + string(frame(next))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in, w := io.Pipe()
			var out bytes.Buffer
			done := make(chan error, 1)
			go func() { done <- Serve(context.Background(), in, &out, Options{NoCache: coldLoads}) }()
			go func() { io.WriteString(w, tt.stream) }() // the client keeps the stream open, as an editor does
			defer w.Close()
			select {
			case err := <-done:
				if !errors.Is(err, ErrMalformedHeader) {
					t.Fatalf("Serve = %v, want ErrMalformedHeader", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the server is still running 10 s after a malformed header")
			}
			if !strings.Contains(out.String(), `"code":-32700`) {
				t.Errorf("no parse error was sent: %q", out.String())
			}
			if strings.Contains(out.String(), `"id":2`) {
				t.Errorf("the message after the malformed one was answered: %q", out.String())
			}
		})
	}
}
