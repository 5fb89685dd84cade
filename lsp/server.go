package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/promptc/promptc/analysis"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// Options configure a server.
type Options struct {
	// Version is reported in the initialize result's serverInfo.
	Version string
	// Log receives one line per problem the server hits (a panic recovered, a write that failed); nil discards them.
	Log io.Writer
	// NoCache makes every reload of a project load it from nothing, rather than reuse what the last load decoded
	// and parsed of the files and blocks an edit left as they were (analysis.Cache): slower, and the same answers
	// (docs/editors.md).
	NoCache bool
}

// ErrExitWithoutShutdown is what Serve returns when the client sent exit before shutdown: LSP asks the server to
// exit with status 1 then.
var ErrExitWithoutShutdown = errors.New("exit before shutdown")

// ErrMalformedHeader is what Serve returns after a header block it cannot read: no Content-Length, a line without
// ":", a length that is not a number. Where the next message starts is unknown then (a body read with a wrong
// length leaves the stream out of step too), and reading on would misread every message after it: the server
// exits, and the client starts a new one (docs/editors.md#the-language-server-promptc-lsp).
var ErrMalformedHeader = errors.New("malformed message header: the stream is out of step, so the server exits for the client to restart it")

// Serve runs a language server on in and out until the client sends exit (nil after a shutdown request,
// ErrExitWithoutShutdown without one), the input ends (nil), a header block is malformed (ErrMalformedHeader, after
// a parse error sent), or ctx is done. It answers every request, malformed ones with a JSON-RPC error: a body that
// is not JSON, or too large, is answered and the server goes on with the next message.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opt Options) error {
	ctx, cancel := context.WithCancel(ctx)
	s := &server{
		ctx:      ctx,
		opt:      opt,
		out:      &writer{w: out},
		docs:     map[string]*document{},
		projects: map[string]*project{},
		running:  map[string]context.CancelFunc{},
		settings: readSettings(nil),
		viewed:   map[string]string{},
	}
	defer func() {
		cancel()
		s.wg.Wait()
	}()
	r := &reader{r: bufio.NewReader(in)}
	for {
		if ctx.Err() != nil {
			return nil
		}
		body, err := r.read()
		switch {
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
			return nil
		case errors.Is(err, errFraming):
			s.reply(nil, nil, errorf(codeParseError, "malformed header: each message needs a Content-Length header and a blank line; the server exits, to be started again"))
			s.logf("%v", ErrMalformedHeader)
			return ErrMalformedHeader
		case errors.Is(err, errTooLarge):
			s.reply(nil, nil, errorf(codeInvalidRequest, "message over %d MiB dropped", maxMessage>>20))
			continue
		case err != nil:
			return nil
		}
		if done, err := s.handle(body); done {
			return err
		}
	}
}

// document is an open document: its text as the editor holds it.
type document struct {
	path    string // absolute, from the URI
	version int
	text    string
}

type server struct {
	ctx context.Context
	opt Options
	out *writer
	wg  sync.WaitGroup

	mu          sync.Mutex
	initialized bool
	shutdown    bool
	watch       bool                 // the client registers file watchers on request
	docs        map[string]*document // by absolute path
	projects    map[string]*project  // by root
	running     map[string]context.CancelFunc
	settings    settings          // initializationOptions (views.go)
	viewed      map[string]string // the golden artifact or fixture opened last, by project root
	shown       int               // window/showDocument requests sent
}

func (s *server) logf(format string, args ...any) {
	if s.opt.Log != nil {
		fmt.Fprintf(s.opt.Log, "promptc lsp: "+format+"\n", args...)
	}
}

func (s *server) reply(id json.RawMessage, result any, rerr *rpcError) {
	m := &message{ID: id, Error: rerr}
	if id == nil {
		m.ID = json.RawMessage("null")
	}
	if rerr == nil {
		data, err := json.Marshal(result)
		if err != nil {
			m.Error = errorf(codeInternalError, "cannot encode the result: %v", err)
		} else {
			m.Result = data
		}
	}
	if err := s.out.write(m); err != nil {
		s.logf("write: %v", err)
	}
}

