package httpdoor

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"
)

// ShutdownGrace is how long, once asked to stop, a server waits for the
// work it cancelled to say so to its clients before it closes them.
const ShutdownGrace = 500 * time.Millisecond

// Serve serves srv on ln until ctx ends or serving fails; what names the
// protocol in the error ("A2A", "MCP"). Once ctx ends it stops taking
// requests, calls cancel — which cancels what runs — gives the open
// requests ShutdownGrace to end, then calls wait, if any, for the work
// itself to end.
func Serve(ctx context.Context, ln net.Listener, srv *http.Server, what string, cancel, wait func()) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve %s on %s: %w", what, ln.Addr(), err)
	case <-ctx.Done():
	}
	cancel()
	sctx, stop := context.WithTimeout(context.Background(), ShutdownGrace)
	defer stop()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if wait != nil {
		wait()
	}
	<-errc
	return nil
}
