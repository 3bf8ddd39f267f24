package tracing

import (
	"context"
	"net/http"
	"reflect"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

const given = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

// recorded is a Provider whose spans a test reads back.
func recorded(t *testing.T) (*Provider, *tracetest.InMemoryExporter) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return NewProvider(tp.Tracer(Scope), tp.Shutdown), exp
}

// TestPropagation: a span's context goes out as TRACEPARENT, as the
// traceparent header and as ACP _meta, and comes back in from each as the
// parent of the next process's spans.
func TestPropagation(t *testing.T) {
	p, exp := recorded(t)
	ctx := WithProvider(FromEnviron(context.Background(), []string{"PATH=/bin", "TRACEPARENT=" + given, "TRACESTATE=mm=1"}), p)
	ctx, span := Start(ctx, SpanHandOff, Client, attribute.String("mm.ask.agent", "expert"))
	sc := trace.SpanContextFromContext(ctx)
	if sc.TraceID().String() != "0af7651916cd43dd8448eb211c80319c" {
		t.Fatalf("the span is in trace %s, not TRACEPARENT's", sc.TraceID())
	}
	want := "00-0af7651916cd43dd8448eb211c80319c-" + sc.SpanID().String() + "-01"

	env := Environ(ctx, []string{"PATH=/bin", "TRACEPARENT=" + given, "TRACESTATE=mm=1"})
	if wantEnv := []string{"PATH=/bin", "TRACEPARENT=" + want, "TRACESTATE=mm=1"}; !reflect.DeepEqual(env, wantEnv) {
		t.Errorf("Environ = %q, want %q", env, wantEnv)
	}
	h := http.Header{}
	Inject(ctx, h)
	if h.Get("traceparent") != want || h.Get("tracestate") != "mm=1" {
		t.Errorf("headers %v, want traceparent %s", h, want)
	}
	meta := Meta(ctx)
	if wantMeta := map[string]any{"traceparent": want, "tracestate": "mm=1"}; !reflect.DeepEqual(meta, wantMeta) {
		t.Errorf("Meta = %v, want %v", meta, wantMeta)
	}

	// Each comes back in as a remote parent.
	for name, in := range map[string]context.Context{
		"environ": FromEnviron(context.Background(), env),
		"header":  FromHeader(context.Background(), h),
		"meta":    FromMeta(context.Background(), meta),
	} {
		got := trace.SpanContextFromContext(in)
		if !got.IsRemote() || got.TraceID() != sc.TraceID() || got.SpanID() != sc.SpanID() || got.TraceState().Get("mm") != "1" {
			t.Errorf("%s: read back %v, want the span %v", name, got, sc)
		}
	}
	span.End(nil)
	spans := exp.GetSpans()
	if len(spans) != 1 || spans[0].Parent.SpanID().String() != "b7ad6b7169203331" || !spans[0].Parent.IsRemote() {
		t.Fatalf("the span's parent is %v, want TRACEPARENT's", spans)
	}
}

// TestOffCostsNothing: with no Provider in the context (tracing not
// configured), a span starts and ends without allocating, nothing is
// handed on, and what a child process is given is its parent's TRACEPARENT
// untouched.
func TestOffCostsNothing(t *testing.T) {
	ctx := FromEnviron(context.Background(), []string{"TRACEPARENT=" + given})
	if !trace.SpanContextFromContext(ctx).IsValid() {
		t.Fatal("TRACEPARENT not read")
	}
	ctx = WithProvider(ctx, &Provider{})
	if On(ctx) {
		t.Error("On with an off Provider")
	}
	allocs := testing.AllocsPerRun(100, func() {
		c, s := Start(ctx, SpanTurn, Internal, attribute.String("mm.ask.agent", "expert"), attribute.Int("mm.depth", 1))
		s.Set(attribute.Int("mm.depth", 1), attribute.Bool("mm.ask.denied", true))
		s.Fail("x")
		s.End(nil)
		_ = c
	})
	if allocs != 0 {
		t.Errorf("a span with tracing off allocates %v times", allocs)
	}
	env := []string{"TRACEPARENT=" + given}
	if got := Environ(ctx, env); &got[0] != &env[0] {
		t.Errorf("Environ copied the environment with tracing off: %q", got)
	}
	if m := Meta(ctx); m != nil {
		t.Errorf("Meta = %v with tracing off", m)
	}
	h := http.Header{}
	Inject(ctx, h)
	if len(h) != 0 {
		t.Errorf("headers %v with tracing off", h)
	}
}

// TestAdopt: a context made afresh (an HTTP request's) takes the server's
// Provider, and its process's trace unless it continues one of its own.
func TestAdopt(t *testing.T) {
	p, _ := recorded(t)
	server := WithProvider(FromEnviron(context.Background(), []string{"TRACEPARENT=" + given}), p)
	got := Adopt(context.Background(), server)
	if !On(got) || trace.SpanContextFromContext(got).SpanID().String() != "b7ad6b7169203331" {
		t.Errorf("Adopt of a bare context: On=%v parent=%v", On(got), trace.SpanContextFromContext(got))
	}
	own := FromHeader(context.Background(), http.Header{"Traceparent": {"00-11111111111111111111111111111111-2222222222222222-01"}})
	got = Adopt(own, server)
	if trace.SpanContextFromContext(got).SpanID().String() != "2222222222222222" {
		t.Errorf("Adopt replaced the request's own parent: %v", trace.SpanContextFromContext(got))
	}
	if got := Adopt(context.Background(), context.Background()); got != context.Background() {
		t.Error("Adopt from an untraced context made a new one")
	}
}

// TestFromMetaIgnoresOthers: _meta without a string traceparent is no trace.
func TestFromMetaIgnoresOthers(t *testing.T) {
	for _, meta := range []map[string]any{nil, {"traceparent": 7}, {"traceparent": ""}, {"other": given}} {
		if ctx := FromMeta(context.Background(), meta); trace.SpanContextFromContext(ctx).IsValid() {
			t.Errorf("FromMeta(%v) read a trace", meta)
		}
	}
	if ctx := FromMeta(context.Background(), map[string]any{"traceparent": "garbage"}); trace.SpanContextFromContext(ctx).IsValid() {
		t.Error("FromMeta read a trace from garbage")
	}
}
