package orchestrator

import (
	"errors"
	"fmt"
)

// SessionStore is where the sessions are saved, for /sessions and
// /resume; cmd/mm gives one over package sessions. The store keeps the
// recorder of the session it resumes and closes the one it replaces.
type SessionStore interface {
	// List describes the saved sessions of the session's folder, one a
	// line, the latest first.
	List() (string, error)
	// Resume reads the saved session id (or a unique prefix of it): its
	// history, the recorder that goes on saving it (nil when saving is
	// off) and the lines to show: what was resumed, and any notice.
	Resume(id string) (r *Resumed, rec Recorder, say string, err error)
}

// errNoStore is /sessions and /resume where nothing saves sessions.
var errNoStore = errors.New("sessions are not saved here")

// SavedSessions lists the saved sessions (/sessions).
func (s *Session) SavedSessions() (string, error) {
	if s.store == nil {
		return "", errNoStore
	}
	return s.store.List()
}

// ResumeSaved makes the saved session id this one (/resume <id>): its
// history replaces this one's, which stays saved in its own file, and the
// asked agents are stopped, so that the next hand-off to each starts it
// on its own session of the resumed one. It is called between turns.
func (s *Session) ResumeSaved(id string) (string, error) {
	if s.store == nil {
		return "", errNoStore
	}
	r, rec, say, err := s.store.Resume(id)
	if err != nil {
		return "", err
	}
	if err := s.asks.closeAll(); err != nil {
		say += fmt.Sprintf("\n(stopping the asked agents: %v)", err)
	}
	s.asks = newAskers()
	s.history.resume(r, rec)
	return say, nil
}
