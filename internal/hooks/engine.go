package hooks

import (
	"context"
	"strings"

	"go.opentelemetry.io/otel/attribute"

	"github.com/mm-agent/mm/internal/tracing"
)

// Options is what the engine knows of the session its hooks run in.
type Options struct {
	// Cwd is the session's working directory, absolute: the hooks' working
	// directory and the input's "cwd".
	Cwd string
	// Model is the model reference, <provider>/<model>.
	Model string
	// Environ is mm's environment (with MM_BIN and MM_CONFIG); each command
	// run adds MM_HOOK_EVENT and MM_CONFIG_DIR. Nil means os.Environ().
	Environ []string
	// AskedDepth is the agent's depth when another agent asked it (1 or
	// more): inputs then carry "asked":{"depth":n} and preToolCall's
	// allow is ignored, the asking agent's person deciding.
	AskedDepth int
	// Wasm runs wasm entries; nil makes each wasm run fail.
	Wasm WasmRunner
}

// Engine runs the hook chains of one agent. It holds no state between
// chains: several may run at once (two tool calls of one model reply).
type Engine struct {
	cfg  *Config
	opts Options
}

// NewEngine returns the engine of a validated configuration; a nil cfg is an
// engine with no hooks. It does no work: nothing runs before a chain does.
func NewEngine(cfg *Config, opts Options) *Engine {
	return &Engine{cfg: cfg, opts: opts}
}

// Prepare readies, in the background, what the first command hook's run
// needs, when the configuration has a command hook (Prepare).
func (e *Engine) Prepare() {
	if e != nil {
		Prepare(e.cfg)
	}
}

// Has reports whether at least one hook is declared for ev.
func (e *Engine) Has(ev Event) bool {
	return len(e.entries(ev)) > 0
}

// Matching reports whether at least one hook of ev runs for subject, the
// tool's or the asked agent's name (ignored on preGeneration and
// postGeneration, whose hooks have no matcher).
func (e *Engine) Matching(ev Event, subject string) bool {
	entries := e.entries(ev)
	for i := range entries {
		if entries[i].Matches(subject) {
			return true
		}
	}
	return false
}

func (e *Engine) entries(ev Event) []Entry {
	if e == nil {
		return nil
	}
	return e.cfg.Entries(ev)
}

// input is the start of every input of event ev.
func (e *Engine) input(ev Event) Input {
	in := Input{Event: ev}
	if e == nil {
		return in
	}
	in.Cwd, in.Model = e.opts.Cwd, e.opts.Model
	if e.opts.AskedDepth >= 1 {
		in.Asked = &Asked{Depth: e.opts.AskedDepth}
	}
	return in
}

// each calls fn with the hooks of ev that match subject, in order, until fn
// returns false. A cancelled ctx starts no further run.
func (e *Engine) each(ctx context.Context, ev Event, subject string, fn func(en *Entry) bool) {
	entries := e.entries(ev)
	for i := range entries {
		en := &entries[i]
		if !en.Matches(subject) {
			continue
		}
		if ctx.Err() != nil || !fn(en) {
			return
		}
	}
}

// step runs one hook on in and tells obs. It returns the reply, or the
// run's failure (nil when it succeeded).
func (e *Engine) step(ctx context.Context, in *Input, en *Entry, subject string, obs Observer) (Reply, *RunError) {
	run := Run{Event: in.Event, Subject: subject, Label: en.Label(), OnError: onError(en)}
	ctx, span := tracing.Start(ctx, tracing.SpanHookRun, tracing.Internal, attribute.String("mm.hook.event", string(in.Event)),
		attribute.String("mm.hook.subject", subject), attribute.String("mm.hook", run.Label))
	defer func() {
		span.Set(attribute.String("mm.hook.decision", run.Decision))
		if run.Failure != "" {
			span.Fail(run.Failure)
		}
		span.End(nil)
	}()
	var rep Reply
	var failure *RunError
	data, err := in.encode()
	if err != nil {
		failure = failed(err)
	} else if out, f := e.exec(ctx, in.Event, en, data); f != nil {
		failure = f
	} else if rep, err = DecodeReply(in.Event, out); err != nil {
		failure = failed(err)
	}
	if failure != nil {
		rep = Reply{}
		run.Decision, run.Failure = decisionFailed, failure.Error()
	} else {
		run.Decision = decision(rep)
	}
	if obs != nil {
		obs(run)
	}
	return rep, failure
}

// onError is the entry's onError, warn when the entry was not resolved.
func onError(en *Entry) string {
	if en.OnError == "" {
		return OnErrorWarn
	}
	return en.OnError
}

// appendContext keeps a reply's context unless it is blank.
func appendContext(contexts []string, c string) []string {
	if isBlank(c) {
		return contexts
	}
	return append(contexts, c)
}

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }
