package cli

import (
	"context"
	"fmt"

	"github.com/mm-agent/mm/internal/tracing"
	"github.com/mm-agent/mm/internal/tracing/otlp"
)

// traced returns ctx carrying the tracing the OTEL_* variables ask for,
// continuing the trace of $TRACEPARENT, and the function that sends the
// last spans at exit (within tracing.FlushBound). Without the variables it
// returns ctx as it is: nothing starts.
func traced(ctx context.Context, s *streams) (_ context.Context, flush func()) {
	c, err := tracing.ParseEnv(s.Environ())
	if err != nil {
		fmt.Fprintf(s.ErrOut, "mm: %v (spans are not exported)\n", err)
	}
	if !c.On() {
		return ctx, func() {}
	}
	p := otlp.New(c)
	ctx = tracing.FromEnviron(tracing.WithProvider(ctx, p), s.Environ())
	return ctx, func() {
		// Not ctx: a signal has cancelled it, and the spans of the turn it
		// ended are the ones most worth sending.
		if err := p.Shutdown(context.Background()); err != nil {
			fmt.Fprintf(s.ErrOut, "mm: tracing: %v\n", err)
		}
	}
}