func (s *server) notify(method string, params any) {
	data, err := json.Marshal(params)
	if err != nil {
		s.logf("encode %s: %v", method, err)
		return
	}
	if err := s.out.write(&message{Method: method, Params: data}); err != nil {
		s.logf("write: %v", err)
	}
}

// validID reports whether raw is a JSON-RPC id: a string or a number.
func validID(raw json.RawMessage) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

// handle processes one message; done reports that the server must stop, with the error Serve returns.
func (s *server) handle(body []byte) (done bool, err error) {
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		s.reply(nil, nil, errorf(codeParseError, "the message is not a JSON object: %v", err))
		return false, nil
	}
	isRequest := len(m.ID) > 0 && string(m.ID) != "null"
	if isRequest && !validID(m.ID) {
		s.reply(nil, nil, errorf(codeInvalidRequest, "the id must be a string or a number"))
		return false, nil
	}
	if m.Method == "" {
		if isRequest && m.Result == nil && m.Error == nil {
			s.reply(m.ID, nil, errorf(codeInvalidRequest, "a request needs a method"))
		}
		return false, nil // a response to a request of ours (none are sent), or junk
	}
	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()
	if m.Method == "exit" {
		if shutdown {
			return true, nil
		}
		return true, ErrExitWithoutShutdown
	}
	if !isRequest {
		if initialized && !shutdown {
			s.notification(m.Method, m.Params)
		}
		return false, nil
	}
	switch {
	case m.Method == "initialize":
		if initialized {
			s.reply(m.ID, nil, errorf(codeInvalidRequest, "initialize was sent twice"))
			return false, nil
		}
		var p struct {
			Capabilities struct {
				Workspace struct {
					DidChangeWatchedFiles struct {
						DynamicRegistration bool `json:"dynamicRegistration"`
					} `json:"didChangeWatchedFiles"`
				} `json:"workspace"`
			} `json:"capabilities"`
			InitializationOptions json.RawMessage `json:"initializationOptions"`
		}
		if len(m.Params) > 0 && json.Unmarshal(m.Params, &p) != nil {
			s.reply(m.ID, nil, errorf(codeInvalidParams, "invalid initialize params"))
			return false, nil
		}
		s.mu.Lock()
		s.initialized = true
		s.watch = p.Capabilities.Workspace.DidChangeWatchedFiles.DynamicRegistration
		s.settings = readSettings(p.InitializationOptions)
		s.mu.Unlock()
		s.reply(m.ID, s.initializeResult(), nil)
		return false, nil
	case !initialized:
		s.reply(m.ID, nil, errorf(codeServerNotInitialized, "the server is not initialized: send initialize first"))
		return false, nil
	case shutdown:
		s.reply(m.ID, nil, errorf(codeInvalidRequest, "the server is shutting down: only exit is accepted"))
		return false, nil
	case m.Method == "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		s.reply(m.ID, nil, nil)
		return false, nil
	}
	h, ok := requests[m.Method]
	if !ok {
		s.reply(m.ID, nil, errorf(codeMethodNotFound, "method %q is not supported", m.Method))
		return false, nil
	}
	ctx, cancel := context.WithCancel(s.ctx)
	key := string(m.ID)
	s.mu.Lock()
	s.running[key] = cancel
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer func() {
			s.mu.Lock()
			delete(s.running, key)
			s.mu.Unlock()
			cancel()
		}()
		result, rerr := s.call(ctx, h, m.Params)
		if ctx.Err() != nil && rerr == nil && s.ctx.Err() == nil {
			rerr = errorf(codeRequestCancelled, "the request was cancelled")
		}
		s.reply(m.ID, result, rerr)
	}()
	return false, nil
}

// call runs a request handler, turning a panic into an internal error rather than a crash.
func (s *server) call(ctx context.Context, h handler, params json.RawMessage) (result any, rerr *rpcError) {
	defer func() {
		if p := recover(); p != nil {
			s.logf("panic: %v\n%s", p, debug.Stack())
			result, rerr = nil, errorf(codeInternalError, "internal error: %v", p)
		}
	}()
	return h(s, ctx, params)
}

