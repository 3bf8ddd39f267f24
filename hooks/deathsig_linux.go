package hooks

import "syscall"

// dieWithParent asks for SIGKILL when mm dies, even by SIGKILL itself.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
