package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/mm-agent/mm/internal/handoff"
	"github.com/mm-agent/mm/internal/hooks"
	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/tracing"
)

// turn is one turn of the conversation, from its question to TurnEnded:
// the loop of model calls and tool calls (toolcall.go), the fitting of
// each request into the model's window (compress.go), and what the turn
// shows besides the answer. The routes that run outside any turn of the
// model's — /compact, an /ask… command, mm --ask — run in a turn too
// (outsideTurn), for their hook runs and /compact's summary calls.
//
// What a turn touches:
//   - its own state, below: the question, as the history keeps it and as
//     the model reads it; the tools it offers; and the ⚙ line's facts
//     (hook runs, commands, usage);
//   - of its session: the history, which it appends its messages to and a
//     compression replaces; the window, which it tells each server count
//     and the window's size; the consent decisions and the permission
//     rules the person's "always" answers add (Session.consent, rules.go); the
//     asked agents, through its hand-offs (ask.go);
//   - and, without changing them, the session's configuration, model,
//     system prompt, tools and hooks; its events go to the session's sink.
type turn struct {
	s *Session
	// outside says the turn is no turn of the model's: its hook runs are
	// not listed with a turn's (HookRan.OutsideTurn).
	outside bool
	// question is the turn's question; at is -1 outside a turn.
	question turnQuestion
	// specs are the tools the turn offers, the same in each of its calls.
	specs []llm.ToolSpec
	// countRatio is, during a compression, the server's tokens per
	// estimated token of what its last count did not cover, from its
	// count of the request (window_base.go); 0 otherwise.
	countRatio float64

	mu        sync.Mutex
	runs      int
	hookLines []string
	commands  []string
	usage     Usage
	start     time.Time
}

// turnQuestion is the turn's question twice: as the history keeps it, at
// index at (the rewritten question, @path and $skill lines expanded), and
// as every model call of the turn reads it (kept, then each context a
// preGeneration hook added). A context is for the turn's model calls, the
// tool loop's included, and is gone from the next turn's requests
// (docs/reference/hooks.md).
type turnQuestion struct {
	at         int
	kept, read string
}

// asRead puts the question as the model reads it in place of the one the
// history keeps, in msgs (a copy of the history): at its index, when it is
// still there (a compression may have summarised it away).
func (q turnQuestion) asRead(msgs []llm.Message) {
	if q.read == q.kept || q.at < 0 || q.at >= len(msgs) {
		return
	}
	if m := &msgs[q.at]; m.Role == llm.RoleUser && m.Content == q.kept {
		m.Content = q.read
	}
}

// contextTokens is the estimate of what the turn's contexts add to a
// request.
func (q turnQuestion) contextTokens() int {
	return estimateMessage(llm.Message{Content: q.read}) - estimateMessage(llm.Message{Content: q.kept})
}

// summarised moves the question's index for a history whose first n
// messages a summary of two messages replaced: gone, when it was one of
// them.
func (q *turnQuestion) summarised(n int) {
	if q.at < n {
		q.at = -1
		return
	}
	q.at += 2 - n
}

func (s *Session) newTurn() *turn {
	return &turn{s: s, question: turnQuestion{at: -1}, start: time.Now()}
}

// outsideTurn is a turn for what runs outside any turn of the model's
// (/compact, an /ask… command, mm --ask).
func (s *Session) outsideTurn() *turn {
	t := s.newTurn()
	t.outside = true
	return t
}

// Prompt runs one turn on text nobody typed at this mm's front end — a
// question an asking agent's model wrote, or a network client's: the
// model reads it as it is, its @path and $name lines not expanded and no
// /command run (text from elsewhere is data). What happens arrives on the
// Sink, closed by TurnEnded; the error is the turn's failure.
func (s *Session) Prompt(ctx context.Context, text string) error {
	return s.startTurn(ctx, text, false)
}

// PromptTyped runs one turn on what the person typed at this mm's front
// end (the line mode, the window, -p, an editor): a question whose @path
// and $name lines are expanded, or one of the /ask… commands, whose
// question is expanded before it is sent. An asked agent (depth > 0) has
// no person typing: there it is Prompt.
func (s *Session) PromptTyped(ctx context.Context, text string) error {
	return s.startTurn(ctx, text, s.depth == 0)
}

