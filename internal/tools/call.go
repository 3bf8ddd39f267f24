package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
)

// Call is one call of a tool with its input decoded once, by the tool: the
// person is asked about what Run acts on, never about a second reading of
// the input (docs/explanation/reliability.md, "What a person approves").
type Call struct {
	Target
	// Arguments is, for a tool mm does not decode itself (MCP, wasm), its
	// whole input, compact: a person approves all of it.
	Arguments string
	// Change is what a file tool will write, as the file was when the call
	// was planned; nil for other tools, and for a path that is not a
	// regular file.
	Change *Change

	run func(ctx context.Context) Result
}

// Target is what a call acts on, as the tool uses it.
type Target struct {
	// Subject is the call's subject, whole: bash's command, a file tool's
	// path (relative to the working directory when inside it, else
	// absolute), load_skill's skill; "" for a tool mm does not decode
	// itself.
	Subject string
	// Path is the file a file tool acts on, absolute; "" for other tools.
	Path string
}

// Run runs the call as it was planned.
func (c Call) Run(ctx context.Context) Result { return c.run(ctx) }

// Change is the change a file tool will make, for the consent question to
// show as a diff.
type Change struct {
	// Path is the file, absolute: what an editor opens.
	Path string
	// Old is the file's content; Created says there is no file yet.
	Old     string
	Created bool
	// OldSize is the file's size when Old was too large to read (Old is
	// then ""); -1 when Old is the whole file.
	OldSize int64
	New     string
}

// Planner is a tool that decodes a call's input before it runs, in one
// function that both Plan and Target call: the consent question, the tool
// lines and the run read the input alike. Target reads no file (a resumed
// session's tool lines).
type Planner interface {
	Tool
	Plan(env Env, input json.RawMessage) (Call, error)
	Target(env Env, input json.RawMessage) Target
}

// PlanCall decodes a call of t. A Planner plans it; any other tool's call
// shows its whole input and runs with it. The error is the output the
// model reads when the input does not fit the tool: the call does not run.
func PlanCall(t Tool, env Env, input json.RawMessage) (Call, error) {
	if p, ok := t.(Planner); ok {
		return p.Plan(env, input)
	}
	return Call{Arguments: Arguments(input), run: func(ctx context.Context) Result { return t.Run(ctx, env, input) }}, nil
}

// TargetOf is what a call of t acts on, its subject on one line, cut for a
// tool line: the Planner's target, or for any other tool the subject
// SubjectLine finds (the hooks reference's "command, path, URL or agent").
func TargetOf(t Tool, env Env, input json.RawMessage) Target {
	if p, ok := t.(Planner); ok {
		tg := p.Target(env, input)
		tg.Subject = cutLine(strings.Join(strings.Fields(tg.Subject), " "))
		return tg
	}
	return Target{Subject: SubjectLine(input)}
}

// Arguments is a call's whole input as a person approves it: compact JSON
// (as it is when it is not JSON), "" when it holds nothing (empty, null,
// {}).
func Arguments(input json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, input) != nil {
		return string(input)
	}
	switch s := b.String(); s {
	case "{}", "null":
		return ""
	default:
		return s
	}
}

// planError is the error of a call that does not run: its text is the
// output the model reads.
type planError struct{ Result }

func (e planError) Error() string { return e.Output }

// refuse makes a failed Result a plan's error.
func refuse(r Result) error { return planError{r} }

// ran is a call on target whose run is f.
func ran(target Target, f func(ctx context.Context) Result) Call {
	return Call{Target: target, run: f}
}

// runPlanned is a Planner's Run: the call planned, then run, or the plan's
// refusal.
func runPlanned(ctx context.Context, p Planner, env Env, input json.RawMessage) Result {
	c, err := p.Plan(env, input)
	if err != nil {
		return Refusal(err)
	}
	return c.Run(ctx)
}

// Refusal is the result the model reads for a call PlanCall refused.
func Refusal(err error) Result {
	if pe, ok := err.(planError); ok {
		return pe.Result
	}
	return Result{Output: err.Error(), IsError: true}
}
