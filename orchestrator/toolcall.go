package orchestrator

import (
	"context"
	"fmt"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"golang.org/x/sync/semaphore"

	"github.com/mm-agent/mm/handoff"
	"github.com/mm-agent/mm/hooks"
	"github.com/mm-agent/mm/internal/tracing"
	"github.com/mm-agent/mm/llm"
	"github.com/mm-agent/mm/mmconfigs"
	"github.com/mm-agent/mm/tools"
)

// runToolCalls runs the calls of one reply concurrently, at most
// maxParallelTools at once, each from its preToolCall hooks to its
// postToolCall hooks; they start in the reply's order and their results
// come back in it, as the history keeps them. A call still waiting for its
// turn when ctx ends does not run: it reads as cancelled before it ran.
func (s *Session) runToolCalls(ctx context.Context, t *turn, calls []llm.ToolCall) []llm.Message {
	limit := s.cfg.MaxParallelTools
	if limit < 1 {
		limit = mmconfigs.DefaultMaxParallelTools
	}
	slots := semaphore.NewWeighted(int64(limit))
	results := make([]llm.Message, len(calls))
	for i, call := range calls {
		results[i] = llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, Name: call.Name, Content: cancelledBeforeRun, IsError: true}
	}
	var wg sync.WaitGroup
	for i, call := range calls {
		if slots.Acquire(ctx, 1) != nil {
			break
		}
		wg.Go(func() {
			defer slots.Release(1)
			results[i].Content, results[i].IsError = s.runToolCall(ctx, t, call)
		})
	}
	wg.Wait()
	return results
}

// cancelledBeforeRun is the output of a call the turn's end kept from
// running.
const cancelledBeforeRun = "[cancelled before it ran]"

// runToolCall takes one call through preToolCall, consent, the tool and
// postToolCall, and returns the output the model reads and whether the
// call failed or did not run.
func (s *Session) runToolCall(ctx context.Context, t *turn, call llm.ToolCall) (string, bool) {
	ctx, span := tracing.Start(ctx, tracing.SpanToolCall, tracing.Internal, attribute.String("mm.tool", call.Name), attribute.String("mm.tool_call_id", call.ID))
	out, status := s.toolCall(ctx, t, call)
	span.Set(attribute.String("mm.tool_status", string(status)))
	if status == ToolFailed {
		span.Fail(firstLine(out))
	}
	span.End(nil)
	return out, status != ToolCompleted
}

// toolCall is runToolCall, which it returns with how the call ended.
func (s *Session) toolCall(ctx context.Context, t *turn, call llm.ToolCall) (string, ToolStatus) {
	tool, ok := s.tools[call.Name]
	if !ok {
		out := fmt.Sprintf("unknown tool %q: the tools are %s", call.Name, s.toolList())
		s.sink.Emit(ToolEnded{ID: call.ID, Name: call.Name, Status: ToolFailed, Output: out, Summary: out})
		return out, ToolFailed
	}
	input, err := validJSON(call.Arguments)
	if err != nil {
		out := fmt.Sprintf("%s: invalid JSON arguments (%v): send the arguments as one JSON object", call.Name, err)
		s.sink.Emit(ToolEnded{ID: call.ID, Name: call.Name, Status: ToolFailed, Output: out, Summary: out})
		return out, ToolFailed
	}
	pre := s.hooks.PreToolCall(ctx, hooks.ToolCall{ID: call.ID, Name: call.Name, Input: input}, t.observe)
	input = pre.Input
	env := tools.Env{Cwd: s.cwd, Environ: tracing.Environ(ctx, s.environ)}
	target := tools.TargetOf(tool, env, input)
	subject, path := target.Subject, target.Path
	if pre.Deny {
		out := deniedByHookPrefix + pre.Reason + "]"
		s.sink.Emit(ToolEnded{ID: call.ID, Name: call.Name, Subject: subject, Path: path, Status: ToolDenied, DeniedBy: "hook", Output: out, Summary: out})
		return out, ToolDenied
	}
	start := func() {
		s.sink.Emit(ToolStarted{ID: call.ID, Name: call.Name, Subject: subject, Path: path, Input: input})
		t.command(commandLine(call.Name, subject))
	}
	req, run, fits := s.planCall(ctx, t, tool, env, ConsentRequest{ID: call.ID, Tool: call.Name, Subject: subject, Path: path, Input: input}, start)
	if fits {
		if refusal := s.consent(ctx, req, pre.Allow || unasked(tool)); refusal != "" {
			s.sink.Emit(ToolEnded{ID: call.ID, Name: call.Name, Subject: subject, Path: path, Status: ToolDenied, DeniedBy: "person", Output: refusal, Summary: refusal})
			return refusal, ToolDenied
		}
	}
	if ctx.Err() != nil {
		return cancelledBeforeRun, "cancelled" // before it ran: no ToolEnded
	}

	res, summary, denied := run()
	deniedBy := ""
	if denied {
		// ask_agent starts once preAsk let the hand-off go ahead: a denied
		// one shows as a denial, like a preToolCall deny.
		deniedBy = "hook"
	}
	contexts := s.hooks.PostToolCall(ctx, hooks.ToolCall{ID: call.ID, Name: call.Name, Input: input}, res.Output, t.observe)
	status := ToolCompleted
	switch {
	case deniedBy != "":
		status = ToolDenied
	case res.IsError:
		status = ToolFailed
	}
	s.sink.Emit(ToolEnded{ID: call.ID, Name: call.Name, Subject: subject, Path: path, Status: status, Output: res.Output, Summary: summary, DeniedBy: deniedBy})
	return handoff.AppendContexts(res.Output, contexts), status
}