func (s *server) initializeResult() initializeResult {
	return initializeResult{
		Capabilities: map[string]any{
			"positionEncoding": "utf-16",
			"textDocumentSync": map[string]any{
				"openClose": true,
				"change":    2, // incremental
				"save":      map[string]any{"includeText": false},
			},
			"definitionProvider":      true,
			"referencesProvider":      true,
			"hoverProvider":           true,
			"documentSymbolProvider":  true,
			"renameProvider":          map[string]any{"prepareProvider": true},
			"completionProvider":      map[string]any{"triggerCharacters": []string{`"`, ".", " "}},
			"codeActionProvider":      map[string]any{"codeActionKinds": []string{"quickfix"}},
			"inlayHintProvider":       true,
			"codeLensProvider":        map[string]any{"resolveProvider": false},
			"executeCommandProvider":  map[string]any{"commands": []string{openPreview}},
			"workspaceSymbolProvider": true,
			"semanticTokensProvider": map[string]any{
				"legend": map[string]any{"tokenTypes": analysis.TokenTypes, "tokenModifiers": analysis.TokenModifiers},
				"full":   true,
			},
		},
		ServerInfo: serverInfo{Name: "promptc", Version: s.opt.Version},
	}
}

// notification handles a notification; an unknown one is ignored, as LSP asks.
func (s *server) notification(method string, params json.RawMessage) {
	defer func() {
		if p := recover(); p != nil {
			s.logf("panic in %s: %v\n%s", method, p, debug.Stack())
		}
	}()
	switch method {
	case "initialized":
		if s.watch {
			// Ask to be told of changes made outside the editor (a git checkout, a file deleted in a shell).
			err := s.out.write(&message{ID: json.RawMessage(`"promptc-watch"`), Method: "client/registerCapability",
				Params: json.RawMessage(`{"registrations":[{"id":"promptc-watch","method":"workspace/didChangeWatchedFiles",` +
					`"registerOptions":{"watchers":[{"globPattern":"**/*.toml"},{"globPattern":"**/templates/**"}]}}]}`)})
			if err != nil {
				s.logf("write: %v", err)
			}
		}
	case "textDocument/didOpen":
		var p didOpenParams
		if json.Unmarshal(params, &p) != nil {
			return
		}
		if path, ok := uriPath(p.TextDocument.URI); ok {
			s.setDoc(path, &document{path: path, version: p.TextDocument.Version, text: p.TextDocument.Text})
			s.noteView(path)
		}
	case "textDocument/didChange":
		var p didChangeParams
		if json.Unmarshal(params, &p) != nil {
			return
		}
		path, ok := uriPath(p.TextDocument.URI)
		if !ok {
			return
		}
		s.mu.Lock()
		d := s.docs[path]
		s.mu.Unlock()
		if d == nil {
			return // a change to a document that was never opened: nothing to apply it to
		}
		text := d.text
		for _, c := range p.ContentChanges {
			text = applyChange(text, c)
		}
		s.setDoc(path, &document{path: path, version: p.TextDocument.Version, text: text})
	case "textDocument/didClose":
		var p didCloseParams
		if json.Unmarshal(params, &p) != nil {
			return
		}
		if path, ok := uriPath(p.TextDocument.URI); ok {
			s.setDoc(path, nil)
		}
	case "textDocument/didSave":
		var p didSaveParams
		if json.Unmarshal(params, &p) != nil {
			return
		}
		if path, ok := uriPath(p.TextDocument.URI); ok {
			s.touch(path, false) // the saved text is the buffer's, which the last load read
		}
	case "workspace/didChangeWatchedFiles":
		var p didChangeWatchedFilesParams
		if json.Unmarshal(params, &p) != nil {
			return
		}
		for _, c := range p.Changes {
			if path, ok := uriPath(c.URI); ok {
				s.touch(path, true)
			}
		}
	case "$/cancelRequest":
		var p cancelParams
		if json.Unmarshal(params, &p) != nil {
			return
		}
		s.mu.Lock()
		cancel := s.running[string(p.ID)]
		s.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	}
}

