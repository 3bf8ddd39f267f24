package a2a

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// sink renders a session's events as the A2A events of the task it is
// answering: the agent's own text as the chunks of one artifact. The
// asked agents' text, tool lines, hook runs and notices stay in mm: an A2A
// client reads the answer, as the stdout of mm -p does.
type sink struct {
	mu  sync.Mutex
	out *output // the task under way; nil between tasks
}

// output is one task's: where its events go, and how writing them went.
type output struct {
	ctx context.Context
	rc  *a2asrv.RequestContext
	q   eventqueue.Queue
	// artifact is the answer's artifact, once its first chunk was written.
	artifact a2a.ArtifactID
	// err is the first failed write: the task's events can no longer be
	// delivered.
	err error
	// pending is text not yet written; timer writes it flushEvery after
	// its first piece.
	pending strings.Builder
	timer   *time.Timer
}

// How the answer's pieces are gathered into events: at most flushEvery
// late (a person reading an A2A client's stream does not see 100 ms), and
// at most flushBytes each.
const (
	flushEvery = 100 * time.Millisecond
	flushBytes = 4 << 10
)

// bind sends the session's events to task rc's queue until unbind.
func (s *sink) bind(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) *output {
	o := &output{ctx: ctx, rc: rc, q: q}
	s.mu.Lock()
	s.out = o
	s.mu.Unlock()
	return o
}

// unbind writes what text is left and stops sending events to the task.
func (s *sink) unbind() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.out != nil {
		s.out.flush()
	}
	s.out = nil
}

// Emit takes the agent's own text into the answer's artifact.
func (s *sink) Emit(ev orchestrator.Event) {
	switch e := ev.(type) {
	case orchestrator.Text:
		if e.Agent == "" && e.Text != "" {
			s.text(e.Text)
		}
	case orchestrator.ModelStarted, orchestrator.Compressing, orchestrator.Compressed,
		orchestrator.AskStarted, orchestrator.AskEnded, orchestrator.ToolStarted, orchestrator.ToolEnded,
		orchestrator.HookRan, orchestrator.Notice, orchestrator.CommandReply, orchestrator.UserText:
		// They stay in mm: an A2A client reads the answer, as the stdout
		// of mm -p does.
	case orchestrator.TurnEnded:
		// The task ends when the prompt returns (executor.Execute).
	}
}

// text adds a piece of the answer. Pieces are gathered up to flushBytes or
// flushEvery: a2a-go stores the whole task at every event, so an event per
// token would cost the square of the answer's length. The queue's write
// waits when the client reads slowly: the model waits behind it, and
// nothing is dropped.
func (s *sink) text(t string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.out
	if o == nil || o.err != nil {
		return
	}
	o.pending.WriteString(t)
	switch {
	case o.artifact == "" || o.pending.Len() >= flushBytes:
		// The first piece goes at once: the client sees the answer start.
		o.flush()
	case o.timer == nil:
		o.timer = time.AfterFunc(flushEvery, func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.out == o {
				o.flush()
			}
		})
	}
}

// flush writes the gathered text as one artifact chunk; s.mu is held.
func (o *output) flush() {
	if o.timer != nil {
		o.timer.Stop()
		o.timer = nil
	}
	if o.pending.Len() == 0 || o.err != nil {
		return
	}
	text := o.pending.String()
	o.pending.Reset()
	var e *a2a.TaskArtifactUpdateEvent
	if o.artifact == "" {
		e = a2a.NewArtifactEvent(o.rc, a2a.TextPart{Text: text})
		e.Artifact.Name = "answer"
		o.artifact = e.Artifact.ID
	} else {
		e = a2a.NewArtifactUpdateEvent(o.rc, o.artifact, a2a.TextPart{Text: text})
	}
	o.err = o.q.Write(o.ctx, e)
}

// Consent refuses: nobody can be asked, so only yolo or a hook's allow
// lets a tool call run (as with mm -p).
func (s *sink) Consent(context.Context, orchestrator.ConsentRequest) orchestrator.ConsentAnswer {
	return orchestrator.ConsentUnavailable
}
