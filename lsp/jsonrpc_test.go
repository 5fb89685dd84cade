package lsp

import (
	"bufio"
	"errors"
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
