//go:build !unix

package hooks

import "os/exec"

// Without process groups, only the command itself is killed.
func setProcessGroup(cmd *exec.Cmd) {}

func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

func exitStatus(ee *exec.ExitError) int { return ee.ExitCode() }
