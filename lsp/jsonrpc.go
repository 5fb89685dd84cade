package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// JSON-RPC 2.0 over the LSP base protocol: each message is a header block ("Content-Length: N", other headers
// ignored, CRLF line ends, a blank line) followed by N bytes of JSON. The few types are written here rather than
// taken from a library: the protocol packages for Go are either unmaintained (go.lsp.dev/protocol, last release
// 2022) or bring a framework of their own, and promptc needs a dozen methods.

// Error codes of JSON-RPC and LSP.
const (
	codeParseError           = -32700
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeInternalError        = -32603
	codeServerNotInitialized = -32002
	codeRequestCancelled     = -32800
	codeRequestFailed        = -32803
)

// maxMessage bounds one message's body: a bigger one is read and dropped, and answered with an error.
const maxMessage = 64 << 20

// message is any JSON-RPC message: a request (ID and Method), a notification (Method only) or a response.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return e.Message }

func errorf(code int, format string, args ...any) *rpcError {
	return &rpcError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// maxHeaderLine bounds a header line: a longer one is a framing error, read past without being held.
const maxHeaderLine = 4096

// line reads one header line, newline included. A line over maxHeaderLine bytes is skipped to its end in pieces,
// never held whole (a peer sending gigabytes without a newline must not make the server hold them), and reported
// as errFraming.
func (r *reader) line() (string, error) {
	var b []byte
	for {
		piece, err := r.r.ReadSlice('\n')
		if len(b)+len(piece) <= maxHeaderLine {
			b = append(b, piece...)
		} else {
			b = nil
			for err == bufio.ErrBufferFull {
				_, err = r.r.ReadSlice('\n')
			}
			if err != nil {
				return "", err
			}
			return "", errFraming
		}
		if err != bufio.ErrBufferFull {
			return string(b), err
		}
	}
}

// errFraming is a header block the reader cannot make sense of.
var errFraming = errors.New("malformed message header")

// reader reads framed messages.
type reader struct{ r *bufio.Reader }

// read returns the next message's body. On a malformed header it returns errFraming having consumed the header
// block, so that the stream can go on with the next message; io.EOF (or io.ErrUnexpectedEOF) ends the stream.
func (r *reader) read() ([]byte, error) {
	length := -1
	sawHeader := false
	for {
		line, err := r.line()
		if err == errFraming {
			return nil, err
		}
		if err != nil {
			if err == io.EOF && (sawHeader || line != "") {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if len(line) > 4096 {
			return nil, errFraming
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !sawHeader {
				continue // stray blank lines between messages
			}
			break
		}
		sawHeader = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			length = -2
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				length = -2
				continue
			}
			if length == -1 {
				length = n
			}
		}
	}
	if length < 0 {
		return nil, errFraming
	}
	if length > maxMessage {
		if _, err := io.CopyN(io.Discard, r.r, int64(length)); err != nil {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, errTooLarge
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r.r, body); err != nil {
		return nil, io.ErrUnexpectedEOF
	}
	return body, nil
}

var errTooLarge = errors.New("message too large")

// writer writes framed messages, one at a time.
type writer struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *writer) write(m *message) error {
	m.JSONRPC = "2.0"
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := fmt.Fprintf(w.w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err = w.w.Write(body)
	return err
}
