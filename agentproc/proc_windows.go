package agentproc

import (
	"os"
	"syscall"
)

func sysProcAttr() *syscall.SysProcAttr { return nil }

// killGroup kills the child; Windows has no process groups to kill at once.
func killGroup(p *os.Process) { _ = p.Kill() }
