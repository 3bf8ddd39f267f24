package a2a

import (
	"context"
	"sync"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"

	"github.com/mm-agent/mm/orchestrator"
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
}

// bind sends the session's events to task rc's queue until unbind.
func (s *sink) bind(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) *output {
	o := &output{ctx: ctx, rc: rc, q: q}
	s.mu.Lock()
	s.out = o
	s.mu.Unlock()
	return o
}

func (s *sink) unbind() {
	s.mu.Lock()
	s.out = nil
	s.mu.Unlock()
}

// Emit writes the agent's own text as an artifact chunk. The queue's
// write waits when the client reads slowly: the model waits behind it,
// and nothing is dropped.
func (s *sink) Emit(ev orchestrator.Event) {
	t, ok := ev.(orchestrator.Text)
	if !ok || t.Agent != "" || t.Text == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.out
	if o == nil || o.err != nil {
		return
	}
	var e *a2a.TaskArtifactUpdateEvent
	if o.artifact == "" {
		e = a2a.NewArtifactEvent(o.rc, a2a.TextPart{Text: t.Text})
		e.Artifact.Name = "answer"
		o.artifact = e.Artifact.ID
	} else {
		e = a2a.NewArtifactUpdateEvent(o.rc, o.artifact, a2a.TextPart{Text: t.Text})
	}
	o.err = o.q.Write(o.ctx, e)
}

// Consent refuses: nobody can be asked, so only yolo or a hook's allow
// lets a tool call run (as with mm -p).
func (s *sink) Consent(context.Context, orchestrator.ConsentRequest) orchestrator.ConsentAnswer {
	return orchestrator.ConsentUnavailable
}
