package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mm-agent/mm/internal/handoff"
)

// tool is one tool of the served configuration: an agent of mmConfigs,
// or the served agent itself (served).
type tool struct {
	name, description string
	served            bool
}

// toolsOf are the tools of opts: the served agent's, then one per agent
// of mmConfigs. An agent named as the served agent is left out: the
// served agent's own tool answers for that name.
func toolsOf(opts Options) []tool {
	desc := opts.Description
	if desc == "" {
		desc = "The agent " + opts.Name + " of mm."
	}
	out := []tool{{name: opts.Name, description: desc + " A whole turn of the agent, with its own tools, hooks and agents.", served: true}}
	for _, a := range opts.Agents {
		if a.Name == opts.Name {
			continue
		}
		d := a.Description
		if d == "" {
			d = "The agent " + a.Name + "."
		}
		out = append(out, tool{name: a.Name, description: d + " Asked by " + opts.Name + ", under its preAsk and postAsk hooks."})
	}
	return out
}

// inputSchema is every tool's input: the question, and the conversation
// sent along, as /ask-with-context sends it.
var inputSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"question":{"type":"string","description":"the question, complete on its own"},` +
	`"conversation":{"type":"string","description":"optional: the conversation so far, as plain text, sent along before the question"}},` +
	`"required":["question"],"additionalProperties":false}`)

func (t tool) spec() *sdk.Tool {
	return &sdk.Tool{Name: t.name, Description: t.description, InputSchema: inputSchema}
}

// input is a call's arguments, decoded once.
type input struct {
	Question     string  `json:"question"`
	Conversation *string `json:"conversation"`
}

// decodeInput reads a call's arguments; its error is what the client's
// model reads.
func decodeInput(raw json.RawMessage) (input, error) {
	var in input
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if len(bytes.TrimSpace(raw)) == 0 {
		return in, errors.New(`invalid input: give "question"`)
	}
	if err := dec.Decode(&in); err != nil {
		return in, fmt.Errorf(`invalid input: %v: give "question" and, optionally, "conversation", both strings`, err)
	}
	if strings.TrimSpace(in.Question) == "" {
		return in, errors.New(`invalid input: "question" is empty: give the question, complete on its own`)
	}
	return in, nil
}

// errStopping is a call that comes once mm serve is stopping.
var errStopping = errors.New("mm serve is stopping")

// handler answers t's calls: one hand-off, or one turn of the served
// agent, in the session of the call's MCP session.
func (s *server) handler(t tool) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		in, err := decodeInput(req.Params.Arguments)
		if err != nil {
			return failed(err.Error()), nil
		}
		if !s.calls.TryAcquire(1) {
			return failed(fmt.Sprintf("mm serve is running %d calls, its limit: try again when one has ended", s.opts.MaxCalls)), nil
		}
		defer s.calls.Release(1)
		// The call ends with the server too, not only when the client
		// cancels it.
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stop := context.AfterFunc(s.ctx, cancel)
		defer stop()
		sv, err := s.session(req.Session)
		if err != nil {
			return failed(err.Error()), nil
		}
		c := &call{ctx: ctx, ss: req.Session, token: req.Params.GetProgressToken(), lane: t.name}
		if t.served {
			c.lane = servedLane
		}
		answer, err := sv.run(ctx, c, t.served, in)
		if err != nil {
			return failed(err.Error()), nil
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: answer}}}, nil
	}
}

// failed is a tool error: the client's model reads text.
func failed(text string) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}

// message is what the served agent reads of a call: the question, after
// the conversation when one was sent, as an asked mm receives it.
func (in input) message() string {
	if in.Conversation == nil || *in.Conversation == "" {
		return in.Question
	}
	return handoff.Message(in.Question, *in.Conversation, nil)
}
