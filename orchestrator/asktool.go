package orchestrator

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mm-agent/mm/handoff"
	"github.com/mm-agent/mm/llm"
	"github.com/mm-agent/mm/tools"
)

const askToolName = "ask_agent"

// askTool is the ask_agent tool: the model's route to a hand-off. It runs
// inside the turn (runToolCall calls run), so Run is never used.
type askTool struct{ s *Session }

// Spec describes ask_agent, reading each agent's description once per
// session.
func (a askTool) Spec() llm.ToolSpec {
	a.s.askSpecOnce.Do(func() { a.s.askSpec = a.spec() })
	return a.s.askSpec
}

func (a askTool) spec() llm.ToolSpec {
	names := a.s.cfg.AgentNames()
	var desc strings.Builder
	desc.WriteString("Ask another agent a question and read its answer. The agents:")
	for _, n := range names {
		d := ""
		if c, err := agentDescription(a.s.cfg.Agents[n]); err == nil && c != "" {
			d = ": " + c
		}
		fmt.Fprintf(&desc, "\n- %s%s", n, d)
	}
	desc.WriteString("\nSet withContext to send this conversation along.")
	enum, _ := json.Marshal(names)
	schema := fmt.Sprintf(`{"type":"object","properties":{"agent":{"type":"string","enum":%s,"description":"the agent to ask"},"question":{"type":"string","description":"the question, complete on its own"},"withContext":{"type":"boolean","description":"send the conversation so far along","default":false}},"required":["agent","question"]}`, enum)
	return llm.ToolSpec{Name: askToolName, Description: desc.String(), Parameters: json.RawMessage(schema)}
}

func (a askTool) Run(context.Context, tools.Env, json.RawMessage) tools.Result {
	return tools.Result{IsError: true, Output: "ask_agent runs only inside a turn"}
}

// run hands off and returns the output the model reads and the call's
// summary line.
func (a askTool) run(ctx context.Context, t *turn, input json.RawMessage) (tools.Result, string) {
	var in struct {
		Agent       string `json:"agent"`
		Question    string `json:"question"`
		WithContext bool   `json:"withContext"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		out := "ask_agent: invalid input: " + err.Error()
		return tools.Result{IsError: true, Output: out}, out
	}
	if in.Agent == "" || strings.TrimSpace(in.Question) == "" {
		out := `ask_agent: invalid input: give "agent" and "question"`
		return tools.Result{IsError: true, Output: out}, out
	}
	req := askRequest{agent: in.Agent, question: in.Question, via: handoff.ViaTool, withContext: in.WithContext}
	if in.WithContext {
		req.transcript = handoff.Transcript(a.s.History())
	}
	res := a.s.handOff(ctx, t, req)
	switch {
	case res.denied:
		out := handoff.DeniedText(res.reason)
		return tools.Result{IsError: true, Output: out}, out
	case res.err != nil:
		out := handoff.FailedText(res.err.Error())
		return tools.Result{IsError: true, Output: out}, out
	}
	return tools.Result{Output: handoff.ToolOutput(res.read)}, handoff.Summary(in.Agent, runeCount(res.answer), res.replaced)
}

// agentDescription reads an asked configuration's description, best effort.
func agentDescription(path string) (string, error) {
	return readHead(path, "description")
}
