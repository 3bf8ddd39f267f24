package agentproc

import "syscall"

// sysProcAttr puts the child in its own process group, so that it and
// everything it starts can be killed at once, and has the kernel kill it
// should the parent die first.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
