package otlp

import (
	"context"
	"runtime"
	"testing"

	"github.com/mm-agent/mm/internal/tracing"
)

// TestSetupOff: Setup without the variables starts no goroutine, and
// Shutdown is nothing.
func TestSetupOff(t *testing.T) {
	before := runtime.NumGoroutine()
	p, err := Setup([]string{"PATH=/bin"})
	if err != nil || p.On() {
		t.Fatalf("Setup = %v, %v; want off", p, err)
	}
	if n := runtime.NumGoroutine(); n != before {
		t.Errorf("%d goroutines after Setup, %d before", n, before)
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Error(err)
	}
	if ctx := tracing.WithProvider(context.Background(), p); ctx != context.Background() {
		t.Error("WithProvider of an off Provider made a new context")
	}
}
