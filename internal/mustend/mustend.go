// Package mustend holds the tests' bounds on what must end: a call that
// could block for ever (on a named pipe, a stuck child) fails its test
// instead of hanging the suite, and a condition the test cannot be told of
// on a channel (a process dies, another process writes a file) is waited
// for in one way. It measures no speed.
package mustend

import (
	"testing"
	"time"
)

// WaitBound is how long WaitFor waits for its condition. It is generous,
// since the machine may be loaded (at a load of 16 on 2 cores, Gemini CLI
// took 20 to 28 s to run its first command): it is there for the condition
// that never comes to hold.
const WaitBound = time.Minute

// pollEvery is how often a condition is tried: often enough that a test
// does not idle, seldom enough not to load the machine it waits on.
const pollEvery = 10 * time.Millisecond

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

// WaitFor tries cond until it holds, and fails t, naming what it waited
// for, when it has not held within WaitBound. Use it for what no channel
// can tell: when the code under test can say so on a channel, wait on that.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if !Eventually(WaitBound, cond) {
		t.Fatalf("waited %v for %s", WaitBound, what)
	}
}

// Eventually tries cond until it holds or d has passed, and reports whether
// it held: for a test that goes on either way, or that fails in its own
// words.
func Eventually(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(pollEvery)
	}
	return true
}
