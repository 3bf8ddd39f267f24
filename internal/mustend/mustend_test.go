package mustend

import (
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// TestEventually: a condition that comes to hold is seen; one that never
// does is given up on once the bound has passed (in synctest's virtual
// time, so the test waits for nothing).
func TestEventually(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var n atomic.Int32
		if !Eventually(time.Second, func() bool { return n.Add(1) == 3 }) {
			t.Error("a condition true on the third try: not seen")
		}
		start := time.Now()
		if Eventually(time.Second, func() bool { return false }) {
			t.Error("a condition never true: reported as held")
		}
		if waited := time.Since(start); waited < time.Second || waited > time.Second+pollEvery {
			t.Errorf("gave up after %v, want a second", waited)
		}
	})
}
