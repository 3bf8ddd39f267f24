package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mm-agent/mm/internal/httpdoor"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// The bounds of a served configuration, and why those numbers.
const (
	// DefaultMaxCalls is how many tool calls run at once by default: each
	// holds a model call or a hand-off (a process), and a local model
	// server answers a few at a time; 50 is far above that and still a
	// few MiB of state. One more is a tool error the client's model reads.
	DefaultMaxCalls = 50
	// DefaultMaxSessions is how many MCP sessions mm serve --mcp-http
	// keeps at once: each holds an mm session and the asked agents it
	// started. One more initialize is answered 503.
	DefaultMaxSessions = 100
	// MaxBody bounds one request: 10 MiB, the limit of one message to an
	// asked agent over ACP, so that what one hand-off carries the other
	// can (a question and the conversation sent along).
	MaxBody = 10 << 20
	// sessionIdle ends an MCP session over HTTP that no request reached
	// for that long, and the asked agents it kept running: a client that
	// comes back after it starts a new one (the protocol's 404).
	sessionIdle = 30 * time.Minute
)

// Session is what the server needs of an orchestrator session.
type Session interface {
	// Prompt answers a client's text as a question: a client is not the
	// person, and runs no /ask… or other command.
	Prompt(ctx context.Context, text string) error
	// AskForClient is one hand-off to an agent of mmConfigs, "via": "mcp".
	AskForClient(ctx context.Context, name, question string, withContext bool, transcript string) (string, error)
	// HoldsAskAnswer says postAsk hooks are declared: the answer of a
	// hand-off is not streamed, for they decide what leaves.
	HoldsAskAnswer() bool
	Close() error
}

// Ensure *orchestrator.Session is a Session.
var _ Session = (*orchestrator.Session)(nil)

// Store saves the sessions of the MCP sessions.
type Store interface {
	// Open is where a new session is saved: its recorder, and end, called
	// when the session closes.
	Open(o orchestrator.Options) (rec orchestrator.Recorder, end func() error, err error)
}

// Options configure the server.
type Options struct {
	// Session is the template of every session's options; the server sets
	// Sink and Recorder.
	Session orchestrator.Options
	// NewSession starts a session; nil means orchestrator.New.
	NewSession func(ctx context.Context, opts orchestrator.Options) (Session, error)
	// Store saves each MCP session's session; nil: nothing is saved.
	Store Store
	// Name and Description are the served agent's tool's; Version is mm's.
	Name, Description, Version string
	// Agents are the agents of mmConfigs, one tool each.
	Agents []orchestrator.AskableAgent
	// ConfigError, when not nil, is why the configuration cannot be served:
	// every initialize fails with it, "[config error: …]", so that the
	// client shows the person why (over stdio, mm's stderr is the client's).
	ConfigError error
	// MaxCalls bounds the tool calls running at once; 0 for
	// DefaultMaxCalls.
	MaxCalls int
	// Log gets one line per problem the server met (a session that could
	// not start, a consent question the client could not answer).
	Log io.Writer

	// Over HTTP: the token every request must carry ("" for none), the
	// host the person named to serve on, the web origins whose pages may
	// call, the connections and MCP sessions at most, the write deadline
	// and the idle timeout of a connection (0 for httpdoor's defaults).
	Token                     string
	Host                      string
	AllowOrigins              []string
	MaxConns, MaxSessions     int
	WriteTimeout, IdleTimeout time.Duration
}

// ServeStdio serves one client over in and out (newline-delimited
// JSON-RPC, as the client that started mm speaks it) until the client
// closes in or ctx is done; then it closes the session.
func ServeStdio(ctx context.Context, in io.ReadCloser, out io.WriteCloser, opts Options) error {
	srv := newServer(ctx, opts)
	defer srv.closeAll()
	err := srv.mcp.Run(ctx, &sdk.IOTransport{Reader: in, Writer: out, MaxLineLength: MaxBody})
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return fmt.Errorf("serve MCP over stdio: %w", err)
}

// ServeHTTP serves clients over streamable HTTP at /mcp on ln until ctx
// is done; then it cancels the running calls, lets their clients read so
// for a moment, and closes every session. It returns nil after a shutdown
// asked by ctx.
func ServeHTTP(ctx context.Context, ln net.Listener, opts Options) error {
	if opts.MaxConns <= 0 {
		opts.MaxConns = httpdoor.DefaultMaxConns
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	callsCtx, cancelCalls := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelCalls()
	srv := newServer(callsCtx, opts)
	defer srv.closeAll()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv.mcp }, &sdk.StreamableHTTPOptions{
		Logger:              quiet,
		SessionTimeout:      sessionIdle,
		MaxRequestBodyBytes: MaxBody,
		// The door below checks the Host for every address served, not
		// only loopback ones.
		DisableLocalhostProtection: true,
	})
	mux := http.NewServeMux()
	mux.Handle("/mcp", httpdoor.Guard(opts.Token, MaxBody, opts.WriteTimeout, srv.bounded(h)))
	d := httpdoor.NewDoor(ln.Addr(), opts.Host, opts.AllowOrigins, cors)
	ln = httpdoor.Listen(ln, opts.MaxConns)
	hs := httpdoor.Server(d.Wrap(mux), opts.IdleTimeout)
	return httpdoor.Serve(ctx, ln, hs, "MCP", cancelCalls, nil)
}

// cors is what a page of an allowed origin may send and read: the
// streamable HTTP transport's methods and headers.
var cors = httpdoor.CORS{
	Methods: []string{"GET", "POST", "DELETE"},
	Headers: []string{"Authorization", "Content-Type", "Accept", "Mcp-Session-Id", "Mcp-Protocol-Version", "Last-Event-ID"},
	Expose:  []string{"Mcp-Session-Id"},
}

// bounded refuses a new MCP session (a POST without Mcp-Session-Id) while
// MaxSessions are open: 503 with one line, as a connection over the cap.
func (s *server) bounded(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
			n := 0
			for range s.mcp.Sessions() {
				n++
			}
			if n >= s.opts.MaxSessions {
				w.Header().Set("Retry-After", "1")
				http.Error(w, fmt.Sprintf("mm serve holds %d MCP sessions, its limit: try again when one has ended", s.opts.MaxSessions), http.StatusServiceUnavailable)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}
