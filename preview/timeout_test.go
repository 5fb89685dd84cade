package preview

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServeClosesIdleConnections: 1,200 keep-alive connections that each made one request, and one that sends half
// a request's headers, are all closed by the server once its idle and read-header timeouts pass (shortened here);
// every one was held as long as the client kept it before.
func TestServeClosesIdleConnections(t *testing.T) {
	readHeaderTimeout, idleTimeout = 300*time.Millisecond, 300*time.Millisecond
	defer func() { readHeaderTimeout, idleTimeout = ReadHeaderTimeout, IdleTimeout }()
	ctx, stop := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, project(t), "127.0.0.1:0", Options{}, func(a net.Addr) { addrs <- a }) }()
	defer func() { stop(); <-done }()
	addr := (<-addrs).String()

	const idle = 1200
	conns := make([]net.Conn, 0, idle+1)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range idle {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent || resp.Close {
			t.Fatalf("GET /favicon.ico: %s, close %v; want 204 on a connection kept alive", resp.Status, resp.Close)
		}
	}
	// The event stream a page listens on is a response in progress: the timeouts leave it open.
	events, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer events.Close()
	fmt.Fprintf(events, "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(events), nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/events: %v, %v", resp, err)
	}
	stream := bufio.NewReader(resp.Body)

	stalled, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	conns = append(conns, stalled)
	fmt.Fprintf(stalled, "GET / HTTP/1.1\r\nHost: 127.0.0")

	deadline := time.Now().Add(20 * time.Second)
	for i, c := range conns {
		c.SetReadDeadline(deadline)
		_, err := io.Copy(io.Discard, c) // until the server closes it: EOF, or a reset
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			what := "an idle keep-alive connection"
			if c == stalled {
				what = "a connection with half a request's headers"
			}
			t.Fatalf("connection %d (%s) still open 20 s after the timeouts", i, what)
		}
	}
	// Long past both timeouts, the stream still has its first event to read and is not closed.
	events.SetReadDeadline(time.Now().Add(time.Second))
	if line, err := stream.ReadString('\n'); err != nil || !strings.Contains(line, "version") {
		t.Errorf("the event stream after the timeouts: %q, %v", line, err)
	}
	if _, err := stream.ReadString('\n'); err != nil {
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			t.Errorf("the event stream was closed: %v", err)
		}
	}
}

// TestListenBusyAddress: an address another program listens on is refused with an error that names it and says what
// to do (ErrAddrInUse), not the raw "bind: address already in use".
func TestListenBusyAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	_, err = Listen(addr)
	want := "address " + addr + " is already in use, by another promptc serve or another program: stop it, or listen on another port (port 0 picks a free one)"
	if !errors.Is(err, ErrAddrInUse) || err.Error() != want {
		t.Fatalf("Listen(%s) = %v\nwant %s", addr, err, want)
	}
	if strings.Contains(err.Error(), "bind:") {
		t.Errorf("the raw system error shows: %v", err)
	}
}
