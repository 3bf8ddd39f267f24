package agentproc

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/mm-agent/mm/internal/acpconn"
	"github.com/mm-agent/mm/internal/proc"
	"github.com/mm-agent/mm/internal/regularfile"
	"github.com/mm-agent/mm/internal/tracing"
)

// prompt sends text as one session/prompt to this run of the child, as
// Agent.Prompt says; its caller sends one at a time.
func (p *process) prompt(ctx context.Context, text string, h Handler) error {
	if p.hasExited() {
		return p.exitError()
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("agent %s: %w", p.label, err)
	}

	// The hand-off's span goes in _meta: the child may have been started
	// for an earlier one, or over ssh, which passes no TRACEPARENT.
	req := acp.PromptRequest{SessionId: p.session, Prompt: []acp.ContentBlock{acp.TextBlock(text)}, Meta: tracing.Meta(ctx)}
	if err := p.checkSize(req); err != nil {
		return err
	}

	promptCtx, endPrompt := context.WithCancel(ctx)
	ap := newActivePrompt(promptCtx, h)
	p.mu.Lock()
	p.active = ap
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.active = nil
		p.mu.Unlock()
		endPrompt()
		ap.abandon()
		<-ap.shown
		ap.perms.Wait()
	}()

	// The request gets its own context: cancelling it would only make the
	// connection give up waiting, while the child must be told to stop.
	callCtx, stopCall := context.WithCancel(context.WithoutCancel(ctx))
	defer stopCall()
	type result struct {
		resp acp.PromptResponse
		err  error
	}
	res := make(chan result, 1)
	go func() {
		resp, err := p.conn.Prompt(callCtx, req)
		res <- result{resp, err}
	}()

	var why error
	select {
	case r := <-res:
		ap.finish()
		select {
		case <-ap.failed: // it went on without the answer it asked for
			return ap.failErr
		default:
		}
		return p.promptError(r.resp, r.err)
	case <-ctx.Done():
		why = fmt.Errorf("agent %s: %w", p.label, ctx.Err())
	case <-ap.failed:
		why = ap.failErr
	}
	_ = p.conn.Cancel(context.WithoutCancel(ctx), acp.CancelNotification{SessionId: p.session})
	timer := time.NewTimer(p.grace)
	defer timer.Stop()
	select {
	case <-res:
		ap.finish() // the child's last updates, sent as it stopped
	case <-timer.C:
		_ = proc.KillGroup(p.cmd.Process)
		stopCall()
		ap.abandon() // the connection's reader may wait for room to queue
		<-res
	}
	return why
}

// checkSize refuses a prompt the child would refuse: one over the limit of
// one ACP message once encoded (quotes and control characters grow).
func (p *process) checkSize(req acp.PromptRequest) error {
	const envelope = 100 // {"jsonrpc":"2.0","id":…,"method":"session/prompt","params":…}
	if len(req.Prompt[0].Text.Text) < acpconn.MaxMessage/8 {
		return nil // cannot grow past the limit
	}
	b, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("agent %s: encode the prompt: %w", p.label, err)
	}
	if n := len(b) + envelope; n > acpconn.MaxMessage {
		return fmt.Errorf("agent %s: the message is %s once encoded, over the limit of %s for one message: send a shorter question or conversation (a preAsk hook can cut the transcript)",
			p.label, regularfile.FormatSize(int64(n)), regularfile.FormatSize(acpconn.MaxMessage))
	}
	return nil
}

// promptError turns the end of a prompt into nil or an error.
func (p *process) promptError(resp acp.PromptResponse, err error) error {
	if err != nil {
		cause, died := p.cause(err)
		if died {
			return fmt.Errorf("agent %s %s", p.label, cause)
		}
		return fmt.Errorf("agent %s: %s", p.label, cause)
	}
	if resp.StopReason != acp.StopReasonEndTurn {
		return fmt.Errorf("agent %s ended its turn early (stop reason %q)", p.label, resp.StopReason)
	}
	return nil
}
