package a2a

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"

	"github.com/mm-agent/mm/internal/a2aconn"
	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/tracing"
)

// executor runs each A2A task as one turn of its context's session.
type executor struct {
	// ctx ends every task when the server stops.
	ctx      context.Context
	opts     Options
	log      *frontend.ServeLog
	sessions *sessions

	mu      sync.Mutex
	running int
	idle    *sync.Cond // signalled when running drops
}

func newExecutor(ctx context.Context, opts Options) *executor {
	x := &executor{ctx: ctx, opts: opts, log: frontend.NewServeLog(opts.Log)}
	x.idle = sync.NewCond(&x.mu)
	x.sessions = newSessions(ctx, opts, x.log)
	return x
}

// acquire takes a task's turn; false when MaxTasks run already.
func (x *executor) acquire() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.running >= x.opts.MaxTasks {
		return false
	}
	x.running++
	return true
}

func (x *executor) release() {
	x.mu.Lock()
	x.running--
	x.idle.Broadcast()
	x.mu.Unlock()
}

// wait returns once no task runs.
func (x *executor) wait() {
	x.mu.Lock()
	for x.running > 0 {
		x.idle.Wait()
	}
	x.mu.Unlock()
}

// Execute runs the task of one message: the context's session answers it,
// its text streaming as one artifact, and the task ends completed, failed,
// or cancelled.
func (x *executor) Execute(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	if rc.StoredTask == nil {
		// A status, not the task itself: a2a-go's task manager keeps a
		// task event it was given and changes it while the stream still
		// encodes it (a data race in v0.3.3).
		if err := q.Write(ctx, a2a.NewStatusUpdateEvent(rc, a2a.TaskStateSubmitted, nil)); err != nil {
			return err
		}
	}
	if !x.acquire() {
		return x.end(ctx, rc, q, a2a.TaskStateFailed,
			fmt.Sprintf("mm serve is running %d tasks, its limit: try again when one has ended", x.opts.MaxTasks))
	}
	defer x.release()
	// The task ends with the server too, not only when tasks/cancel asks;
	// it is traced as the server is (the request's context is a2a-go's).
	ctx = tracing.Adopt(ctx, x.ctx)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(x.ctx, cancel)
	defer stop()

	question := a2aconn.Text(rc.Message.Parts)
	if strings.TrimSpace(question) == "" {
		return x.end(ctx, rc, q, a2a.TaskStateRejected, "the message has no text: mm answers text parts")
	}
	s, err := x.sessions.take(ctx, rc.ContextID)
	if err != nil {
		return x.end(ctx, rc, q, a2a.TaskStateFailed, err.Error())
	}
	defer x.sessions.give(s)
	if err := q.Write(ctx, a2a.NewStatusUpdateEvent(rc, a2a.TaskStateWorking, nil)); err != nil {
		return err
	}
	out := s.sink.bind(ctx, rc, q)
	err = s.sess.Prompt(ctx, question)
	s.sink.unbind()
	if out.err != nil && ctx.Err() == nil {
		return out.err
	}
	switch {
	case ctx.Err() != nil:
		// tasks/cancel wrote the cancelled status; a server stopping
		// writes it here.
		if x.ctx.Err() != nil {
			return x.endCtx(context.WithoutCancel(ctx), rc, q, a2a.TaskStateCanceled, "mm serve is stopping")
		}
		return nil
	case err != nil:
		return x.end(ctx, rc, q, a2a.TaskStateFailed, err.Error())
	}
	if out.artifact != "" {
		// The artifact's end, with an empty text: A2A wants parts in every
		// artifact, and clients (the JS SDK) read them.
		last := a2a.NewArtifactUpdateEvent(rc, out.artifact, a2a.TextPart{Text: ""})
		last.LastChunk = true
		if err := q.Write(ctx, last); err != nil {
			return err
		}
	}
	return x.end(ctx, rc, q, a2a.TaskStateCompleted, "")
}

// Cancel ends a task on tasks/cancel: the cancelled status stops its
// execution, whose context a2asrv then cancels.
func (x *executor) Cancel(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	return x.end(ctx, rc, q, a2a.TaskStateCanceled, "")
}

// end writes the task's final status, with note as its message.
func (x *executor) end(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue, state a2a.TaskState, note string) error {
	return x.endCtx(ctx, rc, q, state, note)
}

func (x *executor) endCtx(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue, state a2a.TaskState, note string) error {
	var msg *a2a.Message
	if note != "" {
		msg = a2a.NewMessageForTask(a2a.MessageRoleAgent, rc, a2a.TextPart{Text: note})
	}
	ev := a2a.NewStatusUpdateEvent(rc, state, msg)
	ev.Final = true
	if err := q.Write(ctx, ev); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
