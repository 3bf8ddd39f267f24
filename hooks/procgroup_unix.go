//go:build unix

package hooks

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup starts the command as the leader of a new process group,
// which then holds everything the hook starts; on Linux the kernel also
// kills it should mm die first.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
}

// killProcessGroup kills the command's whole process group: a hook's
// background children die with it instead of holding its pipes open.
func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// exitStatus is the status a shell would report: the exit code, or 128 plus
// the signal's number for a command killed by a signal.
func exitStatus(ee *exec.ExitError) int {
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}
