package orchestrator

import (
	"context"
	"strings"

	"github.com/mm-agent/mm/internal/handoff"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// AskForClient is the mcp route (mm serve --mcp): one hand-off from this
// agent to name, outside any turn, of a question an MCP client's model
// wrote, with the conversation it sent along when withContext is set. It
// runs as every hand-off does — preAsk, the asked agent with its own
// hooks, postAsk — with "via": "mcp"; the question is data: nothing in it
// is expanded. It returns what the asking agent reads (the answer the
// postAsk hooks left, then their contexts); a denial is an error "ask
// denied by a hook: <reason>".
func (s *Session) AskForClient(ctx context.Context, name, question string, withContext bool, transcript string) (string, error) {
	return s.askOutside(ctx, handoff.ViaMCP, false, name, question, withContext, transcript)
}

// AskableAgent is one agent of mmConfigs as another agent's client is
// shown it: its name and what its file or entry says of it.
type AskableAgent struct {
	Name string
	// Description is what ask_agent's description says of the agent after
	// its name: its description, and for a structuredOutput agent the
	// schema of its answer; "" when neither can be read.
	Description string
}

// Askable lists the agents a session of cfg may ask, sorted by name, each
// described as ask_agent describes it to the session's own model.
func Askable(cfg *mmconfigs.Config) []AskableAgent {
	names := cfg.AgentNames()
	out := make([]AskableAgent, 0, len(names))
	for _, n := range names {
		out = append(out, AskableAgent{Name: n, Description: strings.TrimPrefix(agentLine(cfg.Agents[n]), ": ")})
	}
	return out
}
