package preview

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// WatchInterval is how often Serve polls the project's sources for a change (docs/preview.md).
const WatchInterval = 250 * time.Millisecond

// The timeouts of Serve's connections (docs/preview.md#safety): a client gets ReadHeaderTimeout to send a request's
// headers, and a keep-alive connection that carries no request for IdleTimeout is closed, so that idle or stalled
// connections (a tab left open holds some; a program can open thousands) are not kept forever. The event stream a
// page listens on is a response in progress, which neither timeout ends.
const (
	ReadHeaderTimeout = 5 * time.Second
	IdleTimeout       = 30 * time.Second
)

// readHeaderTimeout and idleTimeout are the values Serve uses: the tests shorten them.
var readHeaderTimeout, idleTimeout = ReadHeaderTimeout, IdleTimeout

// Serve is promptc serve: it listens on addr (a loopback address, see Listen), serves the preview of the project at
// root, follows its sources (Watch) and returns when ctx is done, after a graceful shutdown of at most two seconds.
// Once it listens it calls listening (if not nil) with the address, so that a caller asking for port 0 learns the
// one it got. A project that does not compile is not an error: the page shows its diagnostics until it does. opts
// are New's.
func Serve(ctx context.Context, root, addr string, opts Options, listening func(net.Addr)) error {
	ln, err := Listen(addr)
	if err != nil {
		return err
	}
	srv, err := New(root, opts)
	if err != nil {
		ln.Close()
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go srv.Watch(ctx, WatchInterval)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: readHeaderTimeout, IdleTimeout: idleTimeout}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = hs.Shutdown(shut)
	}()
	if listening != nil {
		listening(ln.Addr())
	}
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
