package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/mm-agent/mm/internal/handoff"
	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/tracing"
)

// handOff is one hand-off from this session to an asked agent, on any
// route (ask_agent, /ask…, mm --ask), from AskStarted to AskEnded: what is
// asked, the steps docs/explanation/architecture.md lists ("A hand-off"),
// what the asked agent does on the way, relayed to the person
// (askrelay.go), and how it ended. It is the agentproc.Handler of the
// prompt it sends: it says how to start the asked agent, and takes its
// warnings, its session id and what it does.
type handOff struct {
	s *Session
	// t is the turn whose hook runs the hand-off's are: the model's turn
	// for ask_agent, one outside any turn for the other routes.
	t *turn

	// What is asked.
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
	// call is the ask_agent call the hand-off runs for; nil on the other
	// routes. The hand-off shows it started (callStarted) once preAsk let
	// it go ahead, before the asked agent is started or asked.
	call      *callInfo
	callShown bool

	// entry is the agent's mmConfigs entry, once resolved.
	entry mmconfigs.Agent
	// What the asked agent does while it answers (askrelay.go): streamed
	// is what is kept of its answer; stop ends the hand-off once the
	// answer passed its hard bound.
	streamed *handoff.Answer
	stop     func()
	// toolSince says one of the agent's own tool calls came after its last
	// text: the next text is another model call's, on a line of its own.
	toolSince bool
	// calls are the tool calls seen, by chain and id: an update need not
	// repeat what the call is, and an agent other than mm says it only
	// with ACP's title and kind. Permission runs beside ToolCall: mu.
	mu    sync.Mutex
	calls map[string]*seenCall

	// How it ended.
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
	// sentTyped is sent before its @path and $name lines were expanded,
	// when that changed it: what the history keeps for a resumed session
	// to show.
	sentTyped string
}

// run runs the hand-off between AskStarted and AskEnded.
func (h *handOff) run(ctx context.Context) {
	s := h.s
	start := time.Now()
	s.sink.Emit(AskStarted{Agent: h.agent, Depth: s.depth + 1, Via: h.via, Question: h.question})
	ctx, span := tracing.Start(ctx, tracing.SpanHandOff, tracing.Client, attribute.String("mm.ask.agent", h.agent),
		attribute.String("mm.ask.via", h.via), attribute.Bool("mm.ask.with_context", h.withContext), attribute.Int("mm.ask.depth", s.depth))
	h.steps(ctx, span)
	switch {
	case h.denied:
		span.Set(attribute.Bool("mm.ask.denied", true), attribute.String("mm.ask.reason", h.reason))
	case h.replaced:
		span.Set(attribute.Bool("mm.ask.replaced", true))
	}
	span.End(h.err)
	s.sink.Emit(AskEnded{Agent: h.agent, Depth: s.depth + 1, Via: h.via, Sent: h.sent, Answer: h.read, Err: h.err,
		Denied: h.denied, Reason: h.reason, Replaced: h.replaced, Duration: time.Since(start)})
}

// steps are the hand-off's, as docs/explanation/architecture.md lists
// them: resolve, depth, preAsk, the asked agent, postAsk.
func (h *handOff) steps(ctx context.Context, span tracing.Span) {
	s := h.s
	ask, ok := h.resolve()
	if !ok {
		return
	}
	if tracing.On(ctx) {
		span.Set(askAttributes(ask)...)
	}
	pre := s.hooks.PreAsk(ctx, ask, h.t.observe)
	if pre.Deny {
		h.denied, h.reason = true, pre.Reason
		return
	}
	ask = pre.Ask
	asTyped := ""
	if h.typed {
		// As for a turn: hooks read the question as typed, the asked
		// agent, postAsk and the history the expansion.
		p, err := s.expand(ask.Prompt)
		if err != nil {
			h.err = err
			return
		}
		if p != ask.Prompt {
			asTyped = ask.Prompt
		}
		ask.Prompt = p
	}
	h.callStarted()
	msg := handoff.Message(ask.Prompt, ask.Transcript, pre.Contexts)

	start := time.Now()
	answer, cancelled, err := h.askWithin(ctx, msg)
	errText := ""
	switch {
	case cancelled:
		errText = errCancelled.Error()
	case err != nil:
		errText = err.Error()
	}
	post := s.hooks.PostAsk(ctx, ask, answer, errText, time.Since(start), h.t.observe)
	h.answer, h.err, h.sent, h.sentTyped = answer, err, ask.Prompt, asTyped
	if post.Replaced && !cancelled {
		h.answer, h.replaced, h.err = post.Answer, true, nil
		s.sink.Emit(Notice{Kind: NoticeInfo, Text: handoff.ReplacedNotice(h.agent)})
	}
	if h.err == nil {
		h.contexts = post.Contexts
		h.read = handoff.AppendContexts(h.answer, post.Contexts)
	}
}