// startTurn runs a turn on text, in a span of its own; typed is what the
// person typed.
func (s *Session) startTurn(ctx context.Context, text string, typed bool) error {
	ctx, span := tracing.Start(ctx, tracing.SpanTurn, tracing.Internal, attribute.Int("mm.depth", s.depth))
	var err error
	if typed {
		err = s.prompt(ctx, text)
	} else {
		err = s.newTurn().run(ctx, text, false)
	}
	span.End(err)
	return err
}

// prompt is a turn on what the person typed: an /ask… command, /compact,
// one of their command files, or a question.
func (s *Session) prompt(ctx context.Context, text string) error {
	if cmd, ok, err := s.parseAskCommand(text); ok || err != nil {
		if err != nil {
			s.newTurn().end("", err)
			return err
		}
		return s.askCommand(ctx, cmd)
	}
	if strings.TrimSpace(text) == "/"+CommandCompact {
		return s.outsideTurn().compact(ctx)
	}
	if question, ok, err := s.fileCommand(text); ok {
		if err != nil {
			s.newTurn().end("", err)
			return err
		}
		text = question // the person's file and words: expanded as typed
	}
	return s.newTurn().run(ctx, text, true)
}

// run is the turn on a question; typed expands its lines.
func (t *turn) run(ctx context.Context, text string, typed bool) error {
	s := t.s
	pg := s.hooks.PreGeneration(ctx, text, t.observe)
	if pg.Stop {
		marker := pg.Marker()
		s.history.append(
			llm.Message{Role: llm.RoleUser, Content: marker},
			llm.Message{Role: llm.RoleAssistant, Content: pg.Response},
		)
		s.sink.Emit(Text{Text: pg.Response})
		s.hooks.PostGeneration(ctx, marker, pg.Response, "", t.observe)
		t.end(pg.Response, nil)
		return nil
	}
	if s.model == nil {
		err := fmt.Errorf("no model: set model: in the configuration, $MM_MODEL or --model")
		t.end("", err)
		return err
	}
	// The @path and $name lines the person typed are expanded in the
	// question the hooks left: hooks read it as typed; the model reads, and
	// the history keeps, the expansion — it is the question, and later turns
	// send the very same bytes. The hooks' contexts follow it in this turn's
	// model calls only: the history keeps the rewritten question without them.
	// Beside the expansion it keeps the question before it (Typed), which a
	// resumed session shows: the hooks' question, not the person's, so that
	// nothing a hook took out is saved.
	kept := llm.Message{Role: llm.RoleUser, Content: pg.Prompt}
	if typed {
		var err error
		if kept.Content, err = s.expand(pg.Prompt); err != nil {
			t.end("", err)
			return err
		}
		if runs := s.takeShellRuns(); runs != "" {
			// What the person ran with "!" before it (shell.go).
			kept.Content = runs + "\n\n" + kept.Content
		}
		if kept.Content != pg.Prompt {
			kept.Typed = pg.Prompt
		}
	}
	question := handoff.AppendContexts(kept.Content, pg.Contexts)
	answer, err := t.loop(ctx, kept, question)
	err = describe(ctx, err)
	errText := ""
	if err != nil {
		errText = err.Error()
	}
	s.hooks.PostGeneration(ctx, question, answer, errText, t.observe)
	t.end(answer, err)
	return err
}

