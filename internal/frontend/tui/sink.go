package tui

import (
	"context"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// sink is the session's Sink: it hands every event and consent question to
// the window's goroutine, which alone touches the screen. Once the window
// is gone (done closed) events are dropped and questions answered
// ConsentUnavailable, so that no turn goroutine waits on it.
type sink struct {
	msgs chan<- any
	done <-chan struct{}
}

// consentAsk is a consent question waiting for the person's key.
type consentAsk struct {
	req orchestrator.ConsentRequest
	// reply has room for the answer, so the window never waits on it.
	reply chan orchestrator.ConsentAnswer
}

// consentGone withdraws a question whose turn was cancelled before the
// person answered.
type consentGone struct{ ask *consentAsk }

var _ orchestrator.Sink = sink{}

func (k sink) Emit(ev orchestrator.Event) {
	select {
	case k.msgs <- ev:
	case <-k.done:
	}
}

func (k sink) Consent(ctx context.Context, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer {
	ask := &consentAsk{req: req, reply: make(chan orchestrator.ConsentAnswer, 1)}
	select {
	case k.msgs <- ask:
	case <-ctx.Done():
		return orchestrator.ConsentUnavailable
	case <-k.done:
		return orchestrator.ConsentUnavailable
	}
	select {
	case a := <-ask.reply:
		return a
	case <-ctx.Done():
		select {
		case k.msgs <- consentGone{ask}:
		case <-k.done:
		}
		// The orchestrator reads a cancelled context as "cancelled before
		// it ran", not as the person's no.
		return orchestrator.ConsentUnavailable
	case <-k.done:
		return orchestrator.ConsentUnavailable
	}
}
