package acp

import (
	"context"
	"errors"
	"time"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// Store keeps the sessions of mm -acp, so that an editor, or the mm that
// asked this agent, can go on with one later (session/load) and list them
// (session/list). mm's is the sessions folder; nil offers neither.
type Store interface {
	// Create starts saving the session opts describe (configured, about to
	// start). The id it gives is the session's ACP id; a session that is
	// not saved (no Recorder) may have none, and gets one.
	Create(ctx context.Context, opts orchestrator.Options) (Saved, error)
	// Open finds the saved session id (exactly that id: the client goes on
	// naming it so) to go on with, and saves what follows in it. An id no
	// session has is an error for which errors.Is(err, ErrUnknownSession).
	Open(ctx context.Context, id string, opts orchestrator.Options) (Saved, error)
	// List is the saved sessions of the folder cwd, or of every folder when
	// cwd is "", the latest first.
	List(ctx context.Context, cwd string) ([]SessionInfo, error)
}

// ErrUnknownSession is the error of Store.Open for an id no saved session
// has; session/load answers it as "resource not found".
var ErrUnknownSession = errors.New("no saved session has this id")

// Saved is a session being saved.
type Saved struct {
	// ID is its ACP session id.
	ID string
	// Recorder saves its history; nil when it is not saved (persist: false).
	Recorder orchestrator.Recorder
	// Resume is what it goes on with (Open); nil for a new session.
	Resume *orchestrator.Resumed
	// Close ends the saving once the session is closed; nil when there is
	// nothing to end.
	Close func() error
	// Notices are lines for the agent log about the saved session (a torn
	// last line skipped).
	Notices []string
}

// SessionInfo is one saved session in session/list.
type SessionInfo struct {
	ID  string
	Cwd string
	// Title is its first question, short; "" when it has none.
	Title   string
	Updated time.Time
}

// UnknownSession is an error of Store.Open saying msg, for which
// errors.Is(err, ErrUnknownSession) holds.
func UnknownSession(msg string) error { return unknownSession(msg) }

type unknownSession string

func (e unknownSession) Error() string        { return string(e) }
func (e unknownSession) Is(target error) bool { return target == ErrUnknownSession }

// codeNotFound is ACP's JSON-RPC error code "resource not found".
const codeNotFound = -32002
