package agentproc

import (
	"context"
	"encoding/json"
	"sync"

	acp "github.com/coder/acp-go-sdk"
)

// queuedUpdates is how many of the child's updates may wait to be shown.
// When the Handler is slower than the child (a paused pager, a slow
// terminal), the connection stops reading at this many and the child's
// writes wait: the answer is held back, never dropped. 256 small updates
// are a few hundred KiB at most.
const queuedUpdates = 256

// activePrompt is the prompt under way. Its updates are shown in order by one
// goroutine, show, so that a Handler that blocks on the person holds up
// only the connection's reading, never the connection itself.
type activePrompt struct {
	ctx   context.Context // the prompt's: cancelled when it is
	h     Handler
	perms sync.WaitGroup // Permission calls in flight

	updates  chan queued
	stop     chan struct{} // closed by abandon
	stopOnce sync.Once
	shown    chan struct{} // closed when showAll has returned

	// failed is closed when the child did something that ends the prompt
	// with failErr: a permission request mm cannot answer.
	failed   chan struct{}
	failOnce sync.Once
	failErr  error
}

// fail ends the prompt with err (the first one wins).
func (ap *activePrompt) fail(err error) {
	ap.failOnce.Do(func() {
		ap.failErr = err
		close(ap.failed)
	})
}

// queued is an update to show, or a mark: closed once everything queued
// before it has been shown; last also ends show.
type queued struct {
	n    acp.SessionNotification
	mark chan struct{}
	last bool
}

func newActivePrompt(ctx context.Context, h Handler) *activePrompt {
	ap := &activePrompt{ctx: ctx, h: h, updates: make(chan queued, queuedUpdates),
		stop: make(chan struct{}), shown: make(chan struct{}), failed: make(chan struct{})}
	go ap.showAll()
	return ap
}

// showAll shows the queued updates until the last mark, or until the prompt
// is abandoned. A cancelled prompt goes on being shown: the child's last
// updates, sent as it stops, still arrive.
func (ap *activePrompt) showAll() {
	defer close(ap.shown)
	for {
		select {
		case q := <-ap.updates:
			if q.mark != nil {
				close(q.mark)
				if q.last {
					return
				}
				continue
			}
			ap.show(q.n)
		case <-ap.stop:
			return
		}
	}
}

// enqueue waits for room in the queue; false when ctx ended first.
func (ap *activePrompt) enqueue(ctx context.Context, q queued) bool {
	select {
	case ap.updates <- q:
		return true
	case <-ctx.Done():
		return false
	case <-ap.stop:
		return false
	}
}

// caughtUp waits until everything queued so far has been shown; false
// when ctx ended first.
func (ap *activePrompt) caughtUp(ctx context.Context) bool {
	mark := make(chan struct{})
	if !ap.enqueue(ctx, queued{mark: mark}) {
		return false
	}
	select {
	case <-mark:
		return true
	case <-ctx.Done():
		return false
	case <-ap.stop:
		return false
	}
}

// finish shows what is still queued, then stops show. The SDK hands over
// a response only after the notifications sent before it, so at the end
// of a prompt the whole answer is in the queue.
func (ap *activePrompt) finish() {
	if ap.enqueue(context.Background(), queued{mark: make(chan struct{}), last: true}) {
		<-ap.shown
	}
}

// abandon stops showing: what is still queued is dropped, and whoever
// waits to queue more gives up.
func (ap *activePrompt) abandon() { ap.stopOnce.Do(func() { close(ap.stop) }) }

// notify takes the child's notifications from the connection's reader. It
// blocks while the queue is full: that is the back-pressure.
func (p *process) notify(method string, params json.RawMessage) {
	if method != acp.ClientMethodSessionUpdate {
		return // nothing else is sent to a client that mm acts on
	}
	var n acp.SessionNotification
	if json.Unmarshal(params, &n) != nil {
		return
	}
	p.deliver(n)
}

// deliver queues an update for the running prompt; one that is late, or
// about another session, is dropped.
func (p *process) deliver(n acp.SessionNotification) {
	p.mu.Lock()
	ap := p.active
	p.mu.Unlock()
	if ap == nil || ap.h == nil || n.SessionId != p.session {
		return
	}
	ap.enqueue(context.Background(), queued{n: n})
}