// callRun runs a planned call: the tool's result, the call's summary line
// and whether a hook denied it (ask_agent's preAsk).
type callRun func() (res tools.Result, summary string, denied bool)

// planCall decodes a call once, by the code that runs it: req, filled in,
// asks the person about what run acts on. A call that does not fit its
// tool does not fit (false): nobody is asked, and run only says why.
func (s *Session) planCall(ctx context.Context, t *turn, tool tools.Tool, env tools.Env, req ConsentRequest, start func()) (ConsentRequest, callRun, bool) {
	if at, ok := tool.(askTool); ok {
		in, err := at.decode(req.Input)
		if err != nil {
			res := tools.Refusal(err)
			return req, func() (tools.Result, string, bool) { start(); return res, res.Output, false }, false
		}
		req.Detail, req.Question, req.Along = in.agent, in.question, in.along()
		return req, func() (tools.Result, string, bool) { return at.run(ctx, t, in, start) }, true
	}
	planned, err := tools.PlanCall(tool, env, req.Input)
	if err != nil {
		return req, func() (tools.Result, string, bool) { start(); return tools.Refusal(err), "", false }, false
	}
	req.Detail, req.Arguments, req.Change = planned.Subject, planned.Arguments, planned.Change
	return req, func() (tools.Result, string, bool) { start(); return planned.Run(ctx), "", false }, true
}

// unasked reports whether a tool needs no consent (load_skill): one that
// reads only what the person installed for the model. A never the person
// gave still refuses it.
func unasked(t tools.Tool) bool {
	u, ok := t.(interface{ Unasked() bool })
	return ok && u.Unasked()
}

func commandLine(name, subject string) string {
	if subject == "" {
		return name
	}
	return name + ": " + subject
}

// consent decides whether a call may run without a hook's verdict: "" when
// it may, else the output the model reads instead.
func (s *Session) consent(ctx context.Context, req ConsentRequest, hookAllowed bool) string {
	name := req.Tool
	if s.yolo {
		return ""
	}
	s.mu.Lock()
	never, always := s.never[name], s.always[name]
	s.mu.Unlock()
	switch {
	case never:
		return fmt.Sprintf("[refused: the person said never for %s in this session]", name)
	case hookAllowed || always:
		return ""
	}
	ans := s.sink.Consent(ctx, req)
	switch ans {
	case AllowOnce:
		return ""
	case AllowAlways:
		s.mu.Lock()
		s.always[name] = true
		s.mu.Unlock()
		return ""
	case RejectAlways:
		s.mu.Lock()
		s.never[name] = true
		s.mu.Unlock()
		return fmt.Sprintf("[refused: the person said never for %s in this session]", name)
	case RejectOnce:
		return "[refused: the person did not allow this call]"
	}
	if ctx.Err() != nil {
		return cancelledBeforeRun
	}
	if s.depth > 0 {
		// Hooks' allow is ignored in an asked agent: only yolo helps.
		return fmt.Sprintf("[refused: nobody can approve %s here: the person of the agent that asked could not be asked; set yolo: true in this agent's configuration to run its tools unasked]", name)
	}
	return fmt.Sprintf("[refused: nobody can approve %s here: run with --yolo, set yolo: true, or let a preToolCall hook allow it]", name)
}
