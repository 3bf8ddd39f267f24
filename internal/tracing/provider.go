package tracing

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/otel/trace"
)

// Scope is the instrumentation scope of mm's spans.
const Scope = "github.com/mm-agent/mm"

// FlushBound is how long mm waits at exit for its last spans to be
// exported: a collector that is down or slow must not hold mm's exit.
const FlushBound = time.Second

// Provider makes the spans of one mm process. The zero Provider (tracing
// not configured) is valid and makes none.
type Provider struct {
	tr       trace.Tracer
	shutdown func(context.Context) error
}

// NewProvider is the Provider of tr, whose last spans shutdown exports:
// package otlp's, which links the OpenTelemetry SDK (plugged in by cmd/mm), or a
// test's.
func NewProvider(tr trace.Tracer, shutdown func(context.Context) error) *Provider {
	return &Provider{tr: tr, shutdown: shutdown}
}

// On reports whether p exports spans.
func (p *Provider) On() bool { return p != nil && p.tr != nil }

// Shutdown exports the spans not yet sent, within FlushBound, and stops.
// Its error says the spans could not be exported, and where.
func (p *Provider) Shutdown(ctx context.Context) error {
	if !p.On() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, FlushBound)
	defer cancel()
	err := p.shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		return errors.New("spans not exported within " + FlushBound.String() + ": is the OTLP receiver up?")
	}
	return err
}

type providerKey struct{}

// WithProvider returns ctx carrying p: the spans started under it are p's.
func WithProvider(ctx context.Context, p *Provider) context.Context {
	if !p.On() {
		return ctx
	}
	return context.WithValue(ctx, providerKey{}, p)
}

// Adopt returns ctx carrying from's Provider when ctx has none: for a
// context a library made afresh (an HTTP request's) under a server started
// with one.
func Adopt(ctx, from context.Context) context.Context {
	if ctx.Value(providerKey{}) != nil {
		return ctx
	}
	p, _ := from.Value(providerKey{}).(*Provider)
	if !p.On() {
		return ctx
	}
	// The trace from's process continues (its TRACEPARENT), unless ctx
	// continues one of its own.
	if sc := trace.SpanContextFromContext(from); sc.IsValid() && !trace.SpanContextFromContext(ctx).IsValid() {
		ctx = trace.ContextWithSpanContext(ctx, sc)
	}
	return WithProvider(ctx, p)
}

func providerOf(ctx context.Context) *Provider {
	p, _ := ctx.Value(providerKey{}).(*Provider)
	return p
}
