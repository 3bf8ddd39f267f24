package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/handoff"
	"github.com/mm-agent/mm/internal/tracing"
	"github.com/mm-agent/mm/mmconfigs"
)

// askRequest is one hand-off, whatever its route.
type askRequest struct {
	agent    string
	question string
	via      string
	// typed says the person typed the question (/ask…, mm --ask): its
	// @path and $name lines are expanded, after preAsk, before it is sent.
	// A question a model wrote (ask_agent) is sent as it is.
	typed bool
	// withContext sends transcript along.
	withContext bool
	transcript  string
	// started, when set, is called once preAsk let the hand-off go ahead,
	// before the asked agent is started or asked (ask_agent's tool line).
	started func()
}

// askResult is how a hand-off ended.
type askResult struct {
	// read is what the asking agent reads: the answer or its replacement,
	// then the postAsk contexts.
	read string
	// answer is the answer read, without contexts.
	answer string
	// contexts are the postAsk contexts, which read ends with.
	contexts []string
	replaced bool
	denied   bool
	reason   string
	// err is the failure, nil when there is an answer to read.
	err error
	// sent is the question as the asked agent received it (after preAsk).
	sent string
	// typed is sent before its @path and $name lines were expanded, when
	// that changed it: what the history keeps for a resumed session to show.
	typed string
}

// handOff runs one hand-off between AskStarted and AskEnded.
func (s *Session) handOff(ctx context.Context, t *turn, req askRequest) askResult {
	start := time.Now()
	s.sink.Emit(AskStarted{Agent: req.agent, Depth: s.depth + 1, Via: req.via, Question: req.question})
	ctx, span := tracing.Start(ctx, tracing.SpanHandOff, tracing.Client, attribute.String("mm.ask.agent", req.agent),
		attribute.String("mm.ask.via", req.via), attribute.Bool("mm.ask.with_context", req.withContext), attribute.Int("mm.ask.depth", s.depth))
	res := s.runHandOff(ctx, t, req, span)
	switch {
	case res.denied:
		span.Set(attribute.Bool("mm.ask.denied", true), attribute.String("mm.ask.reason", res.reason))
	case res.replaced:
		span.Set(attribute.Bool("mm.ask.replaced", true))
	}
	span.End(res.err)
	s.sink.Emit(AskEnded{Agent: req.agent, Depth: s.depth + 1, Via: req.via, Sent: res.sent, Answer: res.read, Err: res.err,
		Denied: res.denied, Reason: res.reason, Replaced: res.replaced, Duration: time.Since(start)})
	return res
}

// runHandOff runs a hand-off as docs/explanation/architecture.md lists its
// steps: resolve, depth, preAsk, the asked agent, postAsk.
func (s *Session) runHandOff(ctx context.Context, t *turn, req askRequest, span tracing.Span) askResult {
	agent, ok := s.cfg.Agents[req.agent]
	if !ok {
		return askResult{err: &handoff.UnknownAgentError{Name: req.agent, Known: s.cfg.AgentNames()}}
	}
	if d := s.depth + 1; d > s.maxDepth {
		return askResult{err: &handoff.DepthError{Name: req.agent, Depth: d, Max: s.maxDepth}}
	}
	ask := handoff.Ask{
		Agent:       req.agent,
		Config:      agent.Config,
		Via:         req.via,
		WithContext: req.withContext,
		Depth:       s.depth,
		Prompt:      req.question,
	}
	if agent.Kind == mmconfigs.AgentFile {
		ask.AgentModel = agentModel(agent.Config)
	}
	ask.AgentCommand, ask.AgentHost, ask.AgentURL = describeAgent(agent, s.expander())
	if req.withContext {
		ask.Transcript = req.transcript
	}
	if tracing.On(ctx) {
		span.Set(askAttributes(ask)...)
	}
	pre := s.hooks.PreAsk(ctx, ask, t.observe)
	if pre.Deny {
		return askResult{denied: true, reason: pre.Reason}
	}
	ask = pre.Ask
	asTyped := ""
	if req.typed {
		// As for a turn: hooks read the question as typed, the asked
		// agent, postAsk and the history the expansion.
		p, err := s.expand(ask.Prompt)
		if err != nil {
			return askResult{err: err}
		}
		if p != ask.Prompt {
			asTyped = ask.Prompt
		}
		ask.Prompt = p
	}
	if req.started != nil {
		req.started()
	}
	msg := handoff.Message(ask.Prompt, ask.Transcript, pre.Contexts)

	start := time.Now()
	actx, cancel := context.WithTimeout(ctx, s.cfg.AskTimeout)
	answer, err := s.asks.prompt(actx, req.agent, agent, msg)
	timedOut := actx.Err() == context.DeadlineExceeded && ctx.Err() == nil
	cancel()
	// askTimeout cancels the hand-off like Ctrl-C does (docs/explanation/architecture.md, "A hand-off", step 10):
	// postAsk reads "cancelled" and cannot replace it; the person reads why.
	cancelled := err != nil && (ctx.Err() != nil || timedOut)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		err = errCancelled
	case timedOut:
		err = fmt.Errorf("%s did not answer within askTimeout %s", req.agent, s.cfg.AskTimeout)
	}
	errText := ""
	switch {
	case cancelled:
		errText = errCancelled.Error()
	case err != nil:
		errText = err.Error()
	}
	post := s.hooks.PostAsk(ctx, ask, answer, errText, time.Since(start), t.observe)
	res := askResult{answer: answer, err: err, sent: ask.Prompt, typed: asTyped}
	if post.Replaced && !cancelled {
		res.answer, res.replaced, res.err = post.Answer, true, nil
		s.sink.Emit(Notice{Kind: NoticeInfo, Text: handoff.ReplacedNotice(req.agent)})
	}
	if res.err == nil {
		res.contexts = post.Contexts
		res.read = handoff.AppendContexts(res.answer, post.Contexts)
	}
	return res
}

