package hooks

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Run describes one hook run once it has ended, for the front ends to show.
type Run struct {
	Event Event
	// Subject is the tool or the asked agent; "" on preGeneration and
	// postGeneration.
	Subject string
	// Label is the entry's Label: its command, or its module's file name.
	Label string
	// Decision is "continue", "stop", "deny", "allow", "failed", or what
	// the reply changed, e.g. "prompt replaced + context (11 chars)".
	Decision string
	// Failure is why the run failed; "" when it did not.
	Failure string
	// OnError is the entry's onError.
	OnError string
}

// Observer is told of each run of a chain when it ends, in order, on the
// chain's goroutine.
type Observer func(Run)

// Line is the display line of the n-th run of a turn:
// "🪝 2. preToolCall [bash] · ./guard.sh → deny".
func (r Run) Line(n int) string {
	return "🪝 " + strconv.Itoa(n) + ". " + r.body()
}

// Title is the line without its number, the title of the ACP tool call
// that shows the run: "🪝 preToolCall [bash] · ./guard.sh → deny".
func (r Run) Title() string {
	return "🪝 " + r.body()
}

func (r Run) body() string {
	var b strings.Builder
	b.WriteString(string(r.Event))
	if r.Subject != "" && r.Event.HasMatcher() {
		b.WriteString(" [")
		b.WriteString(r.Subject)
		b.WriteString("]")
	}
	b.WriteString(" · ")
	b.WriteString(r.Label)
	b.WriteString(" → ")
	b.WriteString(r.Decision)
	return b.String()
}

// Report is the failure report line, "🪝 preToolCall hook `./guard.sh`:
// exit status 2: no", or "" when the run did not fail or its onError is
// ignore.
func (r Run) Report() string {
	if r.Failure == "" || r.OnError == OnErrorIgnore {
		return ""
	}
	return fmt.Sprintf("🪝 %s hook `%s`: %s", r.Event, r.Label, r.Failure)
}

// decisionFailed is the decision of a run that failed.
const decisionFailed = "failed"

// decision words what a successful reply did on event ev, counting only the
// fields ev reads (DecodeReply left the others zero): the action when it
// ends the chain, otherwise the changes in a fixed order, after "allow" when
// the reply allowed the call.
func decision(r Reply) string {
	switch r.Action {
	case ActionStop, ActionDeny:
		return r.Action
	}
	var parts []string
	if r.Action == ActionAllow {
		parts = append(parts, ActionAllow)
	}
	if r.Prompt != nil {
		parts = append(parts, "prompt replaced")
	}
	if r.Transcript != nil {
		parts = append(parts, "transcript replaced")
	}
	if r.Answer != nil {
		parts = append(parts, "answer replaced")
	}
	if r.Input != nil {
		parts = append(parts, "input replaced")
	}
	if r.Context != "" {
		parts = append(parts, fmt.Sprintf("context (%d chars)", utf8.RuneCountInString(r.Context)))
	}
	if len(parts) == 0 {
		return ActionContinue
	}
	return strings.Join(parts, " + ")
}
