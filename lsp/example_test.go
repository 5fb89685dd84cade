package lsp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/promptc/promptc/lsp"
)

// Serve on a scripted session: initialize, a hover in a file outside any project, shutdown and exit. Each response
// is printed with its id, in id order (requests are answered concurrently, so responses may come in any order).
func ExampleServe() {
	var in bytes.Buffer
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`,
		`{"jsonrpc":"2.0","method":"initialized","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nowhere/x.toml"},"position":{"line":0,"character":0}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"exit"}`,
	} {
		fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(m), m)
	}
	var out bytes.Buffer
	err := lsp.Serve(context.Background(), &in, &out, lsp.Options{Version: "v1.0.0"})
	fmt.Println("Serve:", err)

	byID := map[int]string{}
	r := bufio.NewReader(&out)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			break
		}
		n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "Content-Length:")))
		r.ReadString('\n') // the blank line
		body := make([]byte, n)
		io.ReadFull(r, body)
		var m struct {
			ID     int `json:"id"`
			Result json.RawMessage
		}
		json.Unmarshal(body, &m)
		var init struct {
			Capabilities map[string]any
			ServerInfo   struct{ Name, Version string }
		}
		if json.Unmarshal(m.Result, &init) == nil && init.Capabilities != nil {
			byID[m.ID] = fmt.Sprintf("%s %s, hover %v, rename %v", init.ServerInfo.Name, init.ServerInfo.Version,
				init.Capabilities["hoverProvider"], init.Capabilities["renameProvider"])
			continue
		}
		byID[m.ID] = string(m.Result)
	}
	for id := 1; id <= 3; id++ {
		fmt.Printf("%d: %s\n", id, byID[id])
	}
	// Output:
	// Serve: <nil>
	// 1: promptc v1.0.0, hover true, rename map[prepareProvider:true]
	// 2: null
	// 3: null
}
