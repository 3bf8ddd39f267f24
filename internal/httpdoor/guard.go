package httpdoor

import (
	"crypto/subtle"
	"net/http"
	"strings"
	"time"
)

// The bounds of every mm serve over HTTP, and why those numbers.
const (
	// DefaultWriteTimeout is how long one write to a client may block: a
	// client that stops reading for that long is cut off, and what it
	// asked goes on.
	DefaultWriteTimeout = 30 * time.Second
	// ReadHeaderTimeout bounds a request's headers: a slow client cannot
	// hold a connection open by sending nothing.
	ReadHeaderTimeout = 10 * time.Second
	// DefaultIdleTimeout closes a kept-alive connection with no request
	// for that long: a client asks again within seconds, or opens another.
	DefaultIdleTimeout = 15 * time.Second
	// DefaultMaxConns is how many connections may be open at once by
	// default; one more is answered 503. Each request under way holds one
	// (its stream), so it is a few times the requests a server runs at
	// once (50), and far below the file descriptors a process has (1,024
	// by default).
	DefaultMaxConns = 200
	// maxHeaderBytes bounds a request's headers: a bearer token and a few
	// protocol headers fit many times over.
	maxHeaderBytes = 64 << 10
)

// Server is the HTTP server of h with the header timeout, the header
// limit, and idle as its idle timeout (0: DefaultIdleTimeout).
func Server(h http.Handler, idle time.Duration) *http.Server {
	if idle <= 0 {
		idle = DefaultIdleTimeout
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		IdleTimeout:       idle,
		MaxHeaderBytes:    maxHeaderBytes,
	}
}

// Guard checks the bearer token (none when token is ""), limits the body
// to maxBody bytes, and puts a deadline of timeout on each write to the
// client (0: DefaultWriteTimeout).
func Guard(token string, maxBody int64, timeout time.Duration, next http.Handler) http.Handler {
	if timeout <= 0 {
		timeout = DefaultWriteTimeout
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="mm"`)
				http.Error(w, "a bearer token is required: Authorization: Bearer <token>", http.StatusUnauthorized)
				return
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		rc := http.NewResponseController(w)
		// The deadline of the last write must not outlive the request: the
		// connection, kept alive, serves the next one.
		defer func() { _ = rc.SetWriteDeadline(time.Time{}) }()
		next.ServeHTTP(&deadlineWriter{ResponseWriter: w, rc: rc, timeout: timeout}, r)
	})
}

// deadlineWriter sets a write deadline before each write, so that a client
// that stops reading ends its request instead of holding it for ever.
type deadlineWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func (d *deadlineWriter) Write(p []byte) (int, error) {
	_ = d.rc.SetWriteDeadline(time.Now().Add(d.timeout))
	return d.ResponseWriter.Write(p)
}

func (d *deadlineWriter) Flush() { _ = d.rc.Flush() }

func (d *deadlineWriter) Unwrap() http.ResponseWriter { return d.ResponseWriter }
