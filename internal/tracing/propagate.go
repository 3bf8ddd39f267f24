package tracing

import (
	"context"
	"net/http"
	"strings"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// W3C Trace Context's names: the header (and ACP _meta key) and, as the
// environment spells them, the variables of a child process.
const (
	headerParent = "traceparent"
	headerState  = "tracestate"
	EnvParent    = "TRACEPARENT"
	EnvState     = "TRACESTATE"
)

var traceContext propagation.TraceContext

// Environ returns environ with ctx's span as TRACEPARENT (and TRACESTATE),
// for a child process to continue the trace; environ itself when ctx has
// no recorded span. environ is never changed in place.
func Environ(ctx context.Context, environ []string) []string {
	if !trace.SpanContextFromContext(ctx).IsValid() || providerOf(ctx) == nil {
		return environ
	}
	c := propagation.MapCarrier{}
	traceContext.Inject(ctx, c)
	out := make([]string, 0, len(environ)+2)
	for _, kv := range environ {
		if strings.HasPrefix(kv, EnvParent+"=") || strings.HasPrefix(kv, EnvState+"=") {
			continue
		}
		out = append(out, kv)
	}
	out = append(out, EnvParent+"="+c[headerParent])
	if st := c[headerState]; st != "" {
		out = append(out, EnvState+"="+st)
	}
	return out
}

// FromEnviron returns ctx continuing the trace of environ's TRACEPARENT,
// as a process started by a traced parent does; ctx when there is none.
func FromEnviron(ctx context.Context, environ []string) context.Context {
	c := propagation.MapCarrier{}
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, EnvParent+"="); ok {
			c[headerParent] = v
		} else if v, ok := strings.CutPrefix(kv, EnvState+"="); ok {
			c[headerState] = v
		}
	}
	if c[headerParent] == "" {
		return ctx
	}
	return traceContext.Extract(ctx, c)
}

// Inject sets ctx's span as the traceparent (and tracestate) headers of an
// HTTP request to another agent.
func Inject(ctx context.Context, h http.Header) {
	if providerOf(ctx) != nil {
		traceContext.Inject(ctx, propagation.HeaderCarrier(h))
	}
}

// FromHeader returns ctx continuing the trace of a request's traceparent
// header; ctx when it has none.
func FromHeader(ctx context.Context, h http.Header) context.Context {
	if h.Get(headerParent) == "" {
		return ctx
	}
	return traceContext.Extract(ctx, propagation.HeaderCarrier(h))
}

// Meta returns ctx's span as ACP _meta entries ({"traceparent": …}), for
// a prompt to an agent whose environment mm does not set (one over ssh, or
// one started for an earlier hand-off); nil when ctx has no recorded span.
func Meta(ctx context.Context) map[string]any {
	if !trace.SpanContextFromContext(ctx).IsValid() || providerOf(ctx) == nil {
		return nil
	}
	c := propagation.MapCarrier{}
	traceContext.Inject(ctx, c)
	m := map[string]any{headerParent: c[headerParent]}
	if st := c[headerState]; st != "" {
		m[headerState] = st
	}
	return m
}

// FromMeta returns ctx continuing the trace of an ACP request's _meta
// traceparent; ctx when it has none, or not as a string.
func FromMeta(ctx context.Context, meta map[string]any) context.Context {
	p, _ := meta[headerParent].(string)
	if p == "" {
		return ctx
	}
	c := propagation.MapCarrier{headerParent: p}
	if st, ok := meta[headerState].(string); ok {
		c[headerState] = st
	}
	return traceContext.Extract(ctx, c)
}
