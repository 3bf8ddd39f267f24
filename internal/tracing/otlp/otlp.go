// Package otlp exports mm's spans over OTLP/HTTP with the OpenTelemetry
// SDK, when the standard OTEL_* variables ask for it. It is the one package
// of mm that imports the SDK; cmd/mm plugs it in (cli.Features), and it
// starts nothing unless the variables ask for an export.
//
// The exporter is mm's own, OTLP/HTTP with JSON encoding (export.go): the
// official one links google.golang.org/protobuf and gRPC's status types
// (docs/explanation/decisions/tracing.md).
package otlp

import (
	"os"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/mm-agent/mm/internal/tracing"
)

// batchDelay is how long an ended span may wait to be sent with others:
// shorter than the SDK's 5 s, for an mm serve that runs for hours shows its
// tasks soon after they end (OTEL_BSP_SCHEDULE_DELAY overrides it).
const batchDelay = time.Second

// Setup starts the export the OTEL_* variables of environ ask for, or
// nothing: without them the Provider is off and no goroutine, connection or
// span is ever made. The error is a bad variable's, with an off Provider.
func Setup(environ []string) (*tracing.Provider, error) {
	c, err := tracing.ParseEnv(environ)
	if err != nil || !c.On() {
		return &tracing.Provider{}, err
	}
	return New(c), nil
}

// New starts a Provider exporting to c's endpoint.
func New(c tracing.Config) *tracing.Provider {
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
	return tracing.NewProvider(tp.Tracer(tracing.Scope), tp.Shutdown)
}

// batchOptions are the batch processor's, where the OTEL_BSP_* variables
// (which the SDK reads itself) do not set them.
func batchOptions() []sdktrace.BatchSpanProcessorOption {
	if _, ok := os.LookupEnv("OTEL_BSP_SCHEDULE_DELAY"); ok {
		return nil
	}
	return []sdktrace.BatchSpanProcessorOption{sdktrace.WithBatchTimeout(batchDelay)}
}
