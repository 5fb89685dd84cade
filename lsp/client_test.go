package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// client is an LSP client written against the protocol's text, independent of the server's types: it frames
// messages itself and reads results as generic JSON.
type client struct {
	t      testing.TB
	in     io.WriteCloser // to the server
	mu     sync.Mutex
	nextID int
	wait   map[int]chan map[string]any
	diags  map[string][]map[string]any // latest publishDiagnostics by URI
	notes  chan string                 // URIs of each publishDiagnostics, in order
	linted chan struct{}               // closed at the first diagnostic with a code (a lint finding)
	done   chan error                  // Serve's result
}

func startClient(t testing.TB) *client {
	t.Helper()
	toServer, serverIn := io.Pipe()
	serverOut, fromServer := io.Pipe()
	c := &client{t: t, in: serverIn, wait: map[int]chan map[string]any{}, diags: map[string][]map[string]any{},
		notes: make(chan string, 1000), done: make(chan error, 1), linted: make(chan struct{})}
	go func() {
		err := Serve(context.Background(), toServer, fromServer, Options{Version: "test", Log: testLog{t}, NoCache: coldLoads})
		fromServer.Close()
		c.done <- err
	}()
	go c.readLoop(bufio.NewReader(serverOut))
	t.Cleanup(func() { serverIn.Close() })
	return c
}

type testLog struct{ t testing.TB }

func (l testLog) Write(p []byte) (int, error) { l.t.Logf("%s", p); return len(p), nil }

func (c *client) readLoop(r *bufio.Reader) {
	for {
		length := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				fmt.Sscan(v, &length)
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("server sent invalid JSON: %s", body)
			return
		}
		if m["jsonrpc"] != "2.0" {
			c.t.Errorf("server sent a message without jsonrpc 2.0: %s", body)
		}
		if method, _ := m["method"].(string); method == "textDocument/publishDiagnostics" {
			p := m["params"].(map[string]any)
			uri := p["uri"].(string)
			var ds []map[string]any
			for _, d := range p["diagnostics"].([]any) {
				ds = append(ds, d.(map[string]any))
			}
			c.mu.Lock()
			c.diags[uri] = ds
			for _, d := range ds {
				if d["code"] != nil {
					select {
					case <-c.linted:
					default:
						close(c.linted)
					}
				}
			}
			c.mu.Unlock()
			select {
			case c.notes <- uri:
			default: // nobody is waiting: the latest diagnostics are in c.diags anyway
			}
			continue
		}
		id, ok := m["id"].(float64)
		if !ok {
			continue
		}
		c.mu.Lock()
		ch := c.wait[int(id)]
		c.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
}

func (c *client) send(m map[string]any) {
	m["jsonrpc"] = "2.0"
	body, _ := json.Marshal(m)
	c.raw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

func (c *client) raw(s string) {
	if _, err := io.WriteString(c.in, s); err != nil {
		c.t.Fatalf("write to server: %v", err)
	}
}

// call sends a request and returns the whole response.
func (c *client) call(method string, params any) map[string]any {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan map[string]any, 1)
	c.wait[id] = ch
	c.mu.Unlock()
	c.send(map[string]any{"id": id, "method": method, "params": params})
	select {
	case m := <-ch:
		return m
	case <-time.After(20 * time.Second):
		c.t.Fatalf("no response to %s", method)
	}
	return nil
}

// result sends a request and returns its result, failing on an error response.
func (c *client) result(method string, params any) any {
	c.t.Helper()
	m := c.call(method, params)
	if e, ok := m["error"]; ok {
		c.t.Fatalf("%s: error %v", method, e)
	}
	return m["result"]
}

func (c *client) notify(method string, params any) {
	c.send(map[string]any{"method": method, "params": params})
}

// waitDiags waits up to d for diagnostics of uri that satisfy ok, and returns them.
func (c *client) waitDiags(uri string, d time.Duration, ok func([]map[string]any) bool) ([]map[string]any, bool) {
	deadline := time.After(d)
	for {
		c.mu.Lock()
		ds, seen := c.diags[uri]
		c.mu.Unlock()
		if seen && ok(ds) {
			return ds, true
		}
		select {
		case <-c.notes:
		case <-deadline:
			return ds, false
		}
	}
}

func (c *client) initialize(root string) map[string]any {
	c.t.Helper()
	res := c.result("initialize", map[string]any{"processId": nil, "rootUri": pathURI(root), "capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	return res.(map[string]any)
}

func (c *client) open(path string) string {
	c.t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		c.t.Fatal(err)
	}
	uri := pathURI(path)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "toml", "version": 1, "text": string(data)}})
	return uri
}

func (c *client) change(uri string, version int, text string) {
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"text": text}}})
}

// copyTracker copies the reference project to a temporary directory and returns its root.
func copyTracker(t testing.TB) string {
	t.Helper()
	src := filepath.Join("..", "examples", "tracker")
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// pos returns the LSP position (UTF-16) of the n-th occurrence of needle in text, plus delta runes... in UTF-16
// units, computed independently of the server's conversion.
func pos(t testing.TB, text, needle string, n, delta int) map[string]any {
	t.Helper()
	off := -1
	for i, from := 0, 0; i <= n; i++ {
		k := strings.Index(text[from:], needle)
		if k < 0 {
			t.Fatalf("%q occurs fewer than %d times", needle, n+1)
		}
		off, from = from+k, from+k+1
	}
	line := strings.Count(text[:off], "\n")
	start := strings.LastIndex(text[:off], "\n") + 1
	units := len([]rune(string([]rune(text[start:off])))) // every rune of the tests' files below U+10000 except where noted
	for _, r := range text[start:off] {
		if r >= 0x10000 {
			units++
		}
	}
	return map[string]any{"line": line, "character": units + delta}
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func line(v any) int {
	return int(v.(map[string]any)["range"].(map[string]any)["start"].(map[string]any)["line"].(float64))
}

func char(v any) int {
	return int(v.(map[string]any)["range"].(map[string]any)["start"].(map[string]any)["character"].(float64))
}
