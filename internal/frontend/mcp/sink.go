package mcp

import (
	"context"
	"strings"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// sink renders a session's events for the calls under way: the answer's
// text as the progress of the call whose lane it comes from. The asked
// agents' tool lines, hook runs and notices stay in mm, as with mm -p's
// stdout: a client reads the answer.
type sink struct{ sv *served }

// Emit routes the answer's text to its call.
func (k *sink) Emit(ev orchestrator.Event) {
	switch e := ev.(type) {
	case orchestrator.Text:
		// A turn's own text is its answer; a hand-off's is its agent's own
		// (an agent below it, "expert/checker", is not part of the answer).
		if e.Text == "" || strings.Contains(e.Agent, "/") {
			return
		}
		if c := k.sv.holder(e.Agent); c != nil {
			c.text(e.Text)
		}
	case orchestrator.ModelStarted, orchestrator.Compressing, orchestrator.Compressed,
		orchestrator.AskStarted, orchestrator.AskEnded, orchestrator.ToolStarted, orchestrator.ToolEnded,
		orchestrator.HookRan, orchestrator.Notice, orchestrator.CommandReply, orchestrator.UserText:
		// They stay in mm: an MCP client reads the answer, as the stdout
		// of mm -p does.
	case orchestrator.TurnEnded:
		// The call ends when the prompt returns (served.run).
	}
}

// Consent puts the question to the client of the call it belongs to, as
// an elicitation (consent.go).
func (k *sink) Consent(ctx context.Context, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer {
	lane, _, _ := strings.Cut(req.Agent, "/")
	c := k.sv.holder(lane)
	if c == nil {
		// A hand-off inside a turn asks for its agent's call: the turn's.
		c = k.sv.holder(servedLane)
	}
	if c == nil {
		return orchestrator.ConsentUnavailable
	}
	return k.sv.srv.elicit(ctx, c, req)
}
