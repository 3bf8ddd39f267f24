package a2a

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	a2alog "github.com/a2aproject/a2a-go/log"

	"github.com/mm-agent/mm/internal/httpdoor"
	"github.com/mm-agent/mm/internal/orchestrator"
	"github.com/mm-agent/mm/internal/tracing"
)

// The bounds of a served agent, and why those numbers.
const (
	// DefaultMaxTasks is how many tasks run at once by default: each holds
	// a model call (or a wait on one), and a local model server answers a
	// few at a time; 50 is far above that and still a few MiB of state.
	DefaultMaxTasks = 50
	// DefaultMaxSessions is how many A2A contexts keep their session in
	// memory: a session holds its history, and its asked agents run.
	DefaultMaxSessions = 100
	// MaxBody bounds one request: 10 MiB, the limit of one message to an
	// asked agent over ACP, so that what one hand-off carries the other can.
	MaxBody = 10 << 20
	// keptTasks is how many ended tasks stay readable with tasks/get: a
	// flood of requests must not grow the memory without end.
	keptTasks = 1000
	// DefaultMaxConns is how many connections may be open at once by
	// default (httpdoor's bound); one more is answered 503.
	DefaultMaxConns = httpdoor.DefaultMaxConns
)

// Skill is one skill the agent card lists.
type Skill struct{ Name, Description string }

// Session is what the server needs of an orchestrator session.
type Session interface {
	// Prompt answers a client's text as a question: a client is
	// not the person, and runs no /ask… or other command.
	Prompt(ctx context.Context, text string) error
	Close() error
}

// Options configure Serve.
type Options struct {
	// Session is the template of every session's options; Serve sets Sink.
	Session orchestrator.Options
	// NewSession starts a session; nil means orchestrator.New.
	NewSession func(ctx context.Context, opts orchestrator.Options) (Session, error)
	// Store saves each context's session; nil: nothing is saved.
	Store Store
	// Name, Description and Version are the agent card's.
	Name, Description, Version string
	// Skills are the card's skills: the configuration's skills.
	Skills []Skill
	// Token, when not "", is the bearer token every request but the card's
	// must carry.
	Token string
	// MaxTasks and MaxSessions bound running tasks and kept sessions; 0
	// for the defaults.
	MaxTasks, MaxSessions int
	// Log gets one line per problem the server met (a session that could
	// not start, a client cut off).
	Log io.Writer
	// WriteTimeout bounds each write to a client; 0 for
	// httpdoor.DefaultWriteTimeout.
	WriteTimeout time.Duration
	// IdleTimeout closes a connection idle that long; 0 for
	// httpdoor.DefaultIdleTimeout.
	IdleTimeout time.Duration
	// MaxConns bounds the connections open at once; 0 for DefaultMaxConns.
	MaxConns int
	// Host is the host the person named to serve on ("localhost"): a
	// request's Host may name it, besides the address served.
	Host string
	// AllowOrigins are the web origins ("https://app.example") whose
	// requests are answered; a request with any other Origin is refused.
	AllowOrigins []string
}

// Store keeps the sessions of the A2A contexts.
type Store interface {
	// Open is where the session of the A2A context id is saved: its
	// recorder, and its history when the context had a session before
	// (closed to make room for others). end is called when the session
	// closes.
	Open(contextID string, o orchestrator.Options) (rec orchestrator.Recorder, resume *orchestrator.Resumed, end func() error, err error)
}

// Serve serves the agent on ln until ctx is done; then it cancels the
// running tasks, lets their clients read so for a moment, and closes every
// session. It returns nil after a shutdown asked by ctx.
func Serve(ctx context.Context, ln net.Listener, opts Options) error {
	if opts.NewSession == nil {
		opts.NewSession = func(ctx context.Context, o orchestrator.Options) (Session, error) { return orchestrator.New(ctx, o) }
	}
	if opts.MaxTasks <= 0 {
		opts.MaxTasks = DefaultMaxTasks
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	if opts.MaxConns <= 0 {
		opts.MaxConns = DefaultMaxConns
	}
	tasksCtx, cancelTasks := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelTasks()
	x := newExecutor(tasksCtx, opts)
	defer x.sessions.closeAll()
	d := httpdoor.NewDoor(ln.Addr(), opts.Host, opts.AllowOrigins, cors)
	h := Handler(x, opts, "http://"+ln.Addr().String()+"/")
	ln = httpdoor.Listen(ln, opts.MaxConns)
	srv := httpdoor.Server(d.Wrap(h), opts.IdleTimeout)
	// Once stopped: cancel what runs, and give the streams a moment to
	// carry the cancellation to their clients.
	return httpdoor.Serve(ctx, ln, srv, "A2A", cancelTasks, x.wait)
}

// Handler is the HTTP face of the agent: its card at the well-known path,
// and JSON-RPC at "/" behind the token and the body limit. url is the
// endpoint the card names.
func Handler(x a2asrv.AgentExecutor, opts Options, url string) http.Handler {
	card := &a2a.AgentCard{
		Name:               opts.Name,
		Description:        opts.Description,
		Version:            opts.Version,
		URL:                url,
		ProtocolVersion:    "0.3.0",
		PreferredTransport: a2a.TransportProtocolJSONRPC,
		Capabilities:       a2a.AgentCapabilities{Streaming: true},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills:             []a2a.AgentSkill{},
	}
	for _, sk := range opts.Skills {
		card.Skills = append(card.Skills, a2a.AgentSkill{ID: sk.Name, Name: sk.Name, Description: sk.Description, Tags: []string{}})
	}
	if opts.Token != "" {
		card.SecuritySchemes = a2a.NamedSecuritySchemes{"bearer": a2a.HTTPAuthSecurityScheme{Scheme: "Bearer"}}
		card.Security = []a2a.SecurityRequirements{{"bearer": a2a.SecuritySchemeScopes{}}}
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	rpc := a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(x,
		a2asrv.WithTaskStore(newTaskStore(keptTasks)),
		a2asrv.WithLogger(quiet)))
	mux := http.NewServeMux()
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	// a2a-go's JSON-RPC handler logs a stream cut short with the request's
	// logger (slog's default, stderr, else): mm serve's log has its own line.
	quietRPC := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rpc.ServeHTTP(w, r.WithContext(a2alog.WithLogger(r.Context(), quiet)))
	})
	mux.Handle("/", guard(opts.Token, opts.WriteTimeout, quietRPC))
	return mux
}

// guard is httpdoor's guard (the token, the body limit, a deadline on
// each write), the asking agent's span continued by the request.
func guard(token string, timeout time.Duration, next http.Handler) http.Handler {
	return httpdoor.Guard(token, MaxBody, timeout, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The asking agent's span, when it traces: its task continues it.
		next.ServeHTTP(w, r.WithContext(tracing.FromHeader(r.Context(), r.Header)))
	}))
}

// cors is what a page of an allowed origin may send: A2A's JSON-RPC and
// the trace context.
var cors = httpdoor.CORS{
	Methods: []string{"GET", "POST"},
	Headers: []string{"Authorization", "Content-Type", "Accept", "Traceparent", "Tracestate"},
}

// errBusy is a task refused because MaxTasks run already.
var errBusy = errors.New("busy")
