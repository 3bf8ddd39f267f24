package orchestrator

import (
	"fmt"

	"github.com/mm-agent/mm/llm"
)

// Recorder keeps a session's history as it happens, so that it can be
// resumed (the sessions package's file is one). Each call is made before
// the next model call; an error is shown once as a warning and the turn
// goes on: a session that cannot be saved is still worth having. A
// Recorder that failed keeps what it could not write and writes it with
// its next call, so that the file never has a gap.
type Recorder interface {
	// Append records messages joining the end of the history.
	Append(msgs ...llm.Message) error
	// Replace records that the history is now msgs (a compression).
	Replace(msgs []llm.Message) error
	// AskedSession records the session id of the asked agent name.
	AskedSession(name, id string) error
}

// Resumed is a saved session to go on with.
type Resumed struct {
	History []llm.Message
	// AskedSessions are the asked agents' session ids, by agent name.
	AskedSessions map[string]string
}

// Clear forgets the conversation (not the consent decisions).
func (s *Session) Clear() {
	s.replaceHistory(nil)
}

// History returns a copy of the conversation so far.
func (s *Session) History() []llm.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]llm.Message(nil), s.history...)
}

func (s *Session) appendHistory(msgs ...llm.Message) {
	s.mu.Lock()
	s.history = append(s.history, msgs...)
	rec := s.recorder // /resume may change it between turns
	s.mu.Unlock()
	if rec != nil {
		s.recorded(rec.Append(msgs...))
	}
}

// replaceHistory makes msgs the whole history (a compression, /clear).
func (s *Session) replaceHistory(msgs []llm.Message) {
	s.mu.Lock()
	s.history = append([]llm.Message(nil), msgs...)
	rec := s.recorder
	s.mu.Unlock()
	s.forgetCount() // the server counted the history that is gone
	if rec != nil {
		s.recorded(rec.Replace(msgs))
	}
}

// setAskedSession remembers the session id an asked agent answered in.
func (s *Session) setAskedSession(name, id string) {
	s.mu.Lock()
	same := s.askedSessions[name] == id
	s.askedSessions[name] = id
	rec := s.recorder
	s.mu.Unlock()
	if !same && rec != nil {
		s.recorded(rec.AskedSession(name, id))
	}
}

// saved reports whether the session is being saved.
func (s *Session) saved() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recorder != nil
}

// askedSession is the session id the asked agent name last answered in,
// "" when it has none.
func (s *Session) askedSession(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.askedSessions[name]
}

// recorded warns once when saving failed; later failures are silent, and
// the first success after one says saving works again.
func (s *Session) recorded(err error) {
	s.mu.Lock()
	failing := s.saveFailing
	s.saveFailing = err != nil
	s.mu.Unlock()
	switch {
	case err != nil && !failing:
		s.sink.Emit(Notice{Kind: NoticeWarning, Text: fmt.Sprintf("session not saved: %v (the session goes on in memory)", err)})
	case err == nil && failing:
		s.sink.Emit(Notice{Kind: NoticeWarning, Text: "session saved again: nothing was lost"})
	}
}
