package proc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// CancelGroup returns the Cancel of cmd, started by Start: it kills cmd's
// process group (KillGroup). When cmd has already exited and been waited
// for, it says so with os.ErrProcessDone, as exec.Cmd asks: a nil Cancel
// makes cmd.Wait report the context's error, and a command that finished
// just before its context ended (a hook that had made its file when Ctrl-C
// came) would be told as cancelled.
func CancelGroup(cmd *exec.Cmd) func() error {
	return func() error {
		done := errors.Is(cmd.Process.Signal(syscall.Signal(0)), os.ErrProcessDone)
		if err := KillGroup(cmd.Process); err != nil {
			return err
		}
		if done {
			return os.ErrProcessDone
		}
		return nil
	}
}
