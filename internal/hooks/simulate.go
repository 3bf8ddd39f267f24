package hooks

import (
	"context"
	"fmt"
)

// Simulate runs the chain of event ev on in exactly as a turn would, for
// `mm hooks run <event>`: in's event is set to ev, and its cwd, model and
// asked, when absent, are the engine's. subject is the tool or agent the
// matchers see; "" means in's tool name or asked agent. The decision it
// returns marshals to JSON: a PreGenerationResult, a PreToolCallResult, a
// PreAskResult, a PostAskResult, {"contexts":[…]} for postToolCall, {} for
// postGeneration. The error is for an unknown event or an input lacking the
// object its event needs.
func (e *Engine) Simulate(ctx context.Context, ev Event, in Input, subject string, obs Observer) (any, error) {
	if _, err := ParseEvent(string(ev)); err != nil {
		return nil, err
	}
	base := e.input(ev)
	in.Event = ev
	if in.Cwd == "" {
		in.Cwd = base.Cwd
	}
	if in.Model == "" {
		in.Model = base.Model
	}
	if in.Asked == nil {
		in.Asked = base.Asked
	}
	switch ev {
	case PreToolCall, PostToolCall:
		if in.Tool == nil {
			return nil, fmt.Errorf(`the %s input needs a "tool" object: {"tool":{"id":"","name":"<tool>","input":{…}}}`, ev)
		}
		if subject == "" {
			subject = in.Tool.Name
		}
	case PreAsk, PostAsk:
		if in.Ask == nil {
			return nil, fmt.Errorf(`the %s input needs an "ask" object: {"ask":{"agent":"<name>","prompt":"…"}}`, ev)
		}
		if subject == "" {
			subject = in.Ask.Agent
		}
	}
	switch ev {
	case PreGeneration:
		return e.preGeneration(ctx, in, obs), nil
	case PreToolCall:
		return e.preToolCall(ctx, in, subject, obs), nil
	case PostToolCall:
		return struct {
			Contexts []string `json:"contexts,omitempty"`
		}{e.postToolCall(ctx, in, subject, obs)}, nil
	case PostGeneration:
		e.postGeneration(ctx, in, obs)
		return struct{}{}, nil
	case PreAsk:
		return e.preAsk(ctx, in, subject, obs), nil
	default:
		return e.postAsk(ctx, in, subject, obs), nil
	}
}
