package main

import (
	"bytes"
	"net"
	"testing"
)

// TestServeBusyAddress: promptc serve on an address another program listens on exits 2 with a message that names
// the address and says how to take a free port, not the raw "bind: address already in use".
func TestServeBusyAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	var stdout, stderr bytes.Buffer
	code := run([]string{"promptc", "-C", "../../examples/tracker", "serve", "--addr", addr}, &stdout, &stderr)
	want := "promptc: serve: address " + addr + " is already in use, by another promptc serve or another program: stop it, or run promptc serve --addr 127.0.0.1:0 to take a free port\n"
	if code != exitInvalid || stderr.String() != want || stdout.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr\n%s\nwant exit %d and\n%s", code, stdout.String(), stderr.String(), exitInvalid, want)
	}
}
