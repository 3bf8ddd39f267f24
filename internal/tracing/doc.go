// Package tracing is mm's OpenTelemetry: the spans of a turn, a model call,
// a tool call, a hook run and a hand-off, the trace context passed to the
// processes and agents mm asks (TRACEPARENT, the traceparent header, ACP's
// _meta), and the export of the spans over OTLP/HTTP when the standard
// OTEL_* variables ask for it.
//
// The provider travels in the context.Context, never in a global: a context
// without one (tracing not configured) starts no-op spans, which cost a
// branch. Nothing is started, no goroutine and no connection, unless Setup
// found an exporter to use.
//
// The exporter is mm's own, OTLP/HTTP with JSON encoding (otlpjson.go):
// the official one links google.golang.org/protobuf and gRPC's status
// types, whose package initialisers would run at every start of mm, traced
// or not (docs/explanation/decisions.md, issue 13).
package tracing
