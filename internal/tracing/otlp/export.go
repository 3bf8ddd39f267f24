package otlp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/mm-agent/mm/internal/tracing"
)

// exporter posts spans to an OTLP/HTTP receiver, JSON-encoded as the OTLP
// specification's "JSON Protobuf Encoding" says: ids in hex, enums as
// numbers, 64-bit integers as strings.
type exporter struct {
	endpoint string
	headers  map[string]string
	client   *http.Client

	mu     sync.Mutex
	failed error // the first export that failed, reported once at Shutdown
}

func newExporter(c tracing.Config) *exporter {
	return &exporter{endpoint: c.Endpoint, headers: c.Headers, client: &http.Client{Timeout: c.Timeout}}
}

// ExportSpans posts one batch. A failure is kept for Shutdown rather than
// returned: the SDK would hand it to otel's global error handler, which
// writes a log line per batch on mm's stderr.
func (e *exporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if len(spans) == 0 {
		return nil
	}
	if err := e.post(ctx, encode(spans)); err != nil {
		e.mu.Lock()
		if e.failed == nil {
			e.failed = err
		}
		e.mu.Unlock()
	}
	return nil
}

func (e *exporter) post(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range e.headers {
		req.Header.Set(k, v)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s answered %s", e.endpoint, resp.Status)
	}
	return nil
}

// Shutdown returns the first export that failed, if one did.
func (e *exporter) Shutdown(context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.client.CloseIdleConnections()
	if e.failed != nil {
		return fmt.Errorf("spans not exported to %s: %w", e.endpoint, e.failed)
	}
	return nil
}

// The OTLP messages, as far as mm fills them.
type (
	exportRequest struct {
		ResourceSpans []resourceSpans `json:"resourceSpans"`
	}
	resourceSpans struct {
		Resource   resourceJSON `json:"resource"`
		ScopeSpans []scopeSpans `json:"scopeSpans"`
	}
	resourceJSON struct {
		Attributes []keyValue `json:"attributes"`
	}
	scopeSpans struct {
		Scope scopeJSON  `json:"scope"`
		Spans []spanJSON `json:"spans"`
	}
	scopeJSON struct {
		Name    string `json:"name"`
		Version string `json:"version,omitempty"`
	}
	spanJSON struct {
		TraceID           string      `json:"traceId"`
		SpanID            string      `json:"spanId"`
		TraceState        string      `json:"traceState,omitempty"`
		ParentSpanID      string      `json:"parentSpanId,omitempty"`
		Flags             uint32      `json:"flags,omitempty"`
		Name              string      `json:"name"`
		Kind              int         `json:"kind"`
		StartTimeUnixNano string      `json:"startTimeUnixNano"`
		EndTimeUnixNano   string      `json:"endTimeUnixNano"`
		Attributes        []keyValue  `json:"attributes,omitempty"`
		Events            []eventJSON `json:"events,omitempty"`
		Status            statusJSON  `json:"status"`
	}
	eventJSON struct {
		TimeUnixNano string     `json:"timeUnixNano"`
		Name         string     `json:"name"`
		Attributes   []keyValue `json:"attributes,omitempty"`
	}
	statusJSON struct {
		Code    int    `json:"code,omitempty"`
		Message string `json:"message,omitempty"`
	}
	keyValue struct {
		Key   string   `json:"key"`
		Value anyValue `json:"value"`
	}
	anyValue struct {
		StringValue *string     `json:"stringValue,omitempty"`
		BoolValue   *bool       `json:"boolValue,omitempty"`
		IntValue    *string     `json:"intValue,omitempty"`
		DoubleValue *float64    `json:"doubleValue,omitempty"`
		ArrayValue  *arrayValue `json:"arrayValue,omitempty"`
	}
	arrayValue struct {
		Values []anyValue `json:"values"`
	}
)

