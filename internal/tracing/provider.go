package tracing

import (
	"context"
	"errors"
	"os"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// scope is the instrumentation scope of mm's spans.
const scope = "github.com/mm-agent/mm"

// FlushBound is how long mm waits at exit for its last spans to be
// exported: a collector that is down or slow must not hold mm's exit.
const FlushBound = time.Second

// batchDelay is how long an ended span may wait to be sent with others:
// shorter than the SDK's 5 s, for an mm serve that runs for hours shows its
// tasks soon after they end (OTEL_BSP_SCHEDULE_DELAY overrides it).
const batchDelay = time.Second

// Provider makes the spans of one mm process. The zero Provider (tracing
// not configured) is valid and makes none.
type Provider struct {
	tp *sdktrace.TracerProvider
	tr trace.Tracer
}

// Setup starts the export the OTEL_* variables of environ ask for, or
// nothing: without them the Provider is off and no goroutine, connection or
// span is ever made. The error is a bad variable's, with an off Provider.
func Setup(environ []string) (*Provider, error) {
	c, err := ParseEnv(environ)
	if err != nil || !c.On() {
		return &Provider{}, err
	}
	return New(c), nil
}

// New starts a Provider exporting to c's endpoint.
func New(c Config) *Provider {
	// The pid tells apart the mm processes of one trace (an asking mm and
	// the mm it asked are both service.name mm).
	attrs := []attribute.KeyValue{attribute.String("service.name", c.ServiceName), attribute.Int("process.pid", os.Getpid())}
	for k, v := range c.Resource {
		attrs = append(attrs, attribute.String(k, v))
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithResource(resource.NewSchemaless(attrs...)),
		sdktrace.WithBatcher(newExporter(c), batchOptions()...),
	)
	return &Provider{tp: tp, tr: tp.Tracer(scope)}
}

// batchOptions are the batch processor's, where the OTEL_BSP_* variables
// (which the SDK reads itself) do not set them.
func batchOptions() []sdktrace.BatchSpanProcessorOption {
	if _, ok := os.LookupEnv("OTEL_BSP_SCHEDULE_DELAY"); ok {
		return nil
	}
	return []sdktrace.BatchSpanProcessorOption{sdktrace.WithBatchTimeout(batchDelay)}
}

// On reports whether p exports spans.
func (p *Provider) On() bool { return p != nil && p.tp != nil }

// Shutdown exports the spans not yet sent, within FlushBound, and stops.
// Its error says the spans could not be exported, and where.
func (p *Provider) Shutdown(ctx context.Context) error {
	if !p.On() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, FlushBound)
	defer cancel()
	err := p.tp.Shutdown(ctx)
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
