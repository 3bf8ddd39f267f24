package proc

import "syscall"

// dieWithParent has the kernel SIGKILL the child should mm die first, even
// by SIGKILL itself. It reaches the child alone: the watchdog kills the rest
// of its group.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
