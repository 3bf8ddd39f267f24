package orchestrator

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/mm-agent/mm/internal/tools"
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
	// ToolCancelled is a call the turn's end kept from running: it has
	// no ToolEnded, as it never started.
	ToolCancelled ToolStatus = "cancelled"
)

// ToolStarted says a tool call is about to run (after its hooks and consent).
type ToolStarted struct {
	Agent string
	ID    string
	Name  string
	// Subject is what the call acts on, as the tool reads its input: the
	// command, path or agent (for a tool mm does not decode, the URL or any
	// of these the hooks reference names), 60 characters at most, or "".
	Subject string
	// Path is the file a file tool acts on, absolute; "" for other tools
	// and for a relayed call.
	Path  string
	Input json.RawMessage
}

// ToolEnded says a tool call is over.
type ToolEnded struct {
	Agent   string
	ID      string
	Name    string
	Subject string
	// Path as in ToolStarted.
	Path   string
	Status ToolStatus
	// Output is what the tool returned (before hook contexts).
	Output string
	// Summary is a short line on the outcome, e.g.
	// "expert answered (120 characters)", or the denial text
	// "[denied by a hook: <reason>]".
	Summary string
	// DeniedBy is "hook" or "person" when Status is ToolDenied.
	DeniedBy string
	// Input is the call's arguments when no ToolStarted announced the call
	// (a replayed one); else nil.
	Input json.RawMessage
}

// ModelStarted says a call to the session's own model was sent: nothing
// of its reply has arrived yet (the first Text or ToolStarted says so).
type ModelStarted struct {
	// Loading says the server has not loaded the model yet (Ollama's
	// /api/ps, asked before the session's first call): the wait is the
	// load's, then the prompt's.
	Loading bool
}

// AskStarted says a hand-off begins (before its preAsk hooks), on any
// route.
type AskStarted struct {
	// Agent is the asked agent; Depth the depth it runs at.
	Agent string
	Depth int
	// Via is "tool", "command" or "cli".
	Via string
	// Question is the question as asked, before any preAsk hook.
	Question string
}

// AskEnded says a hand-off is over, however it ended.
type AskEnded struct {
	Agent string
	Depth int
	Via   string
	// Sent is the question the asked agent received (after preAsk); ""
	// when it was not asked.
	Sent string
	// Answer is what the asking agent reads, postAsk contexts included.
	Answer string
	// Err is the failure; nil when there is an answer or on a denial.
	Err error
	// Denied says a preAsk hook refused it, for Reason.
	Denied   bool
	Reason   string
	Replaced bool
	Duration time.Duration
}

// HookRan reports one hook run when it ends.
type HookRan struct {
	// N is the run's number within the turn, from 1.
	N int
	// Event, Subject, Hook (the entry's command or module), Decision and
	// Failure are the run's parts, for front ends that show them apart
	// (--output-format json).
	Event, Subject, Hook, Decision, Failure string
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
	// Usage is what the model server counted over the turn's model calls.
	Usage Usage
	// Duration is how long the turn took.
	Duration time.Duration
}

// Usage counts the model calls of a turn, as the server reported them.
type Usage struct {
	// Calls is the number of model calls; Reported how many of them came
	// with the server's usage.
	Calls, Reported int
	// InputTokens and OutputTokens are the server's counts.
	InputTokens, OutputTokens int
	// Generation is the time spent writing the output: the server's own
	// figure where it gives one (llama.cpp), else the whole call's.
	Generation time.Duration
}

// TokensPerSecond is the output tokens over the generation time; 0 when
// either is unknown.
func (u Usage) TokensPerSecond() float64 {
	if u.OutputTokens == 0 || u.Generation <= 0 {
		return 0
	}
	return float64(u.OutputTokens) / u.Generation.Seconds()
}

// Add is u and v together.
func (u Usage) Add(v Usage) Usage {
	return Usage{Calls: u.Calls + v.Calls, Reported: u.Reported + v.Reported,
		InputTokens: u.InputTokens + v.InputTokens, OutputTokens: u.OutputTokens + v.OutputTokens,
		Generation: u.Generation + v.Generation}
}

// Depth is how deep below this session the agent an event comes from runs:
// 0 for the session's own ("" ), 1 for "expert", 2 for "expert/checker".
func Depth(agent string) int {
	if agent == "" {
		return 0
	}
	return strings.Count(agent, "/") + 1
}

func (Text) event()         {}
func (ModelStarted) event() {}
func (AskStarted) event()   {}
func (AskEnded) event()     {}
func (ToolStarted) event()  {}
func (ToolEnded) event()    {}
func (HookRan) event()      {}
func (Notice) event()       {}
func (TurnEnded) event()    {}

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
	// Question is, for an ask_agent call, the question it would send, as
	// the model wrote it: what leaves for another agent is shown too.
	Question string
	// Along says what goes with an ask_agent call's question ("the
	// conversation so far goes along: …"); "" when nothing does.
	Along string
	// Arguments is, for a tool mm does not decode itself (MCP, wasm, an
	// asked agent's tool it knows no subject of), its whole input, compact.
	Arguments string
	// Path is the file a file tool acts on, absolute; Change is what it
	// will write, for a diff (nil for a tool that writes no file).
	Path   string
	Change *tools.Change
	Input  json.RawMessage
	// Always is the "always" answer offered; nil when none is (a bash
	// command whose commands no prefix names).
	Always *AlwaysOffer
}

// AlwaysOffer is the "always" answer of a consent question: what it
// allows from then on in the session, and where it can be saved.
type AlwaysOffer struct {
	// For names what it allows, for a person: a bash command's prefixes,
	// quoted (`"go test"`, `"go test" and "go vet"`), else the tool.
	For string
	// SaveTo is the configuration file a saved answer appends its rules
	// to (permissions.allow), as the banner names it; "" when it cannot
	// be saved (no file, or an asked agent's question).
	SaveTo string
}

// ConsentAnswer is the person's decision.
type ConsentAnswer int

// Answers to a ConsentRequest.
const (
	ConsentUnavailable ConsentAnswer = iota // nobody can be asked
	AllowOnce
	AllowAlways // what ConsentRequest.Always offers, this session
	RejectOnce
	RejectAlways // never for this tool, this session
	// AllowAlwaysSaved is AllowAlways, its rules also appended to the
	// configuration file (ConsentRequest.Always.SaveTo).
	AllowAlwaysSaved
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
