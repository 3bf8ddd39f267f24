package hooks

import (
	"fmt"

	"github.com/mm-agent/mm/internal/suggest"
)

// Event is one of the six moments a hook can run at.
type Event string

// The six events, in the order the banner and the reference list them.
const (
	PreGeneration  Event = "preGeneration"
	PreToolCall    Event = "preToolCall"
	PostToolCall   Event = "postToolCall"
	PostGeneration Event = "postGeneration"
	PreAsk         Event = "preAsk"
	PostAsk        Event = "postAsk"
)

// Events lists every event in the reference's order.
var Events = [...]Event{PreGeneration, PreToolCall, PostToolCall, PostGeneration, PreAsk, PostAsk}

func (e Event) index() int {
	for i, x := range Events {
		if x == e {
			return i
		}
	}
	return -1
}

// HasMatcher reports whether entries of the event may have a matcher: the
// events that concern a tool or an asked agent.
func (e Event) HasMatcher() bool {
	switch e {
	case PreToolCall, PostToolCall, PreAsk, PostAsk:
		return true
	}
	return false
}

// ParseEvent returns the event called name, or an error naming the six.
func ParseEvent(name string) (Event, error) {
	ev := Event(name)
	if ev.index() < 0 {
		// The reference's message whole, then the event probably meant.
		return "", fmt.Errorf("unknown event %q (want one of preGeneration, preToolCall, postToolCall, postGeneration, preAsk, postAsk)%s", name,
			suggest.DidYouMean(name, []string{"preGeneration", "preToolCall", "postToolCall", "postGeneration", "preAsk", "postAsk"}))
	}
	return ev, nil
}

// cancellable reports whether the turn's cancellation reaches the event's
// runs: postGeneration and postAsk run even after a cancellation, bounded by
// their timeout alone.
func (e Event) cancellable() bool {
	return e != PostGeneration && e != PostAsk
}
