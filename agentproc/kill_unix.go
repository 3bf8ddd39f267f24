//go:build unix

package agentproc

import (
	"os"
	"syscall"
)

// killGroup kills the process group p leads: the child and whatever it
// started that did not leave the group.
func killGroup(p *os.Process) {
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil {
		_ = p.Kill()
	}
}
