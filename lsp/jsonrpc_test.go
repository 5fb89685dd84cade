package lsp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// TestReaderLongHeaderLine: a header line longer than maxHeaderLine is a framing error read past in pieces (a
// peer sending a line without end cannot make the reader hold it), and the next message still reads.
func TestReaderLongHeaderLine(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"method":"shutdown"}`
	junk := "X-Junk: " + strings.Repeat("a", 10<<20) + "\r\n\r\n"
	r := &reader{r: bufio.NewReader(io.MultiReader(strings.NewReader(junk),
		strings.NewReader("Content-Length: 44\r\n\r\n"+body)))}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := r.read()
	runtime.ReadMemStats(&after)
	if !errors.Is(err, errFraming) {
		t.Fatalf("a 10 MiB header line: %v, want errFraming", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("reading past a 10 MiB header line allocated %d bytes", n)
	}
	var got []byte
	for range 3 { // the blank line after the junk, then the message
		if got, err = r.read(); err == nil {
			break
		}
	}
	if string(got) != body {
		t.Fatalf("after the long line: %q, %v; want the next message", got, err)
	}
}

// FuzzReader fuzzes the framing, the reader of header blocks and bodies, alone: messages framed as the base protocol
// frames them, then any bytes. The messages come back exactly, in order, before anything the bytes make; and
// whatever the bytes hold, reading as Serve reads (on past a message too large, stopping at any other error) ends
// without a panic, having consumed the stream (each read takes a byte or more, or fails).
func FuzzReader(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`), []byte(""))
	f.Add([]byte(`{}`), []byte("Content-Type: x\r\n\r\n{}"))
	f.Add([]byte(`[]`), []byte("Garbage\r\n\r\n{}"))
	f.Add([]byte(`{"a":1}`), []byte("Content-Length: 6\r\n\r\n{\"a\":1}"))
	f.Add([]byte(`{"a":1}`), []byte("Content-Length: 8\r\n\r\n{\"a\":1}"))
	f.Add([]byte(`{}`), []byte("Content-Length: -1\r\n\r\n"))
	f.Add([]byte(`{}`), []byte("Content-Length: 99999999999\r\n\r\n{}"))
	f.Add([]byte(`{}`), []byte("content-length:2\nX: y\r\n\r\n{}\r\n\r\n"))
	f.Add([]byte(`{}`), []byte("\r\n\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"))
	f.Fuzz(func(t *testing.T, body, rest []byte) {
		var msgs [][]byte
		for part := range bytes.SplitSeq(body, []byte{0}) { // several messages: the body split at NUL bytes
			msgs = append(msgs, part)
		}
		stream := frameBytes(msgs...)
		r := &reader{r: bufio.NewReaderSize(io.MultiReader(bytes.NewReader(stream), bytes.NewReader(rest)), 64)}
		for i, want := range msgs {
			got, err := r.read()
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("message %d: %q, %v; want %q", i, got, err, want)
			}
		}
		for reads := 0; ; reads++ {
			if reads > len(rest)+1 {
				t.Fatalf("%d reads of %d bytes: a read took nothing", reads, len(rest))
			}
			_, err := r.read()
			if err != nil && err != errTooLarge {
				break
			}
		}
	})
}

// frameBytes frames bodies as the base protocol does.
func frameBytes(bodies ...[]byte) []byte {
	var b bytes.Buffer
	for _, m := range bodies {
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(m))
		b.Write(m)
	}
	return b.Bytes()
}