// applyChange applies one content change: the whole text, or a range of it.
func applyChange(text string, c contentChange) string {
	if c.Range == nil {
		return c.Text
	}
	f := source.NewFile("", text)
	a, b := fromPosition(f, c.Range.Start), fromPosition(f, c.Range.End)
	if b < a {
		a, b = b, a
	}
	return text[:a] + c.Text + text[b:]
}

// setDoc records an open document's text (nil: closed) and reanalyses its project.
func (s *server) setDoc(path string, d *document) {
	s.mu.Lock()
	if d == nil {
		delete(s.docs, path)
	} else {
		s.docs[path] = d
	}
	s.mu.Unlock()
	s.touch(path, true) // read the disk again too: opening or closing a file is when users expect it
}

// touch reanalyses the project holding path, after a change of the file on disk when disk is set.
func (s *server) touch(path string, disk bool) {
	if p := s.projectOf(path); p != nil {
		p.changed(disk)
	}
}

// projectOf returns the project that holds the file at path: the nearest directory above it with a promptc.toml
// on disk or open in the editor. It returns nil for a file in no project.
func (s *server) projectOf(path string) *project {
	root := s.rootOf(filepath.Dir(path))
	if root == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[root]
	if p == nil && s.ctx.Err() == nil {
		p = newProject(s, root)
		s.projects[root] = p
	}
	return p
}

func (s *server) rootOf(dir string) string {
	for d := dir; ; {
		manifest := filepath.Join(d, blocks.ManifestFile)
		s.mu.Lock()
		_, open := s.docs[manifest]
		s.mu.Unlock()
		if open {
			return d
		}
		if fi, err := os.Stat(manifest); err == nil && !fi.IsDir() {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// overlays returns the open documents under root, by slash path relative to it.
func (s *server) overlays(root string) map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]string{}
	for path, d := range s.docs {
		rel, err := filepath.Rel(root, path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		out[filepath.ToSlash(rel)] = d.text
	}
	return out
}

// uriPath returns the absolute path of a file: URI.
func uriPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", false
	}
	p := u.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' && filepath.Separator == '\\' {
		p = p[1:] // file:///C:/x is C:/x on Windows
	}
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) {
		return "", false
	}
	return filepath.Clean(p), true
}

// pathURI returns the file: URI of an absolute path.
func pathURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// at resolves a document position to its project's current snapshot, the file's slash path in it and the byte
// offset. ok is false for a document in no project or unknown to the snapshot.
// positioned is the params of a request at a place in a document (positionParams, or a type embedding it).
type positioned interface{ position() *positionParams }

func (q *positionParams) position() *positionParams { return q }

// atRequest decodes params into q and resolves the document and position it names, as at does: the opening every
// request at a place shares.
func (s *server) atRequest(ctx context.Context, params json.RawMessage, q positioned) (*analysis.Snapshot, *project, string, int, *rpcError) {
	if err := decode(params, q); err != nil {
		return nil, nil, "", 0, err
	}
	pp := q.position()
	return s.at(ctx, pp.TextDocument.URI, &pp.Position)
}

func (s *server) at(ctx context.Context, uri string, pos *Position) (snap *analysis.Snapshot, p *project, name string, off int, rerr *rpcError) {
	path, ok := uriPath(uri)
	if !ok {
		return nil, nil, "", 0, errorf(codeInvalidParams, "%q is not a file: URI", uri)
	}
	p = s.projectOf(path)
	if p == nil {
		return nil, nil, "", 0, nil
	}
	snap, err := p.current(ctx)
	if err != nil {
		return nil, nil, "", 0, errorf(codeRequestCancelled, "%v", err)
	}
	if snap == nil {
		return nil, nil, "", 0, errorf(codeRequestFailed, "the project at %s could not be analysed", source.QuoteName(p.root))
	}
	name = p.rel(path)
	f := snap.File(name)
	if f == nil {
		return nil, nil, "", 0, nil
	}
	if pos != nil {
		off = fromPosition(f, *pos)
	}
	return snap, p, name, off, nil
}
