package preview_test

import (
	"context"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/promptc/promptc/preview"
)

// Load builds the data the preview page shows, without a server: the index of artifacts with their prefixes, and
// each artifact's blocks.
func ExampleLoad() {
	snap, err := preview.Load("../examples/tracker", preview.Options{})
	if err != nil {
		log.Fatal(err)
	}
	ix := snap.Index()
	fmt.Println(ix.Project, ix.OK, len(ix.Tasks), "tasks")
	v, err := snap.Artifact("chat/basic.runbook.md", "anthropic")
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range v.Segments {
		fmt.Println(s.Scope, s.Start, s.End)
	}
	fmt.Println(len(v.Breakpoints), "breakpoints for", v.Model)
	// Output:
	// tracker true 4 tasks
	// global 0 3314
	// task 3314 10206
	// session 10206 13076
	// 2 breakpoints for claude-sonnet-4-5
}

// Serve is promptc serve: here on a port the system picks, asked for one page, then stopped.
func ExampleServe() {
	ctx, stop := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- preview.Serve(ctx, "../examples/tracker", "127.0.0.1:0", preview.Options{}, func(a net.Addr) { addrs <- a })
	}()
	resp, err := http.Get("http://" + (<-addrs).String() + "/api/index")
	if err != nil {
		log.Fatal(err)
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"))
	stop()
	fmt.Println(<-done)
	// Output:
	// 200 application/json; charset=utf-8
	// <nil>
}

// Export is promptc serve --export DIR: one page, DIR/index.html, with every view inline, that a browser opens from
// disk (a CI job uploads it, or publishes it). Options.Base adds the comparison with a git revision.
func ExampleExport() {
	dir, err := os.MkdirTemp("", "preview-export-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := preview.Export("../examples/tracker", dir, preview.Options{}); err != nil {
		log.Fatal(err) // a project that does not compile: its diagnostics, and nothing written
	}
	entries, _ := os.ReadDir(dir)
	page, _ := os.ReadFile(filepath.Join(dir, preview.ExportFile))
	fmt.Println(len(entries), entries[0].Name())
	fmt.Println(strings.Contains(string(page), `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-`))
	fmt.Println(strings.Count(string(page), "<script"), "scripts, none loaded from elsewhere:", !strings.Contains(string(page), "<script src"))
	// Output:
	// 1 index.html
	// true
	// 2 scripts, none loaded from elsewhere: true
}
