package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/mm-agent/mm/handoff"
	"github.com/mm-agent/mm/hooks"
	"github.com/mm-agent/mm/internal/tracing"
	"github.com/mm-agent/mm/llm"
	"github.com/mm-agent/mm/mmconfigs"
)

// turn gathers what one turn shows besides the answer.
type turn struct {
	s           *Session
	outsideTurn bool

	mu       sync.Mutex
	runs     int
	hookLine []string
	commands []string
	usage    Usage
	start    time.Time
}

func (s *Session) newTurn() *turn { return &turn{s: s, start: time.Now()} }

// outsideTurn is a turn for what runs outside any turn of the model's
// (/compact, an /ask… command, mm --ask): its hook runs are not listed
// with a turn's.
func (s *Session) outsideTurn() *turn {
	t := s.newTurn()
	t.outsideTurn = true
	return t
}

// observe numbers a hook run, reports it and keeps its line for the end of
// the turn.
func (t *turn) observe(r hooks.Run) {
	t.mu.Lock()
	t.runs++
	n := t.runs
	line := r.Line(n)
	if t.s.cfg.DisplayHooks && !t.outsideTurn {
		t.hookLine = append(t.hookLine, line)
	}
	t.mu.Unlock()
	t.s.sink.Emit(HookRan{N: n, Event: string(r.Event), Subject: r.Subject, Hook: r.Label, Decision: r.Decision, Failure: r.Failure,
		Line: line, Title: r.Title(), Failed: r.Failure != "", OutsideTurn: t.outsideTurn})
	if rep := r.Report(); rep != "" {
		t.s.sink.Emit(Notice{Kind: NoticeHookFailure, Text: rep})
	}
}