// loop calls the model and runs its tool calls until it answers. The history
// keeps prompt; every model call of the turn reads question (prompt's
// Content, then the hooks' contexts) in its place. The next turn's request
// differs from this turn's from the question on, so a local server reads
// that part anew once (docs/explanation/performance.md).
func (t *turn) loop(ctx context.Context, prompt llm.Message, question string) (string, error) {
	s := t.s
	t.question = turnQuestion{at: s.history.append(prompt), kept: prompt.Content, read: question}
	t.specs = s.toolSpecs()
	out := s.cfg.StructuredOutput
	onText := func(chunk string) { s.sink.Emit(Text{Text: chunk}) }
	var format *llm.JSONSchemaFormat
	if out != nil {
		if out.Validator == nil {
			// A build without a schema compiler (a test's):
			// no answer could be checked, so no model is called.
			return "", fmt.Errorf("structuredOutput %s: %w", out.Path, mmconfigs.ErrNotCompiled)
		}
		// The answer is shown once it is checked, so that what is shown
		// is the JSON alone: never a first answer that was refused.
		onText = nil
		format = &llm.JSONSchemaFormat{Name: out.Name, Schema: out.JSON, Strict: true}
	}
	retried := false
	for step := 0; step < s.maxSteps(); step++ {
		reply, err := t.step(ctx, format, onText)
		if err != nil {
			if reply.Content != "" {
				s.history.append(llm.Message{Role: llm.RoleAssistant, Content: reply.Content})
			}
			return reply.Content, err
		}
		s.history.append(llm.Message{Role: llm.RoleAssistant, Content: reply.Content, ToolCalls: reply.ToolCalls})
		s.window.counted(reply.Usage, s.system, t.specs, s.history.now(), t.question.contextTokens())
		if len(reply.ToolCalls) == 0 {
			if out == nil {
				return reply.Content, nil
			}
			answer, bad := out.Check(reply.Content)
			switch {
			case bad == nil:
				s.sink.Emit(Text{Text: answer})
				return answer, nil
			case retried:
				return reply.Content, fmt.Errorf("structuredOutput %s: %v (after one retry)", out.Path, bad)
			}
			// Once more, saying what was wrong: the next answer is checked
			// again, and the turn fails if it is no better.
			retried = true
			s.history.append(llm.Message{Role: llm.RoleUser, Content: retryText(bad)})
			continue
		}
		s.history.append(t.runToolCalls(ctx, reply.ToolCalls)...)
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
	}
	return "", s.stepsError()
}

// step is one model call of the loop: the request fitted into the window
// first, and, when the server refuses it as too long all the same, the
// history compressed all it can be for one more try.
func (t *turn) step(ctx context.Context, format *llm.JSONSchemaFormat, onText func(string)) (llm.Reply, error) {
	if err := t.fitWindow(ctx); err != nil {
		return llm.Reply{}, err
	}
	reply, err := t.callModel(ctx, format, onText)
	refusal, ok := errors.AsType[*llm.ContextTooLongError](err)
	if !ok {
		return reply, err
	}
	// The server's window is smaller than mm knew (its /props is missing
	// or wrong): compress all that can be, and try once more.
	if err := t.refusedTooLong(ctx, refusal); err != nil {
		return llm.Reply{}, err
	}
	reply, err = t.callModel(ctx, format, onText)
	if again, ok := errors.AsType[*llm.ContextTooLongError](err); ok {
		return llm.Reply{}, fmt.Errorf("%w — even after compressing the conversation: give the model a larger window (the server's context size, e.g. llama-server -c), or lower contextWindow in the configuration", again)
	}
	return reply, err
}

// callModel sends the conversation to the model, its answer going to
// onText as it streams (nil: held back).
func (t *turn) callModel(ctx context.Context, format *llm.JSONSchemaFormat, onText func(string)) (llm.Reply, error) {
	s := t.s
	msgs := t.requestMessages()
	s.sink.Emit(ModelStarted{Loading: t.firstCallLoads(ctx)})
	ctx, span := tracing.Start(ctx, tracing.SpanModelCall, tracing.Client, attribute.String("gen_ai.request.model", s.ref))
	sent := time.Now()
	reply, err := s.model.Stream(ctx, llm.Request{Messages: msgs, Tools: t.specs, Format: format}, onText)
	t.addUsage(reply.Usage, time.Since(sent))
	if u := reply.Usage; u.InputTokens > 0 || u.OutputTokens > 0 {
		span.Set(attribute.Int("gen_ai.usage.input_tokens", u.InputTokens), attribute.Int("gen_ai.usage.output_tokens", u.OutputTokens))
	}
	span.Set(attribute.Int("mm.tool_calls", len(reply.ToolCalls)))
	span.End(err)
	return reply, err
}

