package preview

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/tokens"
)

//go:embed assets
var assets embed.FS

// CSP is the Content-Security-Policy of every response: scripts, styles and data from the server itself and nothing
// else; no inline script, no frames, no form posts, no plugins. The page needs no network beyond its own origin.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Server serves the preview of one project. Its page is rebuilt by Refresh (Watch calls it on a timer) when a
// source file changes; pages following /api/events are told the new version. A Server is an http.Handler; it
// answers GET and HEAD only, and only requests addressed to a loopback host (a DNS name that resolves elsewhere
// cannot reach it from a web page: see docs/preview.md).
type Server struct {
	root string
	opts Options

	mu      sync.Mutex
	snap    *Page
	stamp   uint64
	version int
	subs    map[chan int]struct{}
}

// New returns a server for the project at root, its first page built (see Load for the error).
func New(root string, opts Options) (*Server, error) {
	if opts.Counter == nil {
		opts.Counter = tokens.New(tokens.O200k)
	}
	s := &Server{root: root, opts: opts, subs: map[chan int]struct{}{}}
	if _, err := s.Refresh(); err != nil {
		return nil, err
	}
	return s, nil
}

// Page returns the current page.
func (s *Server) Page() *Page {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snap
}

// Refresh rebuilds the page when a source file (promptc.toml, or a file under blocks/, templates/ or fixtures/)
// was added, removed or changed since the last one, and reports whether it did.
func (s *Server) Refresh() (bool, error) {
	stamp := sourceStamp(s.root)
	s.mu.Lock()
	same := s.snap != nil && stamp == s.stamp
	s.mu.Unlock()
	if same {
		return false, nil
	}
	snap, err := Load(s.root, s.opts)
	if err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version++
	snap.Version = s.version
	s.snap, s.stamp = snap, stamp
	for ch := range s.subs {
		select {
		case ch <- s.version:
		default: // a slow page catches up with the next version it reads
		}
	}
	return true, nil
}

// Watch calls Refresh every interval until ctx is done. A refresh that fails is tried again on the next tick.
func (s *Server) Watch(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_, _ = s.Refresh()
		}
	}
}

// sourceStamp is a hash of the names, sizes, modes and modification times of the project's source files.
func sourceStamp(root string) uint64 {
	type entry struct {
		name string
		size int64
		mode fs.FileMode
		mod  int64
	}
	var es []entry
	add := func(p string) {
		fi, err := os.Stat(p)
		if err != nil {
			es = append(es, entry{name: p})
			return
		}
		es = append(es, entry{p, fi.Size(), fi.Mode(), fi.ModTime().UnixNano()})
	}
	add(filepath.Join(root, blocks.ManifestFile))
	for _, dir := range []string{"blocks", "templates", "fixtures"} {
		_ = filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err == nil {
				add(p)
			}
			return nil
		})
	}
	sort.Slice(es, func(i, j int) bool { return es[i].name < es[j].name })
	h := fnv.New64a()
	for _, e := range es {
		fmt.Fprintf(h, "%s\x00%d\x00%d\x00%d\n", e.name, e.size, e.mode, e.mod)
	}
	return h.Sum64()
}

// ServeHTTP answers the page, its assets and the JSON endpoints (docs/preview.md).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "promptc serve answers GET only", http.StatusMethodNotAllowed)
		return
	}
	if !LoopbackHost(r.Host) {
		http.Error(w, "promptc serve answers only requests addressed to a loopback host", http.StatusForbidden)
		return
	}
	switch p := r.URL.Path; {
	case p == "/" || p == "/index.html":
		s.asset(w, "index.html", "text/html; charset=utf-8")
	case p == "/app.js":
		s.asset(w, "app.js", "text/javascript; charset=utf-8")
	case p == "/style.css":
		s.asset(w, "style.css", "text/css; charset=utf-8")
	case p == "/favicon.ico":
		w.WriteHeader(http.StatusNoContent) // no icon, and no 404 in the browser's console
	case p == "/api/events":
		s.events(w, r)
	case strings.HasPrefix(p, "/api/"):
		s.api(w, r, strings.TrimPrefix(p, "/api/"))
	default:
		http.NotFound(w, r)
	}
}

