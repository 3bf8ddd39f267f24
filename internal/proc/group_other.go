//go:build !unix

package proc

import (
	"os/exec"
	"syscall"
)

// ownGroup does nothing where there are no Unix process groups.
func ownGroup(*syscall.SysProcAttr) {}

// killGroup finds no group where there are none: KillGroup then kills the
// process alone.
func killGroup(int) error { return errNoGroup }

// killProcess is never needed where there are no process groups: nothing
// is adopted there (no subreaper), and only an adopted process is killed by
// its id.
func killProcess(int) error { return nil }

// ExitStatus is the command's exit code.
func ExitStatus(ee *exec.ExitError) int { return ee.ExitCode() }
