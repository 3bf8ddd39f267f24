//go:build unix

package tools

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// ownGroup makes cmd the leader of a new process group, so that it and
// everything it starts can be killed at once.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// killGroup kills the process group led by p. A group that is already gone
// is not an error.
func killGroup(p *os.Process) error {
	err := syscall.Kill(-p.Pid, syscall.SIGKILL)
	if err == nil || errors.Is(err, syscall.ESRCH) {
		return nil
	}
	// The group may be gone while the leader is not yet reaped.
	if err := p.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	return nil
}
