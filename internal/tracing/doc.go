// Package tracing is mm's OpenTelemetry: the spans of a turn, a model call,
// a tool call, a hook run and a hand-off, the trace context passed to the
// processes and agents mm asks (TRACEPARENT, the traceparent header, ACP's
// _meta), and the export of the spans over OTLP/HTTP when the standard
// OTEL_* variables ask for it.
//
// The provider travels in the context.Context, never in a global: a context
// without one (tracing not configured) starts no-op spans, which cost a
// branch. Nothing is started, no goroutine and no connection, unless otlp.Setup
// found an exporter to use.
//
// The export itself is package otlp's, which links the OpenTelemetry SDK
// and cmd/mm plugs in; this package needs only OTel's API.
package tracing
