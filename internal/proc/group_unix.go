//go:build unix

package proc

import (
	"errors"
	"os/exec"
	"syscall"
)

// ownGroup makes the child the leader of a new process group.
func ownGroup(a *syscall.SysProcAttr) { a.Setpgid = true }

// killGroup sends SIGKILL to process group pgid.
func killGroup(pgid int) error {
	if pgid <= 1 {
		return errNoGroup
	}
	err := syscall.Kill(-pgid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return errNoGroup
	}
	return err
}

// killProcess sends SIGKILL to process pid alone; one already gone is not
// an error. A pid of 1 or less names no single process of mm's (-1 would be
// every process the user may signal).
func killProcess(pid int) error {
	if pid <= 1 {
		return nil
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// ExitStatus is the status a shell reports for a command that ended with
// ee: its exit code, or 128 plus the signal's number when a signal killed it
// (137 for SIGKILL).
func ExitStatus(ee *exec.ExitError) int {
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}
