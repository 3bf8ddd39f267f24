package orchestrator

import (
	"context"
	"encoding/json"
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
	subject := tools.SubjectLine(input)
	if pre.Deny {
		out := deniedByHookPrefix + pre.Reason + "]"
		s.sink.Emit(ToolEnded{ID: call.ID, Name: call.Name, Subject: subject, Status: ToolDenied, DeniedBy: "hook", Output: out, Summary: out})
		return out, ToolDenied
	}
	if refusal := s.consent(ctx, call.ID, call.Name, subject, input, pre.Allow || unasked(tool)); refusal != "" {
		s.sink.Emit(ToolEnded{ID: call.ID, Name: call.Name, Subject: subject, Status: ToolDenied, DeniedBy: "person", Output: refusal, Summary: refusal})
		return refusal, ToolDenied
	}
	if ctx.Err() != nil {
		return cancelledBeforeRun, "cancelled" // before it ran: no ToolEnded
	}
	start := func() {
		s.sink.Emit(ToolStarted{ID: call.ID, Name: call.Name, Subject: subject, Input: input})
		t.command(commandLine(call.Name, subject))
	}

	var res tools.Result
	summary, deniedBy := "", ""
	if at, ok := tool.(askTool); ok {
		// ask_agent starts once preAsk let the hand-off go ahead: a denied
		// one shows as a denial, like a preToolCall deny.
		var denied bool
		res, summary, denied = at.run(ctx, t, input, start)
		if denied {
			deniedBy = "hook"
		}
	} else {
		start()
		res = tool.Run(ctx, tools.Env{Cwd: s.cwd, Environ: tracing.Environ(ctx, s.environ)}, input)
	}
	contexts := s.hooks.PostToolCall(ctx, hooks.ToolCall{ID: call.ID, Name: call.Name, Input: input}, res.Output, t.observe)
	status := ToolCompleted
	switch {
	case deniedBy != "":
		status = ToolDenied
	case res.IsError:
		status = ToolFailed
	}
	s.sink.Emit(ToolEnded{ID: call.ID, Name: call.Name, Subject: subject, Status: status, Output: res.Output, Summary: summary, DeniedBy: deniedBy})
	return handoff.AppendContexts(res.Output, contexts), status
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
func (s *Session) consent(ctx context.Context, id, name, subject string, input json.RawMessage, hookAllowed bool) string {
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
	ans := s.sink.Consent(ctx, ConsentRequest{ID: id, Tool: name, Subject: subject, Detail: tools.SubjectWhole(input),
		Question: askedQuestion(name, input), Input: input})
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
