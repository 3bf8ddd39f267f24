//go:build unix

package tools

import (
	"testing"

	"github.com/mm-agent/mm/internal/mustend"
	"github.com/mm-agent/mm/internal/proc/proctest"
)

// waitGone waits (generously: the machine may be loaded) until process pid
// has died, and fails the test if it does not. A zombie counts as dead: it
// is its parent's to reap.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	if !mustend.Eventually(mustend.WaitBound, func() bool { return proctest.Gone(pid) }) {
		t.Errorf("process %d still runs", pid)
	}
}
