package preview_test

import (
	"context"
	"fmt"
	"log"
	"net"
	"net/http"

	"github.com/promptc/promptc/preview"
)

// Load builds the data the preview page shows, without a server: the index of artifacts with their prefixes, and
// each artifact's blocks.
func ExampleLoad() {
	snap, err := preview.Load("../examples/tracker", nil)
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
		done <- preview.Serve(ctx, "../examples/tracker", "127.0.0.1:0", func(a net.Addr) { addrs <- a })
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