// firstCallLoads says, for the session's first call, that its server has
// yet to load the model; false for every later call, and where the server
// does not say.
func (t *turn) firstCallLoads(ctx context.Context) bool {
	s := t.s
	loading := false
	if s.loadAsked == nil {
		return false // a Session made without New (tests)
	}
	s.loadAsked.Do(func() {
		if lr, ok := s.model.(llm.LoadReader); ok {
			loaded, err := lr.Loaded(ctx)
			loading = err == nil && !loaded
		}
	})
	return loading
}

// requestMessages is the conversation as the model reads it: the system
// prompt, then the history, the turn's question with its contexts.
func (t *turn) requestMessages() []llm.Message {
	hist := t.s.history.now()
	msgs := make([]llm.Message, 0, len(hist)+1)
	msgs = append(msgs, llm.Message{Role: llm.RoleSystem, Content: t.s.system})
	msgs = append(msgs, hist...)
	t.question.asRead(msgs[1:])
	return msgs
}

// sentHistory is a copy of msgs, the history or a part of it, as the
// model read it: the turn's question with its contexts.
func (t *turn) sentHistory(msgs []llm.Message) []llm.Message {
	out := slices.Clone(msgs)
	t.question.asRead(out)
	return out
}

// requestTokens is how many tokens the next request of the turn holds
// (window.requestTokens).
func (t *turn) requestTokens() int {
	s := t.s
	return s.window.requestTokens(s.system, t.specs, s.history.now(), t.question.contextTokens())
}

// observe numbers a hook run, reports it and keeps its line for the end of
// the turn.
func (t *turn) observe(r hooks.Run) {
	t.mu.Lock()
	t.runs++
	n := t.runs
	line := r.Line(n)
	if t.s.cfg.DisplayHooks && !t.outside {
		t.hookLines = append(t.hookLines, line)
	}
	t.mu.Unlock()
	t.s.sink.Emit(HookRan{N: n, Event: string(r.Event), Subject: r.Subject, Hook: r.Label, Decision: r.Decision, Failure: r.Failure,
		Line: line, Title: r.Title(), Failed: r.Failure != "", OutsideTurn: t.outside})
	if rep := r.Report(); rep != "" {
		t.s.sink.Emit(Notice{Kind: NoticeHookFailure, Text: rep})
	}
}

// addUsage adds one model call's usage; took is the whole call's time,
// the generation time when the server gives none.
func (t *turn) addUsage(u llm.Usage, took time.Duration) {
	c := Usage{Calls: 1, InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, Generation: u.Generation}
	if u.InputTokens > 0 || u.OutputTokens > 0 {
		c.Reported = 1
	}
	if c.Generation <= 0 {
		c.Generation = took
	}
	t.mu.Lock()
	t.usage = t.usage.Add(c)
	t.mu.Unlock()
}

// command counts a tool call for the ⚙ line: "bash: ls -la".
func (t *turn) command(c string) {
	t.mu.Lock()
	t.commands = append(t.commands, c)
	t.mu.Unlock()
}

// end closes the turn with TurnEnded.
func (t *turn) end(answer string, err error) {
	t.mu.Lock()
	ev := TurnEnded{Answer: answer, Err: err, Commands: t.commands, Hooks: t.hookLines, Usage: t.usage, Duration: time.Since(t.start)}
	t.mu.Unlock()
	t.s.sink.Emit(ev)
}

// retryText is the message that asks a structuredOutput agent's model once
// more, after an answer that was not valid.
func retryText(bad error) string {
	return "Your answer is not valid: " + bad.Error() + ". Answer again with the JSON alone, valid against the JSON Schema of the system prompt."
}

// validJSON reports whether args is a JSON object; empty arguments count as {}.
func validJSON(args string) (json.RawMessage, error) {
	if strings.TrimSpace(args) == "" {
		return json.RawMessage("{}"), nil
	}
	var v any
	if err := json.Unmarshal([]byte(args), &v); err != nil {
		return nil, err
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, fmt.Errorf("want a JSON object, got %s", args)
	}
	return json.RawMessage(args), nil
}
