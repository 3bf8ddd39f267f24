package agentproc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/mm-agent/mm/internal/acpconn"
	"github.com/mm-agent/mm/internal/proc"
	"github.com/mm-agent/mm/internal/textcut"
)

// Why a start failed, as the start's context's cause.
var (
	errStartTimeout = errors.New("start timed out")
	errNotACP       = errors.New("not ACP")
)

// junkQuote is how much of a line that is not JSON a start error quotes.
const junkQuote = 80

// handshake does the ACP handshake within the start timeout: initialize,
// then (withSession) openSession. A child that writes something other
// than JSON-RPC on stdout fails at once. On failure the child is stopped
// as the cause needs (startFailed); the caller still closes it.
func (p *process) handshake(ctx context.Context, cwd string, withSession bool, earlier acp.SessionId) error {
	sctx, end := p.startContext(ctx)
	defer end()
	step := "initialize"
	caps, err := p.initialize(sctx)
	if err == nil && withSession {
		step, err = p.openSession(sctx, caps, cwd, earlier)
	}
	if err == nil {
		return nil
	}
	return p.startFailed(ctx, sctx, step, err)
}

// startContext is ctx, also cancelled when the start timeout passes
// (errStartTimeout) or the child writes a line that is not JSON
// (errNotACP); end releases it.
func (p *process) startContext(ctx context.Context) (sctx context.Context, end func()) {
	sctx, cancel := context.WithCancelCause(ctx)
	timer := time.AfterFunc(p.startIn, func() { cancel(errStartTimeout) })
	p.mu.Lock()
	if p.notACP {
		cancel(errNotACP)
	} else {
		p.stopStart = cancel
	}
	p.mu.Unlock()
	return sctx, func() {
		timer.Stop()
		p.mu.Lock()
		p.stopStart = nil
		p.mu.Unlock()
		cancel(nil)
	}
}

// sawJunk is told of a line on the child's stdout that is not JSON: the
// first one ends the handshake under way.
func (p *process) sawJunk(line []byte) {
	p.mu.Lock()
	if p.notACP {
		p.mu.Unlock()
		return
	}
	p.notACP = true
	p.junk = textcut.Ellipsis(quote(string(line)), junkQuote)
	stop := p.stopStart
	p.mu.Unlock()
	if stop != nil {
		stop(errNotACP)
	}
}

// junkLine is the start of the first line that was not JSON; ok is false
// while there was none.
func (p *process) junkLine() (junk string, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.junk, p.notACP
}

// initialize asks the child initialize and records who answered.
func (p *process) initialize(sctx context.Context) (acp.AgentCapabilities, error) {
	ir, err := p.conn.Initialize(sctx, acp.InitializeRequest{
		ProtocolVersion: acp.ProtocolVersionNumber,
		ClientInfo:      &acp.Implementation{Name: acpconn.AskingClient, Version: ""},
	})
	if err != nil {
		return acp.AgentCapabilities{}, err
	}
	if i := ir.AgentInfo; i != nil {
		p.info = strings.TrimSpace(i.Name + " " + i.Version)
	}
	return ir.AgentCapabilities, nil
}

// openSession opens the child's session: session/load of earlier when
// there is one and the child loads sessions (caps), else session/new. It
// returns the step it ended at, for a timeout's error.
func (p *process) openSession(sctx context.Context, caps acp.AgentCapabilities, cwd string, earlier acp.SessionId) (string, error) {
	if earlier != "" {
		if !caps.LoadSession {
			p.notLoaded = "it does not load sessions (no loadSession in its initialize)"
		} else if loaded, err := p.loadSession(sctx, cwd, earlier); loaded || err != nil {
			return "session/load", err
		}
	}
	s, err := p.conn.NewSession(sctx, acp.NewSessionRequest{Cwd: cwd, McpServers: []acp.McpServer{}})
	p.session = s.SessionId
	return "session/new", err
}

// loadSession asks the child to load earlier. The history a load replays
// is not shown: no prompt is under way, so its updates are dropped as
// they arrive, all before the load's response. A refusal (an unknown id,
// a failed load) is no error: a new session is opened, said by notLoaded.
// Not when the start timed out, was not ACP, was cancelled, or the child
// died.
func (p *process) loadSession(sctx context.Context, cwd string, earlier acp.SessionId) (loaded bool, err error) {
	_, err = p.conn.LoadSession(sctx, acp.LoadSessionRequest{SessionId: earlier, Cwd: cwd, McpServers: []acp.McpServer{}})
	if err == nil {
		p.session = earlier
		return true, nil
	}
	if sctx.Err() == nil {
		if cause, died := p.cause(err); !died {
			p.notLoaded = cause
			return false, nil
		}
	}
	return false, err
}

// startFailed stops a child whose handshake failed at step with err, as
// the cause needs, and says why in one line. sctx is the start's context
// (startContext), ctx the caller's.
func (p *process) startFailed(ctx, sctx context.Context, step string, err error) error {
	why := context.Cause(sctx)
	if why == nil && p.in.failed.Load() {
		// It is gone before it read initialize: what it wrote on stdout
		// is read to its end first, a banner included.
		within(p.done, 2*p.grace)
	}
	if _, ok := p.junkLine(); ok {
		// Also when it exited right after its banner, before the start
		// was cancelled for it: the banner says more than the exit.
		why = errNotACP
	}
	switch why {
	case errNotACP:
		// A program that printed its usage is often about to write why on
		// stderr and exit: it is given the grace to, then stopped, so that
		// all it wrote on stderr is there to quote.
		p.stopWithin(p.grace)
		junk, _ := p.junkLine()
		return fmt.Errorf("start agent %s: it does not speak ACP: its output began %q%s", p.label, junk, p.stderrTail())
	case errStartTimeout:
		// Stopped now, so that all it wrote on stderr is there to quote.
		_ = proc.KillGroup(p.cmd.Process)
		<-p.exited
		return fmt.Errorf("start agent %s: no answer to %s within %s%s", p.label, step, p.startIn, p.stderrTail())
	}
	if ctx.Err() != nil {
		return fmt.Errorf("start agent %s: %w", p.label, ctx.Err())
	}
	cause, _ := p.cause(err)
	return fmt.Errorf("start agent %s: %s", p.label, cause)
}
