package line

import (
	"testing"
	"time"
)

func TestSpinnerFrame(t *testing.T) {
	for _, tc := range []struct {
		elapsed time.Duration
		want    string
	}{
		// A tick is delivered late when the loop was busy: its time can
		// precede the start of a wait begun since.
		{-3 * time.Millisecond, "⠋"},
		{-250 * time.Millisecond, "⠋"},
		{0, "⠋"},
		{150 * time.Millisecond, "⠙"},
		{time.Second, "⠋"},
		{1950 * time.Millisecond, "⠏"},
	} {
		if got := spinnerFrame(tc.elapsed); got != tc.want {
			t.Errorf("spinnerFrame(%v) = %q, want %q", tc.elapsed, got, tc.want)
		}
	}
}
