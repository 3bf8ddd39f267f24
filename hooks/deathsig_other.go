//go:build unix && !linux

package hooks

import "syscall"

// dieWithParent needs Linux's parent-death signal; elsewhere the hook's
// timeout alone bounds it.
func dieWithParent(*syscall.SysProcAttr) {}