func (s *Server) asset(w http.ResponseWriter, name, typ string) {
	data, err := assets.ReadFile("assets/" + name)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", typ)
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(data)
}

// api answers /api/NAME with the JSON of one view.
func (s *Server) api(w http.ResponseWriter, r *http.Request, name string) {
	snap := s.Page()
	q := r.URL.Query()
	var v any
	var err error
	switch name {
	case "index":
		v = snap.Index()
	case "artifact":
		v, err = snap.Artifact(q.Get("path"), q.Get("provider"))
	case "explain":
		n, perr := strconv.Atoi(q.Get("line"))
		if perr != nil {
			err = fmt.Errorf("line must be a number, not %q", q.Get("line"))
			break
		}
		v, err = snap.Explain(q.Get("path"), n)
	case "stats":
		v = snap.Stats()
	case "timeline":
		v = snap.Timeline()
	case "simulate":
		v, err = snap.Simulate(q.Get("task"), q.Get("provider"))
	case "base":
		if b := snap.Base(); b != nil {
			v = b
		} else {
			err = errNoBase
		}
	default:
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	if err != nil {
		status := http.StatusBadRequest
		if errors.Is(err, ErrNoArtifact) || errors.Is(err, errNoBase) {
			status = http.StatusNotFound
		}
		w.WriteHeader(status)
		v = map[string]any{"error": err.Error(), "version": snap.Version}
	}
	// Views that have a documented JSON form of their own (explain's, stats') are written in it.
	if jw, ok := v.(interface{ WriteJSON(io.Writer) error }); ok {
		_ = jw.WriteJSON(w)
		return
	}
	_ = json.NewEncoder(w).Encode(v)
}

// errNoBase answers /api/base on a server with no base revision (or a project that does not compile).
var errNoBase = errors.New("no base revision: promptc serve --base REV compares the working tree with REV")

// events is a server-sent event stream: one "version" event now and one each time the page changes.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	ch := make(chan int, 1)
	s.mu.Lock()
	s.subs[ch] = struct{}{}
	v := s.version
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.subs, ch)
		s.mu.Unlock()
	}()
	send := func(v int) bool {
		_, err := io.WriteString(w, "event: version\ndata: "+strconv.Itoa(v)+"\n\n")
		fl.Flush()
		return err == nil
	}
	if !send(v) {
		return
	}
	keep := time.NewTicker(15 * time.Second)
	defer keep.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case v := <-ch:
			if !send(v) {
				return
			}
		case <-keep.C:
			if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil {
				return
			}
			fl.Flush()
		}
	}
}

// LoopbackHost reports whether host (a Host header or a listen address, with or without a port) names the loopback
// interface: localhost, 127.0.0.0/8 or ::1.
func LoopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Listen opens addr for the preview, refusing any address that is not loopback (an empty host, 0.0.0.0 or a LAN
// address would show the project's prompts to the network).
func Listen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		why := err.Error()
		var ae *net.AddrError
		if errors.As(err, &ae) {
			why = ae.Err
		}
		return nil, fmt.Errorf("address %s: %s: write HOST:PORT, such as 127.0.0.1:7420", source.QuoteName(addr), why)
	}
	if !LoopbackHost(host) {
		return nil, fmt.Errorf("address %s is not a loopback address: promptc serve listens on 127.0.0.1, ::1 or localhost only, so that the project's prompts are not shown to the network", source.QuoteName(addr))
	}
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("address %s is already in use, by another promptc serve or another program: %w", source.QuoteName(addr), ErrAddrInUse)
	}
	return ln, err
}

// ErrAddrInUse is wrapped by the error Listen returns when another program listens on the address already.
var ErrAddrInUse = errors.New("stop it, or listen on another port (port 0 picks a free one)")
