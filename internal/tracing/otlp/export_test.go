package otlp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mm-agent/mm/internal/tracing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.json")

// TestEncode: spans as OTLP/HTTP's JSON encoding writes them — hex ids,
// enums as numbers, 64-bit integers as strings, every attribute type mm
// can set — against testdata/export.json.
func TestEncode(t *testing.T) {
	tid, _ := trace.TraceIDFromHex("0af7651916cd43dd8448eb211c80319c")
	parent, _ := trace.SpanIDFromHex("b7ad6b7169203331")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	sid2, _ := trace.SpanIDFromHex("00f067aa0ba902b8")
	ts, _ := trace.ParseTraceState("mm=1")
	start := time.Unix(1700000000, 5)
	res := resource.NewSchemaless(attribute.String("service.name", "mm"), attribute.Int("process.pid", 42))
	scope := instrumentation.Scope{Name: tracing.Scope}
	spans := tracetest.SpanStubs{
		{
			Name: tracing.SpanHandOff, SpanKind: trace.SpanKindClient,
			SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, TraceState: ts}),
			Parent:      trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: parent, Remote: true}),
			StartTime:   start, EndTime: start.Add(1500 * time.Millisecond),
			Attributes: []attribute.KeyValue{
				attribute.String("mm.ask.agent", "expert"), attribute.Bool("mm.ask.with_context", true), attribute.Int("mm.ask.depth", 1),
				attribute.Float64("x.ratio", 0.5), attribute.StringSlice("mm.ask.agent_command", []string{"npx", "agent"}),
				attribute.Int64Slice("x.ints", []int64{1, 2}), attribute.BoolSlice("x.bools", []bool{true}), attribute.Float64Slice("x.floats", []float64{1.5}),
			},
			Events:               []sdktrace.Event{{Name: "exception", Time: start.Add(time.Second), Attributes: []attribute.KeyValue{attribute.String("exception.message", "agent expert: exit status 1")}}},
			Status:               sdktrace.Status{Code: codes.Error, Description: "agent expert: exit status 1"},
			Resource:             res,
			InstrumentationScope: scope,
		},
		{
			Name: tracing.SpanTurn, SpanKind: trace.SpanKindInternal,
			SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid2, TraceFlags: trace.FlagsSampled}),
			StartTime:   start, EndTime: start.Add(2 * time.Second),
			Resource: res, InstrumentationScope: scope,
		},
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, encode(spans.Snapshots()), "", "  "); err != nil {
		t.Fatal(err)
	}
	got := indented.Bytes()
	file := filepath.Join("testdata", "export.json")
	if *update {
		if err := os.WriteFile(file, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(got)+"\n" != string(want) {
		t.Errorf("encoded\n%s\nwant\n%s", got, want)
	}
}

// TestExport: a configured Provider posts its spans as JSON, with the
// configured headers, at Shutdown at the latest; a receiver that refuses
// them is reported once by Shutdown, never on the way.
func TestExport(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	var auth []string
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		bodies = append(bodies, r.Method+" "+r.URL.Path+" "+r.Header.Get("Content-Type")+" "+string(b))
		auth = append(auth, r.Header.Get("Authorization"))
		w.WriteHeader(status)
	}))
	defer srv.Close()

	c, err := tracing.ParseEnv([]string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + srv.URL, "OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer%20tok", "OTEL_SERVICE_NAME=reviewer"})
	if err != nil {
		t.Fatal(err)
	}
	p := New(c)
	ctx, span := tracing.Start(tracing.WithProvider(context.Background(), p), tracing.SpanTurn, tracing.Internal, attribute.Int("mm.depth", 0))
	_, child := tracing.Start(ctx, tracing.SpanModelCall, tracing.Client)
	child.End(errors.New("model: connection refused"))
	span.End(nil)
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	mu.Lock()
	if len(bodies) != 1 || auth[0] != "Bearer tok" {
		t.Fatalf("the receiver got %q with Authorization %q", bodies, auth)
	}
	for _, want := range []string{"POST /v1/traces application/json ", `{"key":"service.name","value":{"stringValue":"reviewer"}}`,
		`"name":"mm.model_call","kind":3`, `"status":{"code":2,"message":"model: connection refused"}`, `"name":"exception"`,
		`"name":"mm.turn","kind":1`, `{"key":"mm.depth","value":{"intValue":"0"}}`} {
		if !strings.Contains(bodies[0], want) {
			t.Errorf("the export lacks %s:\n%s", want, bodies[0])
		}
	}
	status = http.StatusServiceUnavailable
	mu.Unlock()

	p = New(c)
	_, span = tracing.Start(tracing.WithProvider(context.Background(), p), tracing.SpanTurn, tracing.Internal)
	span.End(nil)
	want := "spans not exported to " + srv.URL + "/v1/traces: " + srv.URL + "/v1/traces answered 503 Service Unavailable"
	if err := p.Shutdown(context.Background()); err == nil || err.Error() != want {
		t.Errorf("Shutdown = %v, want %s", err, want)
	}
}
