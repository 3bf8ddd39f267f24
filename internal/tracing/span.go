package tracing

import (
	"context"
	"slices"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// The names of mm's spans.
const (
	SpanTurn      = "mm.turn"
	SpanModelCall = "mm.model_call"
	SpanToolCall  = "mm.tool_call"
	SpanHookRun   = "mm.hook_run"
	SpanHandOff   = "mm.hand_off"
)

// Span is one span under way; the zero Span (tracing off) does nothing.
type Span struct{ s trace.Span }

// Start starts the span name under ctx's span, when ctx carries a Provider;
// otherwise it returns ctx as it is and a Span that does nothing. Client
// spans are those whose context goes to another process (a hand-off).
func Start(ctx context.Context, name string, kind trace.SpanKind, attrs ...attribute.KeyValue) (context.Context, Span) {
	p := providerOf(ctx)
	if p == nil {
		return ctx, Span{}
	}
	// The copy keeps attrs from escaping: a caller's variadic slice then
	// stays on its stack, and a span with tracing off allocates nothing.
	ctx, s := p.tr.Start(ctx, name, trace.WithSpanKind(kind), trace.WithAttributes(slices.Clone(attrs)...))
	return ctx, Span{s}
}

// On reports whether ctx's spans are recorded: for attributes worth
// computing only then.
func On(ctx context.Context) bool { return providerOf(ctx) != nil }

// Set adds attributes to the span.
func (s Span) Set(attrs ...attribute.KeyValue) {
	if s.s != nil {
		s.s.SetAttributes(slices.Clone(attrs)...) // as in Start
	}
}

// End ends the span; a non-nil err is recorded on it and marks it failed.
func (s Span) End(err error) {
	if s.s == nil {
		return
	}
	if err != nil {
		s.s.RecordError(err)
		s.s.SetStatus(codes.Error, err.Error())
	}
	s.s.End()
}

// Fail marks the span failed with a reason that is no Go error (a hook's
// failure text, a denial).
func (s Span) Fail(reason string) {
	if s.s != nil {
		s.s.SetStatus(codes.Error, reason)
	}
}

// The kinds of span mm starts, so that callers need not import otel's trace.
const (
	Internal = trace.SpanKindInternal
	Client   = trace.SpanKindClient
	Server   = trace.SpanKindServer
)
