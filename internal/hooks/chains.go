package hooks

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mm-agent/mm/internal/handoff"
)

// noReason stands for the reason of a deny that gave none.
const noReason = "no reason given"

// PreGenerationResult is what the preGeneration chain decided.
type PreGenerationResult struct {
	// Prompt is the question as the hooks left it.
	Prompt string `json:"prompt"`
	// Contexts are the non-blank contexts, in hook order.
	Contexts []string `json:"contexts,omitempty"`
	// Stop ends the turn without calling the model.
	Stop bool `json:"stop,omitempty"`
	// Reason is why (possibly ""); "hook failed: …" after a failing hook
	// with onError: fail.
	Reason string `json:"reason,omitempty"`
	// Response is what the user reads instead of an answer, defaulted.
	Response string `json:"response,omitempty"`
}

// Marker is what the history keeps in place of a stopped question, and what
// postGeneration reads as its prompt: "[prompt blocked by a hook: <reason>]",
// or "[prompt blocked by a hook]" without a reason.
func (r PreGenerationResult) Marker() string {
	if r.Reason == "" {
		return "[prompt blocked by a hook]"
	}
	return "[prompt blocked by a hook: " + r.Reason + "]"
}

func (r *PreGenerationResult) stop(reason, response string) {
	if isBlank(reason) {
		reason = ""
	}
	r.Stop, r.Reason, r.Response = true, reason, response
	if isBlank(response) {
		r.Response = "⛔ This request was blocked by a hook"
		if reason != "" {
			r.Response += ": " + reason
		}
	}
}

// PreGeneration runs the preGeneration chain on the question as typed. Each
// hook reads the prompt the previous one left; a stop, or a failure with
// onError: fail, ends the chain and the turn.
func (e *Engine) PreGeneration(ctx context.Context, prompt string, obs Observer) PreGenerationResult {
	in := e.input(PreGeneration)
	in.Prompt = prompt
	return e.preGeneration(ctx, in, obs)
}

func (e *Engine) preGeneration(ctx context.Context, in Input, obs Observer) PreGenerationResult {
	res := PreGenerationResult{Prompt: in.Prompt}
	e.each(ctx, PreGeneration, "", func(en *Entry) bool {
		in.Prompt = res.Prompt
		rep, failure := e.step(ctx, &in, en, "", obs)
		switch {
		case failure != nil:
			if onError(en) == OnErrorFail {
				res.stop(failedReason(failure), "")
				return false
			}
			return true
		case rep.Action == ActionStop:
			res.stop(rep.Reason, rep.Response)
			return false
		}
		if rep.Prompt != nil {
			res.Prompt = *rep.Prompt
		}
		res.Contexts = appendContext(res.Contexts, rep.Context)
		return true
	})
	return res
}

// PreToolCallResult is what the preToolCall chain decided.
type PreToolCallResult struct {
	// Input is the arguments the tool runs with: the last replacement, or
	// the call's own.
	Input         json.RawMessage `json:"input"`
	InputReplaced bool            `json:"inputReplaced,omitempty"`
	// Allow skips the consent prompt; never set in an asked agent, nor
	// with Deny.
	Allow bool `json:"allow,omitempty"`
	// Deny keeps the tool from running; Reason says why ("no reason given"
	// when the hook gave none, "hook failed: …" after a failing hook with
	// onError: fail).
	Deny   bool   `json:"deny,omitempty"`
	Reason string `json:"reason,omitempty"`
}

func (r *PreToolCallResult) deny(reason string) {
	r.Deny, r.Allow, r.Reason = true, false, orNoReason(reason)
}

// PreToolCall runs the preToolCall chain of the hooks matching the tool's
// name. Each hook reads the arguments the previous one left; a deny, or a
// failure with onError: fail, ends the chain; an allow lets it go on, and a
// later deny wins.
func (e *Engine) PreToolCall(ctx context.Context, call ToolCall, obs Observer) PreToolCallResult {
	in := e.input(PreToolCall)
	in.Tool = &call
	return e.preToolCall(ctx, in, call.Name, obs)
}

func (e *Engine) preToolCall(ctx context.Context, in Input, subject string, obs Observer) PreToolCallResult {
	call := *in.Tool
	res := PreToolCallResult{Input: call.Input}
	mayAllow := in.Asked == nil || in.Asked.Depth < 1
	e.each(ctx, PreToolCall, subject, func(en *Entry) bool {
		t := call
		t.Input = res.Input
		in.Tool = &t
		rep, failure := e.step(ctx, &in, en, subject, obs)
		switch {
		case failure != nil:
			if onError(en) == OnErrorFail {
				res.deny(failedReason(failure))
				return false
			}
			return true
		case rep.Action == ActionDeny:
			res.deny(rep.Reason)
			return false
		case rep.Action == ActionAllow && mayAllow:
			res.Allow = true
		}
		if rep.Input != nil {
			res.Input, res.InputReplaced = rep.Input, true
		}
		return true
	})
	return res
}

