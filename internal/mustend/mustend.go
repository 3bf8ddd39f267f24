// Package mustend holds the tests' bound on something that must return: a
// call that could block for ever (on a named pipe, a stuck child) fails its
// test instead of hanging the suite. It measures no speed.
package mustend

import (
	"testing"
	"time"
)

// Within runs f and fails t when f has not returned after d, naming what.
// d is generous: it is there for the call that never returns.
func Within(t testing.TB, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s still running after %v", what, d)
	}
}
