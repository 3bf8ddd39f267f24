package a2a

import (
	"context"
	"sync"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"

	"github.com/mm-agent/mm/internal/frontend"
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
	// gather gathers the answer's pieces into artifact chunks: a2a-go
	// stores the whole task at every event, so an event per token would
	// cost the square of the answer's length.
	gather *frontend.Gatherer
	// artifact is the answer's artifact, once its first chunk was written;
	// err is the first failed write: the task's events can no longer be
	// delivered. Both are the gatherer's, written under its lock.
	artifact a2a.ArtifactID
	err      error
}

// bind sends the session's events to task rc's queue until unbind.
func (s *sink) bind(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) *output {
	o := &output{ctx: ctx, rc: rc, q: q}
	o.gather = frontend.NewGatherer(o.write)
	s.mu.Lock()
	s.out = o
	s.mu.Unlock()
	return o
}

// unbind writes what text is left and stops sending events to the task.
func (s *sink) unbind() {
	s.mu.Lock()
	o := s.out
	s.out = nil
	s.mu.Unlock()
	if o != nil {
		o.gather.Close()
	}
}

// Emit takes the agent's own text into the answer's artifact.
func (s *sink) Emit(ev orchestrator.Event) {
	switch e := ev.(type) {
	case orchestrator.Text:
		if e.Agent == "" && e.Text != "" {
			s.mu.Lock()
			o := s.out
			s.mu.Unlock()
			if o != nil {
				o.gather.Add(e.Text)
			}
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

// write writes gathered text as one artifact chunk, the first one opening
// the artifact. The queue's write waits when the client reads slowly: the
// model waits behind it, and nothing is dropped.
func (o *output) write(text string) {
	if o.err != nil {
		return
	}
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