// PostToolCall runs the postToolCall chain of the hooks matching the tool's
// name on the output the model will read, and returns their non-blank
// contexts in hook order (see handoff.AppendContexts). Failures never stop it.
func (e *Engine) PostToolCall(ctx context.Context, call ToolCall, output string, obs Observer) []string {
	in := e.input(PostToolCall)
	in.Tool, in.Output = &call, output
	return e.postToolCall(ctx, in, call.Name, obs)
}

func (e *Engine) postToolCall(ctx context.Context, in Input, subject string, obs Observer) []string {
	var contexts []string
	e.each(ctx, PostToolCall, subject, func(en *Entry) bool {
		rep, _ := e.step(ctx, &in, en, subject, obs)
		contexts = appendContext(contexts, rep.Context)
		return true
	})
	return contexts
}

// PostGeneration runs the postGeneration chain once the turn is over. prompt
// is the question the model read (or PreGenerationResult.Marker), answer the
// last answer's text, errText the turn's error. It runs even when ctx is
// cancelled, each hook bounded by its timeout alone.
func (e *Engine) PostGeneration(ctx context.Context, prompt, answer, errText string, obs Observer) {
	in := e.input(PostGeneration)
	in.Prompt, in.Answer, in.Error = prompt, answer, errText
	e.postGeneration(ctx, in, obs)
}

func (e *Engine) postGeneration(ctx context.Context, in Input, obs Observer) {
	ctx = context.WithoutCancel(ctx)
	e.each(ctx, PostGeneration, "", func(en *Entry) bool {
		e.step(ctx, &in, en, "", obs)
		return true
	})
}

// PreAskResult is what the preAsk chain decided.
type PreAskResult struct {
	// Ask is the hand-off as the hooks left it: Prompt and Transcript
	// possibly replaced (an empty Transcript sends no conversation, and a
	// hook may also send one on an ask without context).
	Ask handoff.Ask `json:"ask"`
	// Contexts are the non-blank contexts, in hook order.
	Contexts []string `json:"contexts,omitempty"`
	// Deny keeps the asked agent from being started or asked; Reason as
	// for PreToolCallResult.
	Deny   bool   `json:"deny,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// PreAsk runs the preAsk chain of the hooks matching the asked agent's name.
// Each hook reads the prompt and transcript the previous one left; a deny,
// or a failure with onError: fail, ends the chain.
func (e *Engine) PreAsk(ctx context.Context, ask handoff.Ask, obs Observer) PreAskResult {
	in := e.input(PreAsk)
	in.Ask = &ask
	return e.preAsk(ctx, in, ask.Agent, obs)
}

func (e *Engine) preAsk(ctx context.Context, in Input, subject string, obs Observer) PreAskResult {
	res := PreAskResult{Ask: *in.Ask}
	e.each(ctx, PreAsk, subject, func(en *Entry) bool {
		a := res.Ask
		in.Ask = &a
		rep, failure := e.step(ctx, &in, en, subject, obs)
		switch {
		case failure != nil:
			if onError(en) == OnErrorFail {
				res.Deny, res.Reason = true, failedReason(failure)
				return false
			}
			return true
		case rep.Action == ActionDeny:
			res.Deny, res.Reason = true, orNoReason(rep.Reason)
			return false
		}
		if rep.Prompt != nil {
			res.Ask.Prompt = *rep.Prompt
		}
		if rep.Transcript != nil {
			res.Ask.Transcript = *rep.Transcript
		}
		res.Contexts = appendContext(res.Contexts, rep.Context)
		return true
	})
	return res
}

// PostAskResult is what the postAsk chain decided.
type PostAskResult struct {
	// Answer is what the asking agent reads: the last replacement, or the
	// asked agent's answer.
	Answer   string `json:"answer"`
	Replaced bool   `json:"replaced,omitempty"`
	// Contexts are the non-blank contexts, in hook order.
	Contexts []string `json:"contexts,omitempty"`
}

// PostAsk runs the postAsk chain of the hooks matching the asked agent's name
// once its turn is over: ask as it was sent, the whole answer, the hand-off's
// error ("" when it succeeded), how long it took. Each hook reads the answer
// the previous one left. It runs even when ctx is cancelled, each hook
// bounded by its timeout alone.
func (e *Engine) PostAsk(ctx context.Context, ask handoff.Ask, answer, errText string, d time.Duration, obs Observer) PostAskResult {
	in := e.input(PostAsk)
	ms := d.Milliseconds()
	in.Ask, in.Answer, in.Error, in.DurationMs = &ask, answer, errText, &ms
	return e.postAsk(ctx, in, ask.Agent, obs)
}

func (e *Engine) postAsk(ctx context.Context, in Input, subject string, obs Observer) PostAskResult {
	ctx = context.WithoutCancel(ctx)
	res := PostAskResult{Answer: in.Answer}
	e.each(ctx, PostAsk, subject, func(en *Entry) bool {
		in.Answer = res.Answer
		rep, _ := e.step(ctx, &in, en, subject, obs)
		if rep.Answer != nil {
			res.Answer, res.Replaced = *rep.Answer, true
		}
		res.Contexts = appendContext(res.Contexts, rep.Context)
		return true
	})
	return res
}

func orNoReason(reason string) string {
	if isBlank(reason) {
		return noReason
	}
	return reason
}
