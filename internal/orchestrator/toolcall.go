package orchestrator

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"golang.org/x/sync/semaphore"

	"github.com/mm-agent/mm/internal/handoff"
	"github.com/mm-agent/mm/internal/hooks"
	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/tools"
	"github.com/mm-agent/mm/internal/tracing"
)

// runToolCalls runs the calls of one reply concurrently, at most
// maxParallelTools at once, each from its preToolCall hooks to its
// postToolCall hooks; they start in the reply's order and their results
// come back in it, as the history keeps them. A call still waiting for its
// turn when ctx ends does not run: it reads as cancelled before it ran.
func (t *turn) runToolCalls(ctx context.Context, calls []llm.ToolCall) []llm.Message {
	limit := t.s.cfg.MaxParallelTools
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
			results[i].Content, results[i].IsError = t.runToolCall(ctx, call)
		})
	}
	wg.Wait()
	return results
}

// cancelledBeforeRun is the output of a call the turn's end kept from
// running.
const cancelledBeforeRun = "[cancelled before it ran]"

// runToolCall takes one call through the tool-hook layer (toolCall), in a
// span of its own, and returns the output the model reads and whether the
// call failed or did not run.
func (t *turn) runToolCall(ctx context.Context, call llm.ToolCall) (string, bool) {
	ctx, span := tracing.Start(ctx, tracing.SpanToolCall, tracing.Internal, attribute.String("mm.tool", call.Name), attribute.String("mm.tool_call_id", call.ID))
	out, status := t.toolCall(ctx, call)
	span.Set(attribute.String("mm.tool_status", string(status)))
	if status == ToolFailed {
		span.Fail(firstLine(out))
	}
	span.End(nil)
	return out, status != ToolCompleted
}

// callInfo is one tool call of the model as the tool-hook layer carries
// it, once preToolCall ran: its input as the hooks left it, and what it
// acts on.
type callInfo struct {
	id, name      string
	input         json.RawMessage
	subject, path string
}

// consentRequest is the consent question of c, before what its tool
// decodes of it is added.
func (c *callInfo) consentRequest() ConsentRequest {
	return ConsentRequest{ID: c.id, Tool: c.name, Subject: c.subject, Path: c.path, Input: c.input}
}

// toolCall takes one call through the tool-hook layer: preToolCall,
// consent, the call, postToolCall. It returns the output the model reads
// and how the call ended. It dispatches by name: ask_agent is a hand-off
// (askCall), any other name its tool's (toolRun).
func (t *turn) toolCall(ctx context.Context, call llm.ToolCall) (string, ToolStatus) {
	s := t.s
	tool, ok := s.tools[call.Name]
	asks := call.Name == askToolName && s.askOffered
	if !ok && !asks {
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
	c := &callInfo{id: call.ID, name: call.Name, input: pre.Input}
	env := tools.Env{Cwd: s.cwd, Environ: tracing.Environ(ctx, s.environ), Sandbox: s.sandbox}
	target := askTarget(c.input)
	if !asks {
		target = tools.TargetOf(tool, env, c.input)
	}
	c.subject, c.path = target.Subject, target.Path
	switch {
	case pre.Deny:
		return t.callRefused(c, "hook", deniedByHookPrefix+pre.Reason+"]")
	case asks:
		return t.askCall(ctx, c, pre.Allow)
	}
	return t.toolRun(ctx, tool, env, c, pre.Allow)
}

// toolRun is a call of a tool inside the tool-hook layer, preToolCall run
// (toolCall): the input decoded once, by the code that runs it, so that
// the person is asked about what runs; then the tool, postToolCall and
// ToolEnded. A call that does not fit its tool asks nobody: it fails with
// the tool's reason.
func (t *turn) toolRun(ctx context.Context, tool tools.Tool, env tools.Env, c *callInfo, hookAllowed bool) (string, ToolStatus) {
	planned, err := tools.PlanCall(tool, env, c.input)
	if err == nil {
		rc := ruleCall{Tool: c.name, Subject: planned.Subject, Path: planned.Path}
		refusal, ruled := t.s.checkRules(rc)
		if refusal != "" {
			return t.callRefused(c, "person", refusal)
		}
		req := c.consentRequest()
		req.Detail, req.Arguments, req.Change = planned.Subject, planned.Arguments, planned.Change
		always, offer := t.s.alwaysFor(rc)
		req.Always = offer
		if refusal := t.s.consent(ctx, req, hookAllowed || ruled || unasked(tool), always); refusal != "" {
			return t.callRefused(c, "person", refusal)
		}
	}
	if ctx.Err() != nil {
		return cancelledBeforeRun, ToolCancelled // before it ran: no ToolEnded
	}
	t.callStarted(c)
	if err != nil {
		return t.callEnded(ctx, c, tools.Refusal(err), "", "")
	}
	return t.callEnded(ctx, c, planned.Run(ctx), "", "")
}

// callStarted shows c started, and counts it for the turn's ⚙ line.
func (t *turn) callStarted(c *callInfo) {
	t.s.sink.Emit(ToolStarted{ID: c.id, Name: c.name, Subject: c.subject, Path: c.path, Input: c.input})
	t.command(commandLine(c.name, c.subject))
}

// callRefused ends c, which did not run: by is who refused it, "hook" (a
// preToolCall deny) or "person"; out is the output the model reads.
func (t *turn) callRefused(c *callInfo, by, out string) (string, ToolStatus) {
	t.s.sink.Emit(ToolEnded{ID: c.id, Name: c.name, Subject: c.subject, Path: c.path, Status: ToolDenied, DeniedBy: by, Output: out, Summary: out})
	return out, ToolDenied
}

// callEnded runs c's postToolCall hooks on res and shows c ended, with
// summary; deniedBy is "hook" for an ask_agent call a preAsk hook denied.
// It returns what the model reads: the output, then the hooks' contexts.
func (t *turn) callEnded(ctx context.Context, c *callInfo, res tools.Result, summary, deniedBy string) (string, ToolStatus) {
	contexts := t.s.hooks.PostToolCall(ctx, hooks.ToolCall{ID: c.id, Name: c.name, Input: c.input}, res.Output, t.observe)
	status := ToolCompleted
	switch {
	case deniedBy != "":
		status = ToolDenied
	case res.IsError:
		status = ToolFailed
	}
	t.s.sink.Emit(ToolEnded{ID: c.id, Name: c.name, Subject: c.subject, Path: c.path, Status: status, Output: res.Output, Summary: summary, DeniedBy: deniedBy})
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
