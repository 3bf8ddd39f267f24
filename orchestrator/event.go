package orchestrator

import (
	"context"
	"encoding/json"
)

// Sink receives what a session does, for a front end to render. Emit is
// called from the turn's goroutines, possibly concurrently (two tool calls
// of one reply); a Sink serialises what it needs to.
type Sink interface {
	Emit(Event)
	// Consent asks the person whether a tool call may run. A front end where
	// nobody can be asked (-p, mm --ask without a terminal) answers
	// ConsentUnavailable at once.
	Consent(ctx context.Context, req ConsentRequest) ConsentAnswer
}

// Event is one of the types below.
type Event interface{ event() }

// Text is a piece of an answer as it streams. Agent is "" for the session's
// own model, else the chain of asked agents it comes from ("expert",
// "expert/checker").
type Text struct {
	Agent string
	Text  string
}

// ToolStatus is the state a tool call ended in.
type ToolStatus string

// Tool call end states.
const (
	ToolCompleted ToolStatus = "completed"
	ToolFailed    ToolStatus = "failed"
	// ToolDenied is a call a hook or the person refused: it did not run.
	ToolDenied ToolStatus = "denied"
)

// ToolStarted says a tool call is about to run (after its hooks and consent).
type ToolStarted struct {
	Agent string
	ID    string
	Name  string
	// Subject is the command, path, URL or agent of the call, 60 characters
	// at most, or "".
	Subject string
	Input   json.RawMessage
}

// ToolEnded says a tool call is over.
type ToolEnded struct {
	Agent   string
	ID      string
	Name    string
	Subject string
	Status  ToolStatus
	// Output is what the tool returned (before hook contexts).
	Output string
	// Summary is a short line on the outcome, e.g.
	// "expert answered (120 characters)", or the denial text
	// "[denied by a hook: <reason>]".
	Summary string
	// DeniedBy is "hook" or "person" when Status is ToolDenied.
	DeniedBy string
}

// HookRan reports one hook run when it ends.
type HookRan struct {
	// N is the run's number within the turn, from 1.
	N int
	// Line is the display line ("🪝 1. preToolCall [bash] · … → deny");
	// Title the same without the number, for editors.
	Line, Title string
	Failed      bool
	// OutsideTurn is set for hooks run by /ask… outside a turn: the line
	// mode and the window do not list them.
	OutsideTurn bool
}

// Notice is a line for the person outside the answer: a hook's failure
// report, a replaced-answer notice, a warning.
type Notice struct {
	Kind NoticeKind
	Text string
}

// NoticeKind says what a Notice is, so front ends can place it.
type NoticeKind int

// Kinds of notices.
const (
	NoticeInfo NoticeKind = iota
	// NoticeHookFailure is the report line of a failed hook run.
	NoticeHookFailure
	NoticeWarning
)

// TurnEnded closes a turn.
type TurnEnded struct {
	Answer string
	// Err is the turn's failure, nil when it answered.
	Err error
	// Commands lists the tool calls of the turn ("bash: ls -la"), for the
	// ⚙ line and displayCommands.
	Commands []string
	// Hooks are the display lines of the turn's hook runs, when
	// displayHooks is on.
	Hooks []string
}

func (Text) event()        {}
func (ToolStarted) event() {}
func (ToolEnded) event()   {}
func (HookRan) event()     {}
func (Notice) event()      {}
func (TurnEnded) event()   {}

// ConsentRequest asks whether a tool call may run.
type ConsentRequest struct {
	// Agent is "" for this session's own call, else the asked agent whose
	// call is relayed.
	Agent   string
	ID      string
	Tool    string
	Subject string
	// Detail is the subject uncut: a person sees it whole before approving.
	Detail string
	Input  json.RawMessage
}

// ConsentAnswer is the person's decision.
type ConsentAnswer int

// Answers to a ConsentRequest.
const (
	ConsentUnavailable ConsentAnswer = iota // nobody can be asked
	AllowOnce
	AllowAlways // for this tool, this session
	RejectOnce
	RejectAlways // never for this tool, this session
)

// CallTitle names a tool call the same way in every front end:
// "<tool>: <subject>", or "<tool>" without a subject, with "[<agent>] "
// before it for an asked agent's call.
func CallTitle(agent, tool, subject string) string {
	t := tool
	if subject != "" {
		t += ": " + subject
	}
	if agent != "" {
		t = "[" + agent + "] " + t
	}
	return t
}
