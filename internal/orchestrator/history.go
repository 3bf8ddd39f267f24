package orchestrator

import (
	"fmt"
	"maps"
	"sync"

	"github.com/mm-agent/mm/internal/llm"
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
	// UsesModel says the model the next questions are asked of, which
	// the record notes when it changes (a --continue goes on with it).
	UsesModel(ref string)
}

// Resumed is a saved session to go on with.
type Resumed struct {
	History []llm.Message
	// AskedSessions are the asked agents' session ids, by agent name.
	AskedSessions map[string]string
	// Model is the model it last ran with; "" when not known. The
	// session goes on with it unless the person chose one (model.go).
	Model string
}

// history is a session's record, kept and saved as it happens: its
// messages, and the session ids of the agents it asked. A turn appends to
// it, a compression replaces it (which drops the window's count of it),
// and a hand-off keeps its agent's session id in it.
type history struct {
	sink Sink
	// window forgets its count of a history replaced.
	window *window

	mu   sync.Mutex
	msgs []llm.Message
	// recorder saves it; nil: it is not saved.
	recorder Recorder
	// askedSessions are the asked agents' own session ids, by agent name:
	// a resumed session asks each to load its own.
	askedSessions map[string]string
	// saveFailing is set while the recorder fails, so that the person is
	// warned once, not at every message.
	saveFailing bool
}

// newHistory is the history of a session that shows its warnings on
// sink, resumed from r (nil: a new conversation), saved by rec (nil: not
// saved).
func newHistory(sink Sink, w *window, r *Resumed, rec Recorder) *history {
	h := &history{sink: sink, window: w}
	h.resume(r, rec)
	return h
}

// resume makes r the history, its recorder rec.
func (h *history) resume(r *Resumed, rec Recorder) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.msgs, h.askedSessions = nil, map[string]string{}
	if r != nil {
		h.msgs = append([]llm.Message(nil), r.History...)
		maps.Copy(h.askedSessions, r.AskedSessions)
	}
	h.recorder, h.saveFailing = rec, false
}

// all returns a copy of the history.
func (h *history) all() []llm.Message {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]llm.Message(nil), h.msgs...)
}

// now is the history as it is now, not a copy: only to read. Nothing
// writes into a history's messages once they are in it: an append grows
// it, a replacement makes another.
func (h *history) now() []llm.Message {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.msgs[:len(h.msgs):len(h.msgs)]
}

// append adds msgs at the end of the history, and returns where they
// begin in it.
func (h *history) append(msgs ...llm.Message) int {
	h.mu.Lock()
	at := len(h.msgs)
	h.msgs = append(h.msgs, msgs...)
	rec := h.recorder // /resume may change it between turns
	h.mu.Unlock()
	if rec != nil {
		h.recorded(rec.Append(msgs...))
	}
	return at
}

// replace makes msgs the whole history (a compression, /clear).
func (h *history) replace(msgs []llm.Message) {
	h.mu.Lock()
	h.msgs = append([]llm.Message(nil), msgs...)
	rec := h.recorder
	w := h.window
	h.mu.Unlock()
	if w != nil {
		w.forget() // the server counted the history that is gone
	}
	if rec != nil {
		h.recorded(rec.Replace(msgs))
	}
}

// useWindow makes w the window that forgets its count of a history
// replaced (a new model's).
func (h *history) useWindow(w *window) {
	h.mu.Lock()
	h.window = w
	h.mu.Unlock()
}

// usesModel tells the recorder the model of the next questions.
func (h *history) usesModel(ref string) {
	h.mu.Lock()
	rec := h.recorder
	h.mu.Unlock()
	if rec != nil && ref != "" {
		rec.UsesModel(ref)
	}
}

// setAskedSession remembers the session id an asked agent answered in.
func (h *history) setAskedSession(name, id string) {
	h.mu.Lock()
	same := h.askedSessions[name] == id
	h.askedSessions[name] = id
	rec := h.recorder
	h.mu.Unlock()
	if !same && rec != nil {
		h.recorded(rec.AskedSession(name, id))
	}
}

// askedSession is the session id the asked agent name last answered in,
// "" when it has none.
func (h *history) askedSession(name string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.askedSessions[name]
}

// saved reports whether the history is being saved.
func (h *history) saved() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.recorder != nil
}

// recorded warns once when saving failed; later failures are silent, and
// the first success after one says saving works again.
func (h *history) recorded(err error) {
	h.mu.Lock()
	failing := h.saveFailing
	h.saveFailing = err != nil
	h.mu.Unlock()
	switch {
	case err != nil && !failing:
		h.sink.Emit(Notice{Kind: NoticeWarning, Text: fmt.Sprintf("session not saved: %v (the session goes on in memory)", err)})
	case err == nil && failing:
		h.sink.Emit(Notice{Kind: NoticeWarning, Text: "session saved again: nothing was lost"})
	}
}

// Clear forgets the conversation (not the consent decisions), and what
// the person ran with "!" for the next question.
func (s *Session) Clear() {
	s.takeShellRuns()
	s.history.replace(nil)
}

// History returns a copy of the conversation so far.
func (s *Session) History() []llm.Message { return s.history.all() }
