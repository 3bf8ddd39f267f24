//go:build unix

package tools

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/mm-agent/mm/internal/mustend"
)

// waitGone waits (generously: the machine may be loaded) until process pid
// has died, and fails the test if it does not. A zombie counts as dead: it
// is its parent's to reap.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	if !mustend.Eventually(mustend.WaitBound, func() bool { return processGone(pid) }) {
		t.Errorf("process %d still runs", pid)
	}
}

func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	// pid (comm) state …: the state follows the last ')'.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}
