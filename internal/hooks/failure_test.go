package hooks

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestRunErrorKinds: a run's failure says what ended it by its type, not
// its text alone: cancelled by the chain, past its timeout, or its own
// failure (exit status, a bad reply), each worded as the reference does.
func TestRunErrorKinds(t *testing.T) {
	slow := hook("sleep 60")
	slow.Timeout = 100 * time.Millisecond
	cancelledCtx, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name      string
		entry     Entry
		ctx       context.Context
		text      string
		cancelled bool
		timedOut  bool
	}{
		{"cancelled", hook("true"), cancelledCtx, "cancelled", true, false},
		{"timed out", slow, context.Background(), "timed out after 100ms", false, true},
		{"exit status", hook("echo no >&2; exit 2"), context.Background(), "exit status 2: no", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng, _ := testEngine(t, configOf(PreGeneration, tt.entry))
			_, failure := eng.exec(tt.ctx, PreGeneration, &tt.entry, []byte("{}"))
			if failure == nil {
				t.Fatal("the run did not fail")
			}
			if failure.Error() != tt.text || errors.Is(failure, context.Canceled) != tt.cancelled ||
				errors.Is(failure, context.DeadlineExceeded) != tt.timedOut {
				t.Errorf("failure %q (cancelled %v, timed out %v), want %q (%v, %v)", failure, errors.Is(failure, context.Canceled),
					errors.Is(failure, context.DeadlineExceeded), tt.text, tt.cancelled, tt.timedOut)
			}
		})
	}
}
