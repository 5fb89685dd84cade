package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"testing"
	"time"
)

// frame returns the messages framed as the base protocol frames them.
func frame(msgs ...string) []byte {
	var b bytes.Buffer
	for _, m := range msgs {
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(m), m)
	}
	return b.Bytes()
}

// FuzzServe feeds the message loop arbitrary bytes: whatever the stream holds (broken headers, lengths past the end,
// invalid JSON, wrong types, requests for files that do not exist or belong to a real project), Serve must neither
// panic nor hang, and must return when the input ends.
func FuzzServe(f *testing.F) {
	root, _ := filepath.Abs(filepath.Join("..", "examples", "tracker"))
	core := pathURI(filepath.Join(root, "blocks", "00-core.toml"))
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`
	open := fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":%q,"version":1,"text":"[[block]]\nid = \"x\"\nbody = \"{{const \\\"nope\\\"}}\"\n"}}}`, core)
	hover := fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":%q},"position":{"line":2,"character":14}}}`, core)
	change := fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":%q,"version":2},"contentChanges":[{"range":{"start":{"line":9,"character":99},"end":{"line":0,"character":0}},"text":"é"}]}}`, core)
	rename := fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"textDocument/rename","params":{"textDocument":{"uri":%q},"position":{"line":1,"character":6},"newName":"y"}}`, core)
	f.Add(frame(init, open, hover, change, rename, `{"jsonrpc":"2.0","id":4,"method":"shutdown"}`, `{"jsonrpc":"2.0","method":"exit"}`))
	f.Add(frame(init, `{"jsonrpc":"2.0","id":"a","method":"textDocument/definition","params":{"textDocument":{"uri":"file:///nope"},"position":{"line":-1,"character":-5}}}`))
	f.Add(frame(`{`, `[]`, `{"id":{},"method":"x"}`, init, init))
	f.Add([]byte("Content-Length: 99999999999\r\n\r\n{}"))
	f.Add([]byte("Content-Length: 10\r\n\r\n{}"))
	f.Add([]byte("garbage\r\n\r\nContent-Length: x\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		done := make(chan error, 1)
		var out bytes.Buffer
		go func() { done <- Serve(ctx, bytes.NewReader(data), &out, Options{NoCache: coldLoads}) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("Serve did not return after its input ended")
		}
		// Whatever came in, what went out is well-framed JSON-RPC.
		r := &reader{r: bufioReader(&out)}
		for {
			body, err := r.read()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("the server wrote a malformed message: %v", err)
			}
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil || m["jsonrpc"] != "2.0" {
				t.Fatalf("the server wrote %q", body)
			}
		}
	})
}

func bufioReader(r io.Reader) *bufio.Reader { return bufio.NewReader(r) }
