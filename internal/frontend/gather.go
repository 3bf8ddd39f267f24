package frontend

import (
	"strings"
	"sync"
	"time"
)

// How a network front end gathers an answer's pieces into messages: the
// first piece at once (the client sees the answer start), then at most
// GatherEvery late (a person reading a client's stream does not see
// 100 ms) and at most GatherBytes each. A message per token would cost
// the client, and a2a-go's task store, one message (and one write of the
// whole task) per token.
const (
	GatherEvery = 100 * time.Millisecond
	GatherBytes = 4 << 10
)

// Gatherer gathers the pieces of an answer and hands them on, gathered,
// to send: mm serve's A2A artifact chunks, its MCP progress
// notifications. send is called with the Gatherer's lock held, from Add,
// Flush or its timer, never twice at once; a send that blocks (a client
// reading slowly) holds the answer back, and nothing is dropped.
type Gatherer struct {
	send func(text string)

	mu      sync.Mutex
	pending strings.Builder
	timer   *time.Timer
	sent    bool
	closed  bool
}

// NewGatherer gathers pieces for send.
func NewGatherer(send func(text string)) *Gatherer { return &Gatherer{send: send} }

// Add takes a piece of the answer.
func (g *Gatherer) Add(text string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed || text == "" {
		return
	}
	g.pending.WriteString(text)
	switch {
	case !g.sent || g.pending.Len() >= GatherBytes:
		g.flush()
	case g.timer == nil:
		g.timer = time.AfterFunc(GatherEvery, func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			if !g.closed {
				g.flush()
			}
		})
	}
}

// Close sends what is gathered and takes no more pieces.
func (g *Gatherer) Close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.closed {
		g.flush()
		g.closed = true
	}
}

// flush sends what is gathered; g.mu is held.
func (g *Gatherer) flush() {
	if g.timer != nil {
		g.timer.Stop()
		g.timer = nil
	}
	if g.pending.Len() == 0 {
		return
	}
	text := g.pending.String()
	g.pending.Reset()
	g.sent = true
	g.send(text)
}
