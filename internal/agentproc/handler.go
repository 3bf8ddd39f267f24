package agentproc

import (
	"context"
	"encoding/json"
)

// Handler is the asking side of one prompt, and the one way an Agent
// reaches it: the Agent asks it how to start a child when the prompt
// starts one, tells it what that start could not do and which session the
// child holds the prompt in, and passes on what the child does while it
// answers. Text and ToolCall are called in the order the child sent them,
// one at a time; Permission may be called concurrently with them.
type Handler interface {
	// Options says how to start the child, when the prompt starts one:
	// on the Agent's first prompt, and on the first after its child died
	// or was stopped. ctx is the prompt's. Its Session is the earlier
	// session to go on with.
	Options(ctx context.Context) Options
	// Warn is told, in one line, that the child starts without its
	// earlier history.
	Warn(text string)
	// Answered is told, once the child lived through the prompt, the
	// session it holds the prompt in: a later start can load it.
	Answered(session string)
	// Text receives a piece of text as it streams. agent is "" for the
	// child's own answer, else the chain of agents it asked in turn
	// ("checker", "checker/deep"), whose text streams while they answer.
	Text(agent, chunk string)
	// ToolCall receives a tool call the child started or an update of one.
	ToolCall(u ToolUpdate)
	// Permission asks whether one of the child's tool calls may run. ctx is
	// cancelled when the prompt is, or when the child withdraws the request.
	Permission(ctx context.Context, req PermissionRequest) PermissionAnswer
}

// Tool call states, as the child reports them in ToolUpdate.Status.
const (
	StatusPending    = "pending"
	StatusInProgress = "in_progress"
	StatusCompleted  = "completed"
	StatusFailed     = "failed"
)

// ToolUpdate is a tool call of the child, or a change to one.
type ToolUpdate struct {
	// Agent is "" for the child's own call, else the chain of agents below
	// it that made the call ("checker").
	Agent string
	// ID is the child's reference for the call, unique within its session.
	ID string
	// Start is set on the first report of a call (ACP tool_call), unset on
	// the updates that follow (tool_call_update).
	Start bool
	// Tool and Subject are the tool's name and the command, path or agent
	// it is about, when the child says so (an mm child does); else "".
	Tool, Subject string
	// Title and Kind are the call's display title and ACP kind ("execute",
	// "read", "edit", "think", "other", …); "" when an update leaves them.
	Title, Kind string
	// Status is one of the Status constants; "" when an update leaves it.
	Status string
	// Input is the call's arguments (ACP rawInput); nil when absent.
	Input json.RawMessage
	// Output is the text content of the call, usually its output; "" when
	// none was sent.
	Output string
	// DeniedBy is "hook" or "person" when the call was refused and did not
	// run.
	DeniedBy string
	// Hook marks a hook run the child shows as a tool call (displayHooks),
	// not a tool call of its model.
	Hook bool
}

// PermissionRequest is the child asking whether a tool call may run.
type PermissionRequest struct {
	// Agent is "" for the child's own call, else the chain of agents below
	// it whose call is relayed.
	Agent string
	// ID is the tool call's reference (see ToolUpdate.ID).
	ID string
	// Tool and Subject as in ToolUpdate; "" when the child does not say.
	Tool, Subject string
	// Detail, Question, Along and Arguments are what an mm child's own
	// consent question shows (acpconn.Meta); "" from another agent.
	Detail, Question, Along, Arguments string
	// Always is what the child's "always" option allows, when an mm child
	// says (`"go test"`); NoAlways says the child offers no "always" option.
	Always      string
	NoAlways    bool
	Title, Kind string
	Input       json.RawMessage
	// Diff is the change a file tool of the child will make, as ACP's diff
	// content gives it; nil when the request has none.
	Diff *Diff
}

// Diff is a change to a file, as an agent shows it before making it.
type Diff struct {
	// Path is the file, as the agent gives it (ACP: absolute).
	Path string
	// Old is the file's content; Created says there is no file yet.
	Old     string
	Created bool
	New     string
}

// PermissionAnswer is the decision on a PermissionRequest.
type PermissionAnswer int

// Answers to a PermissionRequest. The zero value refuses.
const (
	// Refused means nobody can be asked: the call is rejected once.
	Refused PermissionAnswer = iota
	AllowOnce
	AllowAlways
	RejectOnce
	RejectAlways
)
