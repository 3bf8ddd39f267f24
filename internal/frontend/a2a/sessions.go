package a2a

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// sessions keeps one orchestrator session per A2A context, at most max:
// past that, the least recently used idle one is closed. A context's
// session answers one task at a time.
type sessions struct {
	ctx  context.Context
	opts Options
	log  *frontend.ServeLog

	mu     sync.Mutex
	byID   map[string]*session
	tick   int64 // a clock for least recently used
	closed bool
}

// session is one context's.
type session struct {
	id   string
	sess Session
	sink *sink
	busy bool
	used int64
	// end ends the saving of the session; nil when it is not saved.
	end func() error
}

func newSessions(ctx context.Context, opts Options, log *frontend.ServeLog) *sessions {
	return &sessions{ctx: ctx, opts: opts, log: log, byID: map[string]*session{}}
}

// take is the session of context id, started if needed, for one task; give
// it back when the task ends.
func (ss *sessions) take(ctx context.Context, id string) (*session, error) {
	ss.mu.Lock()
	if ss.closed {
		ss.mu.Unlock()
		return nil, errors.New("mm serve is stopping")
	}
	ss.tick++
	if s := ss.byID[id]; s != nil {
		defer ss.mu.Unlock()
		if s.busy {
			return nil, errors.New("this context is answering another task: one task at a time per context; wait for it, or cancel it")
		}
		s.busy, s.used = true, ss.tick
		return s, nil
	}
	var evict *session
	if len(ss.byID) >= ss.opts.MaxSessions {
		for _, s := range ss.byID {
			if !s.busy && (evict == nil || s.used < evict.used) {
				evict = s
			}
		}
		if evict == nil {
			ss.mu.Unlock()
			return nil, fmt.Errorf("mm serve holds %d conversations, all answering: try again when one has ended", ss.opts.MaxSessions)
		}
		delete(ss.byID, evict.id)
	}
	// The new context's place is held while its session starts.
	s := &session{id: id, sink: &sink{}, busy: true, used: ss.tick}
	ss.byID[id] = s
	ss.mu.Unlock()
	if evict != nil {
		ss.closeOne(evict)
	}
	o := ss.opts.Session
	o.Sink = s.sink
	var err error
	if ss.opts.Store != nil {
		o.Recorder, o.Resume, s.end, err = ss.opts.Store.Open(id, o)
	}
	var sess Session
	if err == nil {
		sess, err = ss.opts.NewSession(ss.ctx, o)
	}
	if err != nil {
		s.endSaving(ss.log)
		ss.mu.Lock()
		delete(ss.byID, id)
		ss.mu.Unlock()
		ss.log.Printf("a session could not start: %v", err)
		return nil, fmt.Errorf("the session could not start: %v", err)
	}
	s.sess = sess
	return s, nil
}

// give ends s's task.
func (ss *sessions) give(s *session) {
	ss.mu.Lock()
	s.busy = false
	closed := ss.closed
	ss.mu.Unlock()
	if closed {
		ss.closeOne(s)
	}
}

func (ss *sessions) closeOne(s *session) {
	if err := s.sess.Close(); err != nil {
		ss.log.Printf("context %s: closing its session: %v", s.id, err)
	}
	s.endSaving(ss.log)
}

// endSaving closes the session's file, if it is saved.
func (s *session) endSaving(log *frontend.ServeLog) {
	if s.end == nil {
		return
	}
	if err := s.end(); err != nil {
		log.Printf("context %s: saving its session: %v", s.id, err)
	}
	s.end = nil
}

// closeAll closes every idle session; a busy one closes when its task
// gives it back.
func (ss *sessions) closeAll() {
	ss.mu.Lock()
	ss.closed = true
	var idle []*session
	for _, s := range ss.byID {
		if !s.busy {
			idle = append(idle, s)
		}
	}
	ss.byID = map[string]*session{}
	ss.mu.Unlock()
	for _, s := range idle {
		ss.closeOne(s)
	}
}

// Ensure *orchestrator.Session is a Session.
var _ Session = (*orchestrator.Session)(nil)
