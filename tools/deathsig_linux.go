package tools

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill cmd should mm die first (even by
// SIGKILL), so that a command or a server never outlives its session.
func dieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
