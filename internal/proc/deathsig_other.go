//go:build !linux

package proc

import "syscall"

// dieWithParent needs Linux's parent-death signal; elsewhere the watchdog
// alone kills mm's groups when mm dies.
func dieWithParent(*syscall.SysProcAttr) {}