// askAttributes are the fields of the ask object that say where it goes,
// for the hand-off's span: the question and transcript stay out of traces.
func askAttributes(ask handoff.Ask) []attribute.KeyValue {
	var out []attribute.KeyValue
	for _, kv := range [...]struct{ key, value string }{
		{"mm.ask.config", ask.Config}, {"mm.ask.agent_model", ask.AgentModel},
		{"mm.ask.agent_host", ask.AgentHost}, {"mm.ask.agent_url", ask.AgentURL},
	} {
		if kv.value != "" {
			out = append(out, attribute.String(kv.key, kv.value))
		}
	}
	if len(ask.AgentCommand) > 0 {
		out = append(out, attribute.StringSlice("mm.ask.agent_command", ask.AgentCommand))
	}
	return out
}

// agentModel reads the model an asked configuration names, best effort.
func agentModel(path string) string {
	m, _ := readHead(path, "model")
	return m
}

// readHead reads one top-level string key of a configuration file without
// validating the rest.
func readHead(path, key string) (string, error) {
	v, err := readHeads(path, key)
	if err != nil {
		return "", err
	}
	return v[0], nil
}

// readHeads reads several top-level string keys of a configuration file at
// once, as readHead does: "" for a key that is absent or not a string.
func readHeads(path string, keys ...string) ([]string, error) {
	data, err := mmconfigs.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var head map[string]any
	if err := yaml.Unmarshal(data, &head); err != nil {
		return nil, err
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i], _ = head[k].(string)
	}
	return out, nil
}

// childEnv is the environment of an asked mm's process (by file, or by
// command): config is its file, when it has one here.
func (s *Session) childEnv(name, config string) []string {
	env := withEnv(s.environ, "MM_CONFIG", config)
	env = withEnv(env, "MM_ASKED_DEPTH", strconv.Itoa(s.depth+1))
	env = withEnv(env, "MM_ASK_MAX_DEPTH", strconv.Itoa(s.maxDepth))
	env = withEnv(env, "MM_ASK_CHAIN", s.childChain(name))
	// What an asked agent is told is this session's: it is saved when
	// this session is, and not when it is not (over ssh, see remote).
	if s.saved() {
		return withoutEnv(env, "MM_NO_SAVE")
	}
	return withEnv(env, "MM_NO_SAVE", "1")
}

// Ask is the mm --ask route: one hand-off from this agent to name, outside
// any turn, of a question the person typed (expanded as PromptTyped's is). It returns what the asking agent reads. A denial is an error
// "ask denied by a hook: <reason>".
func (s *Session) Ask(ctx context.Context, name, question string, withContext bool, transcript string) (string, error) {
	t := s.newTurn()
	t.outsideTurn = true
	res := s.handOff(ctx, t, askRequest{agent: name, question: question, via: handoff.ViaCLI, typed: s.depth == 0, withContext: withContext, transcript: transcript})
	switch {
	case res.denied:
		return "", errors.New("ask denied by a hook: " + res.reason)
	case res.err != nil:
		return "", res.err
	}
	return res.read, nil
}

// HoldsAskAnswer reports whether mm --ask must hold the answer back until
// the postAsk hooks ran: true when at least one is declared.
func (s *Session) HoldsAskAnswer() bool { return len(s.cfg.Hooks.Entries("postAsk")) > 0 }