// encode writes spans as one ExportTraceServiceRequest, grouped by
// resource and instrumentation scope.
func encode(spans []sdktrace.ReadOnlySpan) []byte {
	var req exportRequest
	type key struct {
		res   attribute.Distinct
		scope string
	}
	where := map[key][2]int{}
	resIndex := map[attribute.Distinct]int{}
	for _, s := range spans {
		res := s.Resource()
		rk := res.Equivalent()
		ri, ok := resIndex[rk]
		if !ok {
			ri = len(req.ResourceSpans)
			resIndex[rk] = ri
			req.ResourceSpans = append(req.ResourceSpans, resourceSpans{Resource: resourceJSON{Attributes: keyValues(res.Attributes())}})
		}
		sc := s.InstrumentationScope()
		k := key{rk, sc.Name + "\x00" + sc.Version}
		at, ok := where[k]
		if !ok {
			at = [2]int{ri, len(req.ResourceSpans[ri].ScopeSpans)}
			where[k] = at
			req.ResourceSpans[ri].ScopeSpans = append(req.ResourceSpans[ri].ScopeSpans, scopeSpans{Scope: scopeJSON{Name: sc.Name, Version: sc.Version}})
		}
		ss := &req.ResourceSpans[at[0]].ScopeSpans[at[1]]
		ss.Spans = append(ss.Spans, spanOf(s))
	}
	b, _ := json.Marshal(req) // nothing in it can fail to encode
	return b
}

func spanOf(s sdktrace.ReadOnlySpan) spanJSON {
	sc := s.SpanContext()
	out := spanJSON{
		TraceID:           sc.TraceID().String(),
		SpanID:            sc.SpanID().String(),
		TraceState:        sc.TraceState().String(),
		Flags:             uint32(sc.TraceFlags()),
		Name:              s.Name(),
		Kind:              int(s.SpanKind()),
		StartTimeUnixNano: strconv.FormatInt(s.StartTime().UnixNano(), 10),
		EndTimeUnixNano:   strconv.FormatInt(s.EndTime().UnixNano(), 10),
		Attributes:        keyValues(s.Attributes()),
	}
	if p := s.Parent(); p.SpanID().IsValid() {
		out.ParentSpanID = p.SpanID().String()
		// SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE, and IS_REMOTE when it is: a
		// parent in another process (the asking mm's hand-off).
		out.Flags |= 0x100
		if p.IsRemote() {
			out.Flags |= 0x200
		}
	}
	for _, ev := range s.Events() {
		out.Events = append(out.Events, eventJSON{TimeUnixNano: strconv.FormatInt(ev.Time.UnixNano(), 10), Name: ev.Name, Attributes: keyValues(ev.Attributes)})
	}
	switch st := s.Status(); st.Code {
	case codes.Error:
		out.Status = statusJSON{Code: 2, Message: st.Description}
	case codes.Ok:
		out.Status = statusJSON{Code: 1}
	}
	return out
}

func keyValues(attrs []attribute.KeyValue) []keyValue {
	out := make([]keyValue, 0, len(attrs))
	for _, a := range attrs {
		out = append(out, keyValue{Key: string(a.Key), Value: valueOf(a.Value)})
	}
	return out
}

func valueOf(v attribute.Value) anyValue {
	switch v.Type() {
	case attribute.BOOL:
		b := v.AsBool()
		return anyValue{BoolValue: &b}
	case attribute.INT64:
		i := strconv.FormatInt(v.AsInt64(), 10)
		return anyValue{IntValue: &i}
	case attribute.FLOAT64:
		f := v.AsFloat64()
		return anyValue{DoubleValue: &f}
	case attribute.STRINGSLICE:
		var a arrayValue
		for _, s := range v.AsStringSlice() {
			a.Values = append(a.Values, anyValue{StringValue: &s})
		}
		return anyValue{ArrayValue: &a}
	case attribute.INT64SLICE:
		var a arrayValue
		for _, n := range v.AsInt64Slice() {
			i := strconv.FormatInt(n, 10)
			a.Values = append(a.Values, anyValue{IntValue: &i})
		}
		return anyValue{ArrayValue: &a}
	case attribute.BOOLSLICE:
		var a arrayValue
		for _, b := range v.AsBoolSlice() {
			a.Values = append(a.Values, anyValue{BoolValue: &b})
		}
		return anyValue{ArrayValue: &a}
	case attribute.FLOAT64SLICE:
		var a arrayValue
		for _, f := range v.AsFloat64Slice() {
			a.Values = append(a.Values, anyValue{DoubleValue: &f})
		}
		return anyValue{ArrayValue: &a}
	}
	s := v.Emit()
	return anyValue{StringValue: &s}
}
