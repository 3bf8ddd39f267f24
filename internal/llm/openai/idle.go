package openai

import (
	"context"
	"errors"
	"io"
	"time"
)

// errIdle is the cause an idleWatch cancels its request with.
var errIdle = errors.New("the server sent nothing for the idle timeout")

// idleWatch cancels one HTTP request when no byte of its response has
// arrived for idle: from the moment the request is sent (a server that never
// answers) and between any two reads of the body (a stream that stalls).
// It watches through the request's context, so it works with any
// http.Client, and the caller's own cancellation still ends the request at
// any moment.
type idleWatch struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	idle   time.Duration
	timer  *time.Timer
	// got is set once a byte of the body has arrived.
	got bool
}

// watchIdle starts the clock; ctx is the request's context to use.
func watchIdle(parent context.Context, idle time.Duration) *idleWatch {
	ctx, cancel := context.WithCancelCause(parent)
	w := &idleWatch{ctx: ctx, cancel: cancel, idle: idle}
	w.timer = time.AfterFunc(idle, func() { cancel(errIdle) })
	return w
}

// kick restarts the clock: something arrived.
func (w *idleWatch) kick() { w.timer.Reset(w.idle) }

// stop ends the watch and the request's context.
func (w *idleWatch) stop() {
	w.timer.Stop()
	w.cancel(nil)
}

// stalled reports whether the watch ended the request.
func (w *idleWatch) stalled() bool {
	return errors.Is(context.Cause(w.ctx), errIdle)
}

// body returns r read under the watch: every read that brings bytes
// restarts the clock.
func (w *idleWatch) body(r io.Reader) io.Reader { return watchedReader{r, w} }

type watchedReader struct {
	r io.Reader
	w *idleWatch
}

func (r watchedReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n > 0 {
		r.w.got = true
		r.w.kick()
	}
	return n, err
}
