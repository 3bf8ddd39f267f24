package cli

import (
	"io"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// What the command line knows of A2A without importing the A2A SDK:
// cmd/mm plugs internal/frontend/a2a and a2aagent in as Features.ServeA2A and
// Features.A2A, so that the SDK is imported by those packages alone.

// defaultMaxTasks is mm serve's --max-tasks default: internal/frontend/a2a's
// DefaultMaxTasks (a test keeps them equal).
const defaultMaxTasks = 50

// defaultMaxConns is mm serve's --max-connections default: internal/frontend/a2a's
// DefaultMaxConns (a test keeps them equal).
const defaultMaxConns = 200

// ServeOptions are what mm serve gives Features.ServeA2A: internal/frontend/a2a's
// Options, as the command line fills them.
type ServeOptions struct {
	// Session is the template of every A2A context's session.
	Session orchestrator.Options
	// Store saves each context's session; nil: nothing is saved.
	Store ServeStore
	// Name, Description and Version are the agent card's.
	Name, Description, Version string
	// Skills are the card's skills: the configuration's.
	Skills []ServeSkill
	// Token, when not "", is the bearer token every request must carry.
	Token string
	// MaxTasks bounds the tasks running at once; MaxConns the connections
	// open at once.
	MaxTasks, MaxConns int
	// Host is the host given to serve on, which a request's Host may name.
	Host string
	// AllowOrigins are the web origins whose requests are answered.
	AllowOrigins []string
	// Log gets one line per problem the server meets.
	Log io.Writer
}

// ServeSkill is one skill the agent card lists.
type ServeSkill struct{ Name, Description string }

// ServeStore keeps the sessions of mm serve's A2A contexts: internal/frontend/a2a's
// Store, method for method, so that a ServeStore is one.
type ServeStore interface {
	// Open is where the session of the A2A context id is saved: its
	// recorder, its history when the context had a session before, and
	// what to call when the session closes.
	Open(contextID string, o orchestrator.Options) (rec orchestrator.Recorder, resume *orchestrator.Resumed, end func() error, err error)
}
