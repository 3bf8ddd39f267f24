//go:build unix && !linux

package agentproc

import "syscall"

// sysProcAttr puts the child in its own process group, so that it and
// everything it starts can be killed at once.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