// counted adds one model call's usage; took is the whole call's time, the
// generation time when the server gives none.
func (t *turn) counted(u llm.Usage, took time.Duration) {
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

func (t *turn) command(c string) {
	t.mu.Lock()
	t.commands = append(t.commands, c)
	t.mu.Unlock()
}

func (t *turn) end(answer string, err error) {
	t.mu.Lock()
	ev := TurnEnded{Answer: answer, Err: err, Commands: t.commands, Hooks: t.hookLine, Usage: t.usage, Duration: time.Since(t.start)}
	t.mu.Unlock()
	t.s.sink.Emit(ev)
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

func (s *Session) startTurn(ctx context.Context, text string, typed bool) error {
	ctx, span := tracing.Start(ctx, tracing.SpanTurn, tracing.Internal, attribute.Int("mm.depth", s.depth))
	var err error
	if typed {
		err = s.prompt(ctx, text)
	} else {
		err = s.runTurn(ctx, text, false)
	}
	span.End(err)
	return err
}

// prompt is a turn on what the person typed.
func (s *Session) prompt(ctx context.Context, text string) error {
	if cmd, ok, err := s.parseAskCommand(text); ok || err != nil {
		if err != nil {
			t := s.newTurn()
			t.end("", err)
			return err
		}
		return s.askCommand(ctx, cmd)
	}
	if strings.TrimSpace(text) == "/"+CommandCompact {
		return s.compact(ctx)
	}
	return s.runTurn(ctx, text, true)
}

// runTurn is one turn on a question; typed expands its lines.
func (s *Session) runTurn(ctx context.Context, text string, typed bool) error {
	t := s.newTurn()
	pg := s.hooks.PreGeneration(ctx, text, t.observe)
	if pg.Stop {
		marker := pg.Marker()
		s.appendHistory(
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
		if kept.Content != pg.Prompt {
			kept.Typed = pg.Prompt
		}
	}
	question := handoff.AppendContexts(kept.Content, pg.Contexts)
	answer, err := s.loop(ctx, t, kept, question)
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
func (s *Session) loop(ctx context.Context, t *turn, prompt llm.Message, question string) (string, error) {
	s.appendHistory(prompt)
	defer s.readWith(prompt.Content, question)()
	specs := s.toolSpecs()
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
	for step := 0; step < s.cfg.MaxSteps; step++ {
		if err := s.fitWindow(ctx, t, specs); err != nil {
			return "", err
		}
		reply, err := s.callModel(ctx, t, specs, format, onText)
		if refusal, ok := errors.AsType[*llm.ContextTooLongError](err); ok {
			// The server's window is smaller than mm knew (its /props is
			// missing or wrong): compress all that can be, and try once more.
			if err := s.refusedTooLong(ctx, t, specs, refusal); err != nil {
				return "", err
			}
			reply, err = s.callModel(ctx, t, specs, format, onText)
			if again, ok := errors.AsType[*llm.ContextTooLongError](err); ok {
				return "", fmt.Errorf("%w — even after compressing the conversation: give the model a larger window (the server's context size, e.g. llama-server -c), or lower contextWindow in the configuration", again)
			}
		}
		if err != nil {
			if reply.Content != "" {
				s.appendHistory(llm.Message{Role: llm.RoleAssistant, Content: reply.Content})
			}
			return reply.Content, err
		}
		s.appendHistory(llm.Message{Role: llm.RoleAssistant, Content: reply.Content, ToolCalls: reply.ToolCalls})
		s.countedCall(reply.Usage, specs)
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
			s.appendHistory(llm.Message{Role: llm.RoleUser, Content: retryText(bad)})
			continue
		}
		s.appendHistory(t.runToolCalls(ctx, reply.ToolCalls)...)
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
	}
	return "", fmt.Errorf("stopped after %d model calls in one turn (maxSteps %d): ask again to go on, or raise maxSteps in the configuration", s.cfg.MaxSteps, s.cfg.MaxSteps)
}

// callModel sends the conversation to the model, its answer going to
// onText as it streams (nil: held back).
func (s *Session) callModel(ctx context.Context, t *turn, specs []llm.ToolSpec, format *llm.JSONSchemaFormat, onText func(string)) (llm.Reply, error) {
	msgs := s.requestMessages()
	s.sink.Emit(ModelStarted{Loading: s.firstCallLoads(ctx)})
	ctx, span := tracing.Start(ctx, tracing.SpanModelCall, tracing.Client, attribute.String("gen_ai.request.model", s.ref))
	sent := time.Now()
	reply, err := s.model.Stream(ctx, llm.Request{Messages: msgs, Tools: specs, Format: format}, onText)
	t.counted(reply.Usage, time.Since(sent))
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
func (s *Session) firstCallLoads(ctx context.Context) bool {
	loading := false
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
func (s *Session) requestMessages() []llm.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	msgs := make([]llm.Message, 0, len(s.history)+1)
	msgs = append(msgs, llm.Message{Role: llm.RoleSystem, Content: s.system})
	msgs = append(msgs, s.history...)
	s.asRead(msgs[1:])
	return msgs
}

// retryText is the message that asks a structuredOutput agent's model once
// more, after an answer that was not valid.
func retryText(bad error) string {
	return "Your answer is not valid: " + bad.Error() + ". Answer again with the JSON alone, valid against the JSON Schema of the system prompt."
}

// systemPrompt is the configuration's system prompt, and for a
// structuredOutput agent the schema its answer follows: a server that
// ignores response_format leaves the model only this to go by. It is the
// same for every session of the configuration.
func systemPrompt(cfg *mmconfigs.Config) string {
	if p := schemaPrompt(cfg); p != "" {
		return cfg.System + "\n\n" + p
	}
	return cfg.System
}

// schemaPrompt is the system prompt's last part for a structuredOutput
// agent, "" for others.
func schemaPrompt(cfg *mmconfigs.Config) string {
	if cfg.StructuredOutput == nil {
		return ""
	}
	return "Your final answer is JSON alone, with no text around it, valid against this JSON Schema:\n" + string(cfg.StructuredOutput.JSON)
}

func (s *Session) toolSpecs() []llm.ToolSpec {
	if s.model != nil && !llm.TakesTools(s.model) {
		// The server refused the model's tools (a model without tool
		// support): none is sent, and none is counted in the window.
		return nil
	}
	specs := make([]llm.ToolSpec, 0, len(s.order))
	for _, name := range s.order {
		if name == askToolName {
			specs = append(specs, s.askToolSpec())
			continue
		}
		specs = append(specs, s.tools[name].Spec())
	}
	return specs
}

// toolList names the tools on offer, for an error the model can act on.
func (s *Session) toolList() string { return strings.Join(s.order, ", ") }

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
