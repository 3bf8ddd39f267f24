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
	// Choices are the saved sessions of the session's folder a person may
	// pick to resume (/resume alone), the latest first, the running one
	// left out.
	Choices() ([]SavedSession, error)
	// Rename names the running session (/rename): mm --resume <name>
	// and /resume <name> find it in its folder.
	Rename(name string) (say string, err error)
}

// SavedSession is one saved session a person may pick to resume.
type SavedSession struct {
	// ID is what ResumeSaved takes; Name the name given it ("" for none).
	ID, Name string
	// First is its first question on one line; Age how long ago it last
	// saved something ("3 h ago").
	First, Age string
	Turns      int
	// Problem says why it cannot be resumed ("" when it can).
	Problem string
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
	s.takeShellRuns()
	s.history.resume(r, rec)
	say += s.resumeModel(r)
	s.history.usesModel(s.ref)
	return say, nil
}

// resumeModel goes on with the model a resumed session last ran with,
// unless the person chose one (--model, /model), and says so: "" when the
// model stays.
func (s *Session) resumeModel(r *Resumed) string {
	if r == nil || r.Model == "" || r.Model == s.ref || s.modelChosen {
		return ""
	}
	was := s.ref
	if err := s.useModel(r.Model); err != nil {
		return fmt.Sprintf("\nthe session's model %s cannot be used (%v): going on with %s", r.Model, err, was)
	}
	return "\nmodel: " + r.Model + ", the one the session used (was " + was + "; /model switches)"
}

// SavedChoices are the saved sessions a person may pick to resume
// (/resume alone).
func (s *Session) SavedChoices() ([]SavedSession, error) {
	if s.store == nil {
		return nil, errNoStore
	}
	return s.store.Choices()
}

// RenameSaved names the running session (/rename <name>).
func (s *Session) RenameSaved(name string) (string, error) {
	if s.store == nil {
		return "", errNoStore
	}
	return s.store.Rename(name)
}