// resolve finds the agent in mmConfigs, checks the depth it would run at,
// and returns the ask object the hooks read; false, with h.err set, when
// the hand-off cannot go on.
func (h *handOff) resolve() (handoff.Ask, bool) {
	s := h.s
	agent, ok := s.cfg.Agents[h.agent]
	if !ok {
		h.err = &handoff.UnknownAgentError{Name: h.agent, Known: s.cfg.AgentNames()}
		return handoff.Ask{}, false
	}
	if d := s.depth + 1; d > s.maxDepth {
		h.err = &handoff.DepthError{Name: h.agent, Depth: d, Max: s.maxDepth}
		return handoff.Ask{}, false
	}
	h.entry = agent
	ask := handoff.Ask{
		Agent:       h.agent,
		Config:      agent.Config,
		Via:         h.via,
		WithContext: h.withContext,
		Depth:       s.depth,
		Prompt:      h.question,
	}
	var peek mmconfigs.Peek
	if agent.Kind == mmconfigs.AgentFile {
		// Best effort: a file that cannot be read says so when the agent
		// starts.
		peek, _ = mmconfigs.PeekAgent(agent.Config)
		ask.AgentModel = peek.Model
	}
	ask.Sandbox = s.askSandbox(agent, peek)
	ask.AgentCommand, ask.AgentHost, ask.AgentURL = describeAgent(agent, s.expander())
	if h.withContext {
		ask.Transcript = h.transcript
	}
	return ask, true
}

// askWithin asks the agent msg within askTimeout. It returns the answer,
// whether the hand-off was cancelled, and the error: askTimeout cancels it
// like Ctrl-C does (docs/explanation/architecture.md, "A hand-off", step
// 10): postAsk reads "cancelled" and cannot replace it; the person reads
// why.
func (h *handOff) askWithin(ctx context.Context, msg string) (answer string, cancelled bool, err error) {
	timeout := h.s.cfg.AskTimeout
	actx, cancel := context.WithTimeout(ctx, timeout)
	answer, err = h.prompt(actx, msg)
	timedOut := actx.Err() == context.DeadlineExceeded && ctx.Err() == nil
	cancel()
	cancelled = err != nil && (ctx.Err() != nil || timedOut)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		err = errCancelled
	case timedOut:
		err = fmt.Errorf("%s did not answer within askTimeout %s", h.agent, timeout)
	}
	return answer, cancelled, err
}

// callStarted shows the ask_agent call the hand-off runs for started,
// once; nothing on the other routes.
func (h *handOff) callStarted() {
	if h.call == nil || h.callShown {
		return
	}
	h.callShown = true
	h.t.callStarted(h.call)
}

// failure is how a hand-off of a route outside any turn failed, for its
// caller: a denial is "ask denied by a hook: <reason>"; nil when there is
// an answer to read.
func (h *handOff) failure() error {
	if h.denied {
		return errors.New("ask denied by a hook: " + h.reason)
	}
	return h.err
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

// childEnv is the environment of an asked mm's process (by file, or by
// command): config is its file, when it has one here.
func (s *Session) childEnv(name, config string) []string {
	env := withEnv(s.environ, "MM_CONFIG", config)
	env = withEnv(env, "MM_ASKED_DEPTH", strconv.Itoa(s.depth+1))
	env = withEnv(env, "MM_ASK_MAX_DEPTH", strconv.Itoa(s.maxDepth))
	env = withEnv(env, "MM_ASK_CHAIN", s.childChain(name))
	if c := s.ceiling(false); c != "" {
		env = withEnv(env, ceilingEnv, c)
	}
	// What an asked agent is told is this session's: it is saved when
	// this session is, and not when it is not (over ssh, see remote).
	if s.history.saved() {
		return withoutEnv(env, "MM_NO_SAVE")
	}
	return withEnv(env, "MM_NO_SAVE", "1")
}

// Ask is the mm --ask route: one hand-off from this agent to name, outside
// any turn, of a question the person typed (expanded as PromptTyped's is).
// It returns what the asking agent reads. A denial is an error "ask denied
// by a hook: <reason>".
func (s *Session) Ask(ctx context.Context, name, question string, withContext bool, transcript string) (string, error) {
	return s.askOutside(ctx, handoff.ViaCLI, s.depth == 0, name, question, withContext, transcript)
}

// askOutside is a hand-off outside any turn, by route via; typed expands
// the question's @path and $name lines after preAsk. It returns what the
// asking agent reads; a denial is an error "ask denied by a hook: <reason>".
func (s *Session) askOutside(ctx context.Context, via string, typed bool, name, question string, withContext bool, transcript string) (string, error) {
	h := &handOff{s: s, t: s.outsideTurn(), agent: name, question: question, via: via, typed: typed,
		withContext: withContext, transcript: transcript}
	h.run(ctx)
	if err := h.failure(); err != nil {
		return "", err
	}
	return h.read, nil
}

// askCommand runs a /ask… line: a hand-off outside any turn, kept in the
// history as one user message when it gave an answer.
func (s *Session) askCommand(ctx context.Context, cmd askCommandLine) error {
	t := s.outsideTurn()
	h := &handOff{s: s, t: t, agent: cmd.agent, question: cmd.question, via: handoff.ViaCommand, typed: true, withContext: cmd.withContext}
	if cmd.withContext {
		h.transcript = handoff.Transcript(s.History())
	}
	h.run(ctx)
	err := h.failure()
	if err == nil {
		s.history.append(llm.Message{Role: llm.RoleUser, Content: handoff.HistoryEntry(cmd.agent, h.sent, h.read), Typed: h.sentTyped})
	}
	t.end(h.read, err)
	return err
}

// HoldsAskAnswer reports whether mm --ask must hold the answer back until
// the postAsk hooks ran: true when at least one is declared.
func (s *Session) HoldsAskAnswer() bool { return len(s.cfg.Hooks.Entries("postAsk")) > 0 }
